/* Configuration parsing and log time stamps (single-threaded tool). */
#include <stdio.h>
#include <string.h>
#include <time.h>

int parse_list(char *line, char **out, int max)
{
	int n = 0;
	char *tok;
	char *save = NULL;

	for (tok = strtok(line, ","); tok && n < max; tok = strtok(NULL, ",")) // want "c.api.strtok" "c.api.strtok"
		out[n++] = tok;
	tok = strtok_r(line, ":", &save); // safe "c.api.strtok"
	(void)tok;
	return n;
}

void stamp(char *buf, size_t len)
{
	time_t now = time(NULL);
	struct tm tm;
	struct tm *lt = localtime(&now); // want "c.api.time-nonreentrant"

	if (lt != NULL)
		strftime(buf, len, "%Y-%m-%d", lt);
	printf("%s\n", ctime(&now)); // want "c.api.time-nonreentrant"
	gmtime_r(&now, &tm); // safe "c.api.time-nonreentrant"
	localtime_r(&now, &tm); // safe "c.api.time-nonreentrant"
	/* localtime(&now) in a comment */
	puts("use strtok_r, not strtok");
}

/* A struct member named like the API is not a call. */
struct clock_ops {
	struct tm *(*localtime)(const time_t *);
};
