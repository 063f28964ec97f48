#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct msg {
	char body[256];
	size_t used;
};

void copy_body(struct msg *m, const char *src)
{
	int len;
	if (scanf("%d", &len) != 1 || len > (int)sizeof m->body)
		return;
	memcpy(m->body, src, len); // want "c.int.signed-size"
}

ssize_t relay(int in, int out, char *buf, size_t cap, char *dst)
{
	ssize_t got = read(in, buf, cap);
	memcpy(dst, buf, got); // want "c.int.signed-size"
	return write(out, buf, got); // want "c.int.signed-size"
}

ssize_t relay_checked(int in, char *buf, size_t cap, char *dst)
{
	ssize_t got = read(in, buf, cap);
	if (got < 0)
		return -1;
	memcpy(dst, buf, got); // safe "c.int.signed-size"
	return got;
}

void drain(int in, int out)
{
	char buf[4096];
	ssize_t n;
	while ((n = read(in, buf, sizeof buf)) > 0)
		if (write(out, buf, n) != n) // safe "c.int.signed-size"
			break;
}

char *alloc_records(const char *arg)
{
	long count = strtol(arg, NULL, 10);
	return malloc(count * sizeof(struct msg)); // want "c.int.signed-size"
}

char *alloc_records_checked(const char *arg)
{
	long count = strtol(arg, NULL, 10);
	if (count <= 0 || count > 1024)
		return NULL;
	return malloc(count * sizeof(struct msg)); // safe "c.int.signed-size"
}

/* A difference is not reported: it is non-negative by construction far
 * more often than not. */
void copy_span(char *dst, const char *start, const char *end)
{
	int n = end - start;
	memcpy(dst, start, n); // safe "c.int.signed-size"
}

void copy_default(char *dst, const char *src, int have_len, const char *arg)
{
	int n = -1;
	if (have_len)
		n = (int)strtol(arg, NULL, 10);
	memcpy(dst, src, n); // want "c.int.signed-size"
}

ssize_t recv_record(int sock, char *rec, size_t cap)
{
	char buf[512];
	ssize_t got = recv(sock, buf, sizeof buf, 0);
	if (got == -1)
		return -1;
	memcpy(rec, buf, got < (ssize_t)cap ? got : (ssize_t)cap); // safe "c.int.signed-size"
	return got;
}

void copy_unsigned(char *dst, const char *src, const char *arg)
{
	size_t n = strtoul(arg, NULL, 10);
	memcpy(dst, src, n); // safe "c.int.signed-size"
}

void copy_param(char *dst, const char *src, int n)
{
	memcpy(dst, src, n); // safe "c.int.signed-size"
}

void copy_const(char *dst, const char *src)
{
	int n = 16;
	memcpy(dst, src, n); // safe "c.int.signed-size"
}

/* snprintf fails only on encoding errors; its hazard is truncation. */
void truncate_line(char *dst, const char *src, size_t cap)
{
	int len = snprintf(dst, cap, "%s", src);
	char *copy = malloc(len + 1); // safe "c.int.signed-size"
	if (copy)
		strncpy(copy, dst, len); // safe "c.int.signed-size"
	free(copy);
}

long file_size(FILE *f, char **out)
{
	long size;
	if (fseek(f, 0, SEEK_END) != 0)
		return -1;
	size = ftell(f);
	*out = malloc(size + 1); // want "c.int.signed-size"
	return size;
}

void emit_middle(FILE *out, const char *line, int written, int trailing)
{
	trailing = -1;
	if (line[0])
		trailing = (int)strtol(line, NULL, 10);
	if (trailing - written > 0 && fwrite(line + written, trailing - written, 1, out) != 1) // safe "c.int.signed-size"
		clearerr(out);
}

/* The -1 default is replaced when the test catches it. */
size_t emit_tail(FILE *out, const char *line, int len)
{
	int trailing = -1;
	int i;
	for (i = len - 1; i >= 0 && line[i] == ' '; i--)
		trailing = i;
	if (trailing == -1)
		trailing = len;
	return fwrite(line + trailing, trailing, 1, out); // safe "c.int.signed-size"
}

/* Comments, strings and dead code stay silent: memcpy(dst, src, got); */
static const char *size_doc = "memcpy(dst, buf, read(fd, buf, n))";
#if 0
void old_copy(int fd, char *dst, char *buf) { ssize_t n = read(fd, buf, 8); memcpy(dst, buf, n); }
#endif
