#include <stdlib.h>
#include <string.h>
#include <ctype.h>

/* Flawed: free() receives an address inside the block. */
void strip_and_free(char *s)
{
	char *p = strdup(s);
	if (!p)
		return;
	while (isspace((unsigned char)*p))
		p++;
	free(p); // want "c.memory.free-offset"
}

void skip_header(size_t n)
{
	unsigned char *buf = malloc(n + 4);
	if (!buf)
		return;
	free(buf + 4); // want "c.memory.free-offset"
}

void drop_tail(char *base)
{
	char *p = malloc(64);
	if (!p)
		return;
	p += 8;
	free(p); // want "c.memory.free-offset"
	(void)base;
}

/* Fixed: a cursor walks the block, the original pointer is freed. */
void strip_fixed(char *s)
{
	char *p = strdup(s);
	char *cur;
	if (!p)
		return;
	cur = p;
	while (isspace((unsigned char)*cur))
		cur++;
	free(p); // safe "c.memory.free-offset"
}

void free_first(char **items)
{
	free(&items[0][0]); // safe "c.memory.free-offset"
	free(items + 0); // safe "c.memory.free-offset"
}
