#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <libintl.h>

#define _(s) gettext(s)
#define USAGE "usage: %s [-v] file\n"

static const char *const level_names[] = { "debug: %s\n", "info: %s\n", "error: %s\n" };

/* Flawed: user input used as the format. */
int main(int argc, char **argv)
{
	char line[256];

	if (argc > 1)
		printf(argv[1]); // want "c.format.printf"
	if (fgets(line, sizeof line, stdin) != NULL)
		fprintf(stderr, line); // want "c.format.printf"
	printf("%s", argv[0]); // safe "c.format.printf"
	fprintf(stderr, USAGE, argv[0]); // safe "c.format.printf"
	return 0;
}

/* Flawed: a message parameter printed as a format. */
void show_message(FILE *out, const char *msg)
{
	fprintf(out, msg); // want "c.format.printf"
	fputs(msg, out);
}

/* Fixed twin. */
void show_message_fixed(FILE *out, const char *msg)
{
	fprintf(out, "%s", msg); // safe "c.format.printf"
}

/* Flawed: a buffer built from input, then used as a format. */
void echo_name(const char *name)
{
	char buf[128];

	snprintf(buf, sizeof buf, "hello %s\n", name);
	printf(buf); // want "c.format.printf"
}

/* Fixed: literals chosen at run time, translated literals, a table of literals. */
void status(int verbose, int level, const char *what)
{
	const char *fmt = verbose ? "%s: done (verbose)\n" : "%s: done\n";

	printf(fmt, what); // safe "c.format.printf"
	printf(_("cannot open %s\n"), what); // safe "c.format.printf"
	printf(verbose ? _("yes\n") : _("no\n")); // safe "c.format.printf"
	fprintf(stderr, level_names[level], what); // safe "c.format.printf"
}

/* Fixed: a printf-like wrapper forwards its own format. */
void log_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap); // safe "c.format.printf"
	va_end(ap);
}

void log_verror(const char *fmt, va_list ap)
{
	char msg[512];

	vsnprintf(msg, sizeof msg, fmt, ap); // safe "c.format.printf"
	fputs(msg, stderr);
}

/* Flawed: snprintf with a format from the environment-derived buffer. */
void title(char *out, size_t n, const char *user)
{
	char fmt[64];

	strncpy(fmt, user, sizeof fmt - 1);
	fmt[sizeof fmt - 1] = '\0';
	snprintf(out, n, fmt); // want "c.format.printf"
}

/* Comments, strings and dead code stay silent. */
void quiet(const char *s)
{
	/* printf(s); */
	puts("never call printf(s)");
#if 0
	printf(s);
#endif
}
