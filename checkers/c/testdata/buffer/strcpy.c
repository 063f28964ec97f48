#include <stdlib.h>
#include <string.h>

#define NAME_MAX_LEN 16

static char g_name[NAME_MAX_LEN];

struct user {
	char name[32];
};

/* Flawed: argv goes straight into a fixed buffer. */
int main(int argc, char **argv)
{
	char buf[64];
	if (argc < 2)
		return 1;
	strcpy(buf, argv[1]); // want "c.buffer.strcpy"
	strcpy(g_name, "administrator-account"); // want "c.buffer.strcpy"
	strcpy(g_name, "guest"); // safe "c.buffer.strcpy"
	return 0;
}

void set_name(struct user *u, const char *name)
{
	strcpy(u->name, name); // want "c.buffer.strcpy"
}

/* Fixed: the destination is sized from the source. */
char *dup_name(const char *name)
{
	char *copy = malloc(strlen(name) + 1);
	if (copy == NULL)
		return NULL;
	strcpy(copy, name); // safe "c.buffer.strcpy"
	return copy;
}

/* Fixed: appending at the end of a buffer sized from both parts. */
char *join_dir(const char *dir, const char *file)
{
	size_t filelen = strlen(file);
	char *path = malloc(strlen(dir) + filelen + 2);

	if (path == NULL)
		return NULL;
	strcpy(path, dir); // safe "c.buffer.strcpy"
	strcpy(path + strlen(path), "/"); // safe "c.buffer.strcpy"
	strcpy(path + strlen(path), file); // safe "c.buffer.strcpy"
	return path;
}

/* Fixed: an array into an array of the same size. */
void copy_same(void)
{
	char a[32], b[32];
	b[0] = 0;
	strcpy(a, b); // safe "c.buffer.strcpy"
}

/* Comments, strings and dead code do not count. */
void quiet(char *dst)
{
	/* strcpy(dst, getenv("HOME")); */
	const char *doc = "call strcpy(dst, src) to copy";
#if 0
	strcpy(dst, doc);
#endif
	(void)doc;
}

/* A field or variable named strcpy is not a call. */
struct ops {
	char *(*strcpy)(char *, const char *);
};
