#include <stdlib.h>
#include <string.h>
#include <assert.h>

struct buffer {
	char *data;
	size_t len;
	size_t cap;
};

/* Flawed: the allocation is used before anyone looks at it. */
struct buffer *buffer_new(size_t cap)
{
	struct buffer *b = malloc(sizeof(*b));
	b->data = malloc(cap); // want "c.null.unchecked-alloc"
	b->len = 0;
	b->cap = cap;
	memset(b->data, 0, cap); // want "c.null.unchecked-alloc"
	return b;
}

char *join_words(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	char *out = malloc(la + lb + 2);
	memcpy(out, a, la); // want "c.null.unchecked-alloc"
	out[la] = ' ';
	memcpy(out + la + 1, b, lb + 1);
	return out;
}

void fill_table(int **table, int n)
{
	int *row = calloc(n, sizeof(int));
	row[0] = 1; // want "c.null.unchecked-alloc"
	*table = row;
}

char *copy_name(const char *name)
{
	char *copy = strdup(name);
	if (strlen(copy) > 64) // want "c.null.unchecked-alloc"
		copy[64] = '\0';
	return copy;
}

void zero_block(size_t n)
{
	memset(malloc(n), 0, n); // want "c.null.unchecked-alloc"
}

/* Fixed: every result is checked before use. */
struct buffer *buffer_new_checked(size_t cap)
{
	struct buffer *b = malloc(sizeof(*b));
	if (b == NULL)
		return NULL;
	b->data = malloc(cap);
	if (!b->data) {
		free(b);
		return NULL;
	}
	memset(b->data, 0, cap); // safe "c.null.unchecked-alloc"
	b->len = 0; // safe "c.null.unchecked-alloc"
	return b;
}

char *join_checked(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	char *out;
	if ((out = malloc(la + lb + 2)) == NULL)
		return NULL;
	memcpy(out, a, la); // safe "c.null.unchecked-alloc"
	out[la] = ' ';
	memcpy(out + la + 1, b, lb + 1);
	return out;
}

int first_or_zero(size_t n)
{
	int *v = calloc(n, sizeof(int));
	int r = v && v[0]; // safe "c.null.unchecked-alloc"
	free(v);
	return r;
}

void asserted(size_t n)
{
	char *p = malloc(n);
	assert(p);
	p[0] = 0; // safe "c.null.unchecked-alloc"
	free(p);
}

/* Aborting allocators never return NULL. */
extern void *xmalloc(size_t);

char *xcopy(const char *s, size_t n)
{
	char *p = xmalloc(n + 1);
	memcpy(p, s, n); // safe "c.null.unchecked-alloc"
	p[n] = '\0';
	return p;
}

/* Only returned or stored: the caller checks. */
void *make_block(size_t n)
{
	void *p = malloc(n);
	return p; // safe "c.null.unchecked-alloc"
}

void stash(struct buffer *b, size_t n)
{
	b->data = malloc(n); // safe "c.null.unchecked-alloc"
	b->cap = b->data ? n : 0;
}

/* A test of the root is no test of the field that holds the block. */
void fill_first(struct buffer *b)
{
	b->data = malloc(16);
	if (b)
		b->data[0] = 0; // want "c.null.unchecked-alloc"
}

void fill_checked(struct buffer *b)
{
	b->data = malloc(16);
	if (b->data)
		b->data[0] = 0; // safe "c.null.unchecked-alloc"
}

void *cast_returned(size_t n)
{
	return (void *) malloc(n); // safe "c.null.unchecked-alloc"
}

/* Used through a cast: the size header of a block from malloc(). */
void *header_alloc(size_t n)
{
	unsigned char *m;
	m = (unsigned char *)malloc(n + 8);
	*((size_t *)m) = n; // want "c.null.unchecked-alloc"
	return m + 8;
}

void *header_alloc_checked(size_t n)
{
	unsigned char *m;
	m = (unsigned char *)malloc(n + 8);
	if (m == NULL)
		return NULL;
	*((size_t *)m) = n; // safe "c.null.unchecked-alloc"
	return m + 8;
}
