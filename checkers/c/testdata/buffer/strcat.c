#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PATH_LEN 64

struct request {
	char path[128];
	char query[256];
};

/* Flawed: a user-controlled directory is appended to a fixed buffer. */
int build_path(int argc, char **argv)
{
	char path[PATH_LEN];

	if (argc < 2)
		return 1;
	strcpy(path, "/var/www/");
	strcat(path, argv[1]); // want "c.buffer.strcat"
	return open_file(path);
}

/* Flawed: the literals add up to more than the array holds. */
void banner(char *out)
{
	char line[20];

	strcpy(line, "hello, ");
	strcat(line, "wonderful ");
	strcat(line, "world"); // want "c.buffer.strcat"
	puts(line);
}

/* Fixed twin: the literals fit what is left. */
void banner_fixed(void)
{
	char line[32];

	strcpy(line, "hello, ");
	strcat(line, "wonderful "); // safe "c.buffer.strcat"
	strcat(line, "world"); // safe "c.buffer.strcat"
	puts(line);
}

/* Flawed: appending in a loop has no bound on the total. */
void join_args(int argc, char **argv)
{
	char cmd[256];
	int i;

	cmd[0] = '\0';
	for (i = 1; i < argc; i++) {
		strcat(cmd, " "); // want "c.buffer.strcat"
		strcat(cmd, argv[i]); // want "c.buffer.strcat"
	}
	run_command(cmd);
}

/* Flawed: a parameter of unknown length appended to a struct field. */
void add_query(struct request *req, const char *q)
{
	strcat(req->query, q); // want "c.buffer.strcat"
}

/* Fixed: the destination is allocated from both lengths. */
char *concat(const char *dir, const char *file)
{
	size_t len = strlen(dir) + strlen(file) + 2;
	char *out = malloc(len);

	if (out == NULL)
		return NULL;
	strcpy(out, dir);
	strcat(out, "/"); // safe "c.buffer.strcat"
	strcat(out, file); // safe "c.buffer.strcat"
	return out;
}

/* Fixed: an empty buffer and a short literal. */
void greet(void)
{
	char msg[8] = "";

	strcat(msg, "hi"); // safe "c.buffer.strcat"
	puts(msg);
}

/* Fixed: a bounded array appended to a larger one. */
void copy_name(void)
{
	char first[16], full[64];

	if (fgets(first, sizeof first, stdin) == NULL)
		return;
	full[0] = '\0';
	strcat(full, first); // safe "c.buffer.strcat"
	puts(full);
}

/* Comments, strings and dead code stay silent. */
void quiet(char *dst, const char *src)
{
	/* strcat(dst, src); */
	const char *doc = "strcat(dst, src) appends";
#if 0
	strcat(dst, src);
#endif
	(void)doc;
}
