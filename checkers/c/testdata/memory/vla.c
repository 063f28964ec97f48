#include <string.h>
#include <stdio.h>
#include <unistd.h>

#define MAX_PATH_LEN 4096

/* Flawed: the array size comes from the caller or the input. */
int send_frame(int fd, const char *payload, size_t len)
{
	char frame[len + 4]; // want "c.memory.vla"
	frame[0] = 0x7e;
	memcpy(frame + 1, payload, len);
	return (int)write(fd, frame, len + 1);
}

void transpose(int rows, int cols, const int *in, int *out)
{
	int tmp[rows * cols]; // want "c.memory.vla"
	for (int r = 0; r < rows; r++)
		for (int c = 0; c < cols; c++)
			tmp[c * rows + r] = in[r * cols + c];
	memcpy(out, tmp, sizeof tmp);
}

/* Fixed: constant sizes, or a bound is checked before the declaration. */
int send_frame_fixed(int fd, const char *payload, size_t len)
{
	if (len > MAX_PATH_LEN)
		return -1;
	char frame[len + 4]; // safe "c.memory.vla"
	frame[0] = 0x7e;
	memcpy(frame + 1, payload, len);
	return (int)write(fd, frame, len + 1);
}

void constant_sizes(void)
{
	char path[MAX_PATH_LEN + 1]; // safe "c.memory.vla"
	char small[sizeof(long) * 2]; // safe "c.memory.vla"
	const int n = 16;
	int table[n]; // safe "c.memory.vla"
	path[0] = small[0] = 0;
	table[0] = 0;
	(void)path;
}

/* A VLA parameter is a pointer, not a stack array. */
void scale(int n, double v[n], double k)
{
	for (int i = 0; i < n; i++)
		v[i] *= k;
}

/* ARRAY_SIZE of an array is a constant. */
struct ent {
	int id;
};

int count_ids(const struct ent *src)
{
	const struct ent *all[4];
	int seen[ARRAY_SIZE(all)]; // safe "c.memory.vla"
	seen[0] = src->id;
	all[0] = src;
	return seen[0] + all[0]->id;
}

int count_more(const struct ent *src, int extra)
{
	const struct ent *all[4];
	int seen[ARRAY_SIZE(all) + extra]; // want "c.memory.vla"
	seen[0] = src->id;
	all[0] = src;
	return seen[0] + all[0]->id;
}
