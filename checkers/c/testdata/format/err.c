#include <err.h>
#include <error.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

/* Flawed: a file name used as the format. */
int open_input(const char *path)
{
	FILE *f = fopen(path, "r");

	if (f == NULL)
		err(EXIT_FAILURE, path); // want "c.format.err"
	if (ferror(f))
		warnx(path); // want "c.format.err"
	if (feof(f))
		error(1, errno, path); // want "c.format.err"
	return fileno(f);
}

/* Fixed twin. */
int open_input_fixed(const char *path)
{
	FILE *f = fopen(path, "r");

	if (f == NULL)
		err(EXIT_FAILURE, "%s", path); // safe "c.format.err"
	if (ferror(f))
		warnx("%s: read error", path); // safe "c.format.err"
	if (feof(f))
		error(1, errno, "%s", path); // safe "c.format.err"
	return fileno(f);
}

/* A project's own error(fmt, ...) is another function: git's style. */
int error(const char *fmt, ...);

int check_ref(const char *ref, const char *why)
{
	return error("bad ref %s: %s", ref, why); // safe "c.format.err"
}

/* Comments, strings and dead code stay silent. */
void quiet_warnx(const char *msg)
{
	/* warnx(msg); */
	puts("never write warnx(msg);");
#if 0
	warnx(msg);
#endif
}
