#include <stdlib.h>
#include <string.h>

struct vec {
	int *items;
	size_t len, cap;
};

/* Flawed: on failure the old block is lost. */
int vec_grow(struct vec *v)
{
	size_t cap = v->cap ? v->cap * 2 : 16;
	v->items = realloc(v->items, cap * sizeof(int)); // want "c.memory.realloc-leak"
	if (!v->items)
		return -1;
	v->cap = cap;
	return 0;
}

char *append(char *buf, size_t *len, const char *s)
{
	size_t n = strlen(s);
	buf = (char *)realloc(buf, *len + n + 1); // want "c.memory.realloc-leak"
	if (buf == NULL)
		return NULL;
	memcpy(buf + *len, s, n + 1);
	*len += n;
	return buf;
}

/* Fixed: a temporary keeps the old block alive until realloc succeeds. */
int vec_grow_fixed(struct vec *v)
{
	size_t cap = v->cap ? v->cap * 2 : 16;
	int *tmp = realloc(v->items, cap * sizeof(int)); // safe "c.memory.realloc-leak"
	if (!tmp)
		return -1;
	v->items = tmp;
	v->cap = cap;
	return 0;
}

char *append_saved(char *buf, size_t len, size_t n)
{
	char *old = buf;
	buf = realloc(buf, len + n); // safe "c.memory.realloc-leak"
	if (!buf) {
		free(old);
		return NULL;
	}
	return buf;
}

extern void *xrealloc(void *, size_t);

void grow_or_die(struct vec *v, size_t cap)
{
	v->items = xrealloc(v->items, cap * sizeof(int)); // safe "c.memory.realloc-leak"
	v->cap = cap;
}
