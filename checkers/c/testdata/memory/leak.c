#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct conn {
	char *peer;
	int fd;
};

extern int parse_header(const char *buf, size_t len);
extern void conn_set_peer(struct conn *c, char *peer);

/* Flawed: error paths after the allocation forget to free it. */
int read_header(int fd, size_t len)
{
	char *buf = malloc(len);
	if (buf == NULL)
		return -1;
	if (read(fd, buf, len) != (ssize_t)len)
		return -1; // want "c.memory.leak"
	int rc = parse_header(buf, len);
	free(buf);
	return rc;
}

char *dup_trimmed(const char *s)
{
	char *copy = strdup(s);
	if (!copy)
		return NULL;
	size_t n = strlen(copy);
	if (n == 0)
		return NULL; // want "c.memory.leak"
	while (n > 0 && copy[n - 1] == ' ')
		copy[--n] = '\0';
	return copy;
}

int checksum(const unsigned char *data, size_t n)
{
	unsigned char *tmp = malloc(n);
	int sum = 0;
	if (!tmp)
		return 0;
	memcpy(tmp, data, n);
	for (size_t i = 0; i < n; i++)
		sum += tmp[i];
	return sum; // want "c.memory.leak"
}

void log_line(const char *msg, size_t n)
{
	char *line = malloc(n + 2);
	if (!line)
		return;
	memcpy(line, msg, n);
	line[n] = '\n';
	write(2, line, n + 1);
} // want "c.memory.leak"

/* Fixed: every path frees or hands the block off. */
int read_header_fixed(int fd, size_t len)
{
	int rc = -1;
	char *buf = malloc(len);
	if (buf == NULL)
		return -1; // safe "c.memory.leak"
	if (read(fd, buf, len) != (ssize_t)len)
		goto out;
	rc = parse_header(buf, len);
out:
	free(buf);
	return rc; // safe "c.memory.leak"
}

int set_peer(struct conn *c, const char *name)
{
	char *peer = strdup(name);
	if (!peer)
		return -1;
	if (c->fd < 0) {
		free(peer);
		return -1; // safe "c.memory.leak"
	}
	c->peer = peer;
	return 0; // safe "c.memory.leak"
}

int hand_off(struct conn *c, const char *name)
{
	char *peer = strdup(name);
	if (peer == NULL)
		return -1;
	conn_set_peer(c, peer);
	return 0; // safe "c.memory.leak"
}

char *make_copy(const char *s, size_t n, char **out)
{
	char *p = malloc(n + 1);
	if (!p)
		return NULL;
	memcpy(p, s, n);
	p[n] = '\0';
	if (out) {
		*out = p;
		return NULL; // safe "c.memory.leak"
	}
	return p; // safe "c.memory.leak"
}

int cleanup_both(size_t n)
{
	char *a = malloc(n), *b = malloc(n);
	if (!a || !b) {
		free(a);
		free(b);
		return -1; // safe "c.memory.leak"
	}
	free(a);
	free(b);
	return 0;
}
