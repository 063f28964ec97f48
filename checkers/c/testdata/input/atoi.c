/* Numeric conversions: a port from the command line, a count from the
 * environment, constants. */
#include <stdio.h>
#include <stdlib.h>

#define DEFAULT_PORT "8080"

struct options {
	int port;
	int verbose;
	double ratio;
};

int parse_options(struct options *opt, int argc, char **argv)
{
	if (argc < 3)
		return -1;
	opt->port = atoi(argv[1]); // want "c.input.atoi"
	opt->ratio = atof(argv[2]); // want "c.input.atoi"
	opt->verbose = atoi("0"); // safe "c.input.atoi"
	return 0;
}

int default_port(void)
{
	return atoi(DEFAULT_PORT); // safe "c.input.atoi"
}

long workers_from_env(void)
{
	const char *s = getenv("WORKERS");
	if (s == NULL)
		return 1;
	return atol(s); // want "c.input.atoi"
}

/* A value handed in by the caller: still unchecked, but less telling. */
int level_of(const char *text)
{
	return atoi(text); // want "c.input.atoi"
}

/* Range-checked afterwards: reported with less confidence. */
int checked_port(const char *arg)
{
	int port = atoi(arg); // want "c.input.atoi"
	if (port < 1 || port > 65535)
		return -1;
	return port;
}

/* The fixed twin: strtol with an end pointer and a range check. */
int strict_port(const char *arg)
{
	char *end;
	long v = strtol(arg, &end, 10); // safe "c.input.atoi"
	if (*end != '\0' || v < 1 || v > 65535)
		return -1;
	return (int)v;
}

/* Mentions that are not calls. */
void quiet(void)
{
	/* atoi(argv[1]) would be wrong here */
	const char *doc = "use atoi(s) only for trusted input";
#if 0
	int n = atoi(doc);
#endif
	(void)doc;
}
