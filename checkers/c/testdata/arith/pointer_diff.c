#include <stddef.h>
#include <string.h>
#include <stdint.h>

struct item {
	int key;
	int value;
};

size_t count_items(struct item *first, struct item *last)
{
	return (last - first) / sizeof(struct item); // want "c.int.pointer-diff"
}

size_t count_ints(int *begin, int *end)
{
	return (end - begin) / sizeof(*begin); // want "c.int.pointer-diff"
}

size_t count_ints_ok(int *begin, int *end)
{
	return end - begin; // safe "c.int.pointer-diff"
}

size_t count_bytes_ok(int *begin, int *end)
{
	return ((char *)end - (char *)begin) / sizeof(int); // safe "c.int.pointer-diff"
}

size_t count_chars(char *begin, char *end)
{
	return (end - begin) / sizeof(char); // safe "c.int.pointer-diff"
}

void copy_nth(int *table, int n, const int *src)
{
	memcpy(table + n * sizeof(int), src, sizeof(int)); // want "c.int.pointer-diff"
	memcpy(table + n, src, sizeof(int)); // safe "c.int.pointer-diff"
}

struct item *skip_items(struct item *it, int n)
{
	it += n * sizeof(struct item); // want "c.int.pointer-diff"
	return it;
}

unsigned char *skip_bytes(unsigned char *buf, int n)
{
	return buf + n * sizeof(struct item); // safe "c.int.pointer-diff"
}

void *skip_raw(struct item *items, int n)
{
	return (char *)items + n * sizeof(struct item); // safe "c.int.pointer-diff"
}

size_t header_len(const struct item *it)
{
	return sizeof(*it) + sizeof(int); // safe "c.int.pointer-diff"
}

/* Comments, strings and dead code stay silent: (end - begin) / sizeof(int) */
static const char *ptr_doc = "table + n * sizeof(int)";
#if 0
size_t old_count(int *b, int *e) { return (e - b) / sizeof(int); }
#endif
