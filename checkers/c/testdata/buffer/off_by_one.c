#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define NAME_LEN 32
#define MAX_ITEMS 10

struct record {
	char name[NAME_LEN];
	int scores[MAX_ITEMS];
};

/* Flawed: the terminator is written one past the end. */
void set_name(struct record *r, const char *src)
{
	char buf[NAME_LEN];

	strncpy(buf, src, sizeof buf);
	buf[sizeof buf] = '\0'; // want "c.buffer.off-by-one"
	buf[NAME_LEN] = '\0'; // want "c.buffer.off-by-one"
	memcpy(r->name, buf, sizeof r->name);
	r->name[sizeof(r->name)] = 0; // want "c.buffer.off-by-one"
}

/* Fixed twin: the last element is size - 1. */
void set_name_fixed(struct record *r, const char *src)
{
	char buf[NAME_LEN];

	strncpy(buf, src, sizeof buf);
	buf[sizeof buf - 1] = '\0'; // safe "c.buffer.off-by-one"
	buf[NAME_LEN - 1] = '\0'; // safe "c.buffer.off-by-one"
	memcpy(r->name, buf, sizeof r->name);
	r->name[sizeof(r->name) - 1] = 0; // safe "c.buffer.off-by-one"
}

/* Flawed: the loop runs to i <= N. */
void reset_scores(void)
{
	int scores[MAX_ITEMS];
	int i;

	for (i = 0; i <= MAX_ITEMS; i++)
		scores[i] = 0; // want "c.buffer.off-by-one"
	for (i = 0; i < MAX_ITEMS; i++)
		scores[i] = 0; // safe "c.buffer.off-by-one"
	report(scores);
}

/* Flawed: read() can fill the whole buffer, then the NUL goes past it. */
int read_reply(int fd)
{
	char reply[128];
	ssize_t n;

	n = read(fd, reply, sizeof reply);
	if (n < 0)
		return -1;
	reply[n] = '\0'; // want "c.buffer.off-by-one"
	return parse(reply);
}

/* Fixed twin: read one byte less. */
int read_reply_fixed(int fd)
{
	char reply[128];
	ssize_t n;

	n = read(fd, reply, sizeof reply - 1);
	if (n < 0)
		return -1;
	reply[n] = '\0'; // safe "c.buffer.off-by-one"
	return parse(reply);
}

/* Fixed: readlink with an explicit bound check. */
int link_target(const char *path)
{
	char target[256];
	ssize_t len = readlink(path, target, sizeof(target));

	if (len < 0 || len >= (ssize_t)sizeof(target))
		return -1;
	target[len] = '\0'; // safe "c.buffer.off-by-one"
	return use(target);
}

/* Flawed: the loop bound is larger than the array. */
void clear_small(void)
{
	unsigned char small[8];
	int i;

	for (i = 0; i < 16; i++)
		small[i] = 0; // want "c.buffer.off-by-one"
	for (i = 0; i < (int)sizeof small; i++)
		small[i] = 0; // safe "c.buffer.off-by-one"
	use_bytes(small);
}

/* Comments, strings and dead code stay silent. */
void quiet_index(void)
{
	char buf[8] = "";
	/* buf[sizeof buf] = 0; */
	puts("never write buf[sizeof buf] = 0;");
#if 0
	buf[sizeof buf] = 0;
#endif
}

/* Flawed: the array is declared after an initialised name, and after a
 * long list of names (the triage reads past both). */
void late_arrays(void)
{
	int count = (int)sizeof(long), marks[4];
	char a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, b0, b1, b2, b3, b4, b5, b6, b7, b8, b9, tail[4];

	marks[4] = count; // want "c.buffer.off-by-one"
	tail[4] = 0; // want "c.buffer.off-by-one"
	use_bytes((unsigned char *)marks);
	use_bytes((unsigned char *)tail);
}
