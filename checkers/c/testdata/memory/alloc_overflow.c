#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct image {
	uint32_t width, height;
	unsigned char *pixels;
};

/* Flawed: the product can wrap and allocate a tiny block. */
int image_alloc(struct image *img, size_t width, size_t height)
{
	img->pixels = malloc(width * height); // want "c.memory.alloc-overflow"
	if (!img->pixels)
		return -1;
	img->width = width;
	img->height = height;
	return 0;
}

void *array_new(size_t count, size_t elem)
{
	return malloc(count * elem); // want "c.memory.alloc-overflow"
}

void *grow(void *p, size_t nmemb, size_t size)
{
	return realloc(p, nmemb * size * 2); // want "c.memory.alloc-overflow"
}

void *matrix(size_t rows, size_t cols, size_t elem)
{
	return malloc(rows * cols * elem); // want "c.memory.alloc-overflow"
}

/* Fixed: checked before, a constant factor, or calloc. */
int image_alloc_fixed(struct image *img, size_t width, size_t height)
{
	if (height != 0 && width > SIZE_MAX / height)
		return -1;
	img->pixels = malloc(width * height); // safe "c.memory.alloc-overflow"
	if (!img->pixels)
		return -1;
	return 0;
}

void *array_calloc(size_t count, size_t elem)
{
	return calloc(count, elem); // safe "c.memory.alloc-overflow"
}

char *copy_line(const char *s)
{
	size_t n = strlen(s);
	char *out = malloc(n * sizeof(char) + 1); // safe "c.memory.alloc-overflow"
	if (out)
		memcpy(out, s, n + 1);
	return out;
}

void *bytes(unsigned char a, unsigned char b)
{
	return malloc(a * b); // safe "c.memory.alloc-overflow"
}

/* A constant factor matters only for program input: main's argv, not a
   field of the same name. */
int atoi(const char *);
int main(int argc, char **argv)
{
	int n = atoi(argv[1]); // want "c.input.atoi"
	int *v = malloc(n * sizeof(int)); // want "c.memory.alloc-overflow" "c.dos.unbounded-alloc" "c.int.signed-size"
	if (!v)
		return 1;
	v[0] = argc;
	free(v);
	return 0;
}

struct client {
	int argc;
	char **argv;
};

char **copy_args(struct client *c)
{
	return malloc(c->argc * sizeof(*c->argv)); // safe "c.memory.alloc-overflow"
}

size_t *one_slot(void)
{
	size_t *tmp = malloc(sizeof *tmp); // safe "c.memory.alloc-overflow"
	return tmp;
}
