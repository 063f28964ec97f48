#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/select.h>

enum mode { MODE_READ, MODE_WRITE, MODE_APPEND };

extern int lookup(const char *key, int *out);

/* Flawed: read before anything was stored. */
int parse_mode(const char *s)
{
	int mode;
	if (strcmp(s, "r") == 0)
		mode = MODE_READ;
	else if (strcmp(s, "w") == 0)
		mode = MODE_WRITE;
	return mode; // want "c.memory.uninit"
}

size_t total_len(const char **parts, int n)
{
	size_t total;
	for (int i = 0; i < n; i++)
		total += strlen(parts[i]); // want "c.memory.uninit"
	return total;
}

int first_digit(const char *s)
{
	const char *p;
	while (*p && (*p < '0' || *p > '9')) // want "c.memory.uninit"
		p++;
	return *p ? *p - '0' : -1;
}

int pick(int flag)
{
	int value;
	if (flag)
		value = 1;
	return value + 1; // want "c.memory.uninit"
}

/* Fixed: assigned on every path, or written through a pointer. */
int parse_mode_fixed(const char *s)
{
	int mode;
	if (strcmp(s, "r") == 0)
		mode = MODE_READ;
	else
		mode = MODE_WRITE;
	return mode; // safe "c.memory.uninit"
}

int lookup_default(const char *key)
{
	int v;
	if (lookup(key, &v) < 0)
		return -1;
	return v; // safe "c.memory.uninit"
}

int by_switch(enum mode m)
{
	int flags;
	switch (m) {
	case MODE_READ:
		flags = 1;
		break;
	case MODE_WRITE:
		flags = 2;
		break;
	default:
		flags = 3;
		break;
	}
	return flags; // safe "c.memory.uninit"
}

int sum_fixed(const int *v, int n)
{
	int sum;
	sum = 0;
	for (int i = 0; i < n; i++)
		sum += v[i]; // safe "c.memory.uninit"
	return sum;
}

void log_fmt(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap); // safe "c.memory.uninit"
	va_end(ap);
}

int wait_fd(int fd)
{
	fd_set rd;
	FD_ZERO(&rd);
	FD_SET(fd, &rd);
	return select(fd + 1, &rd, NULL, NULL, NULL); // safe "c.memory.uninit"
}

int last_index(const int *v, int n, int key)
{
	int i, found = -1;
	for (i = 0; i < n; i++)
		if (v[i] == key)
			found = i;
	return found + i; // safe "c.memory.uninit"
}
