#include <stdio.h>

#define QL_STAT "'stat'"

/* Literals split by macros are still literals. */
void usage(const char *progname)
{
	fprintf(stderr, // safe "c.format.printf"
	        "usage: %s [options] [script]\n"
	        "  -e stat  execute string " QL_STAT "\n"
	        "  -v       show version information\n",
	        progname);
}

/* A format passed down with its values: this function is a format wrapper. */
void say_name(FILE *out, const char *fmt, const char *name)
{
	fprintf(out, fmt, name); // safe "c.format.printf"
}

/* Flawed: a computed string printed with no values. */
const char *last_error(void);

void report_error(void)
{
	printf(last_error()); // want "c.format.printf"
	printf("%s", last_error()); // safe "c.format.printf"
}
