#include <stdio.h>

/* A project's own warn() and error(), without <err.h> or <error.h>. */
static int warn(const char *who, const char *msg)
{
	return fprintf(stderr, "%s: %s\n", who, msg);
}

int error(int code, int flags, const char *what);

int check(const char *user, const char *msg)
{
	warn(user, msg); // safe "c.format.err"
	return error(1, 0, msg); // safe "c.format.err"
}
