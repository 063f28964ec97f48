/* Temporary file names. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

FILE *open_scratch(void)
{
	char name[L_tmpnam];

	if (!tmpnam(name)) // want "c.file.tmpname"
		return NULL;
	return fopen(name, "w+");
}

char *spool_name(void)
{
	return tempnam("/var/spool/app", "job"); // want "c.file.tmpname"
}

int make_lock(void)
{
	char tmpl[] = "/tmp/app-lock.XXXXXX";

	if (!mktemp(tmpl)) // want "c.file.tmpname"
		return -1;
	return open(tmpl, O_WRONLY | O_CREAT | O_TRUNC, 0600);
}

/* mktemp followed by an exclusive open only risks a failed open. */
int make_lock_excl(void)
{
	char tmpl[] = "/tmp/app-lock.XXXXXX";

	if (!mktemp(tmpl)) // want "c.file.tmpname"
		return -1;
	return open(tmpl, O_WRONLY | O_CREAT | O_EXCL, 0600);
}

/* mktemp followed by mkdir: mkdir fails on an existing name. */
char *make_dir_from_template(char *tmpl)
{
	if (!*mktemp(tmpl) || mkdir(tmpl, 0700)) // want "c.file.tmpname"
		return NULL;
	return tmpl;
}

/* The fixes: mkstemp and tmpfile create the file atomically. */
int make_lock_safe(void)
{
	char tmpl[] = "/tmp/app-lock.XXXXXX";

	return mkstemp(tmpl); // safe "c.file.tmpname"
}

FILE *open_scratch_safe(void)
{
	return tmpfile(); // safe "c.file.tmpname"
}

/* Mentions that are not calls. */
struct tmp_ops {
	char *(*tmpnam)(char *);
};

const char *doc = "tmpnam(buf) is unsafe";
