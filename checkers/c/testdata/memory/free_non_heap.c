#include <stdlib.h>
#include <string.h>

static char g_scratch[256];

struct msg {
	char text[64];
	int len;
};

/* Flawed: none of these came from malloc. */
void release_scratch(void)
{
	free(g_scratch); // want "c.memory.free-non-heap"
}

void release_local(void)
{
	char line[128];
	memset(line, 0, sizeof line);
	free(line); // want "c.memory.free-non-heap"
}

void release_msg(void)
{
	struct msg m;
	m.len = 0;
	free(&m); // want "c.memory.free-non-heap"
}

void release_name(int anonymous)
{
	char *name = "nobody";
	if (!anonymous)
		name = "guest";
	free(name); // want "c.memory.free-non-heap"
}

void release_literal(void)
{
	free("static text"); // want "c.memory.free-non-heap"
}

/* Fixed: only heap pointers are freed. */
void release_heap(int anonymous, const char *user)
{
	char *name = "nobody";
	if (!anonymous)
		name = strdup(user);
	if (!anonymous)
		free(name); // safe "c.memory.free-non-heap"
}

void release_param(char buf[])
{
	free(buf); // safe "c.memory.free-non-heap"
}

void release_owned(struct msg **m)
{
	free(*m); // safe "c.memory.free-non-heap"
	*m = NULL;
}

void drop_second(int n)
{
	char first[4], second[8];
	first[0] = second[0] = (char)n;
	free(second); // want "c.memory.free-non-heap"
}
