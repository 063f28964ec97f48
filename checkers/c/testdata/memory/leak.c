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

/* Allocations in inner blocks: the triage follows the path out of the
 * block to the function's end. */
extern int lookup(const char *key);
extern void table_put(const char *key, char *val);

int cache_value(const char *key, size_t n)
{
	char *val;
	if (lookup(key)) {
		val = malloc(n);
		if (!val)
			return -1;
		memset(val, 0, n);
	} else {
		return 0;
	}
	return 1; // want "c.memory.leak"
}

int cache_chain(const char *key, size_t n, int mode)
{
	char *val;
	if (mode == 0) {
		return 0;
	} else if (mode == 1) {
		val = malloc(n);
		if (!val)
			return -1;
		val[0] = 0;
	} else {
		return 2;
	}
	return 1; // want "c.memory.leak"
}

int cache_goto(const char *key, size_t n)
{
	char *val;
	int rc = 0;
	if (lookup(key)) {
		val = malloc(n);
		if (!val)
			return -1;
		val[0] = 0;
		goto out;
	}
	return 2;
out:
	return rc; // want "c.memory.leak"
}

int cache_value_fixed(const char *key, size_t n)
{
	char *val = NULL;
	if (lookup(key)) {
		val = malloc(n);
		if (!val)
			goto fail;
		memset(val, 0, n);
	}
	if (val)
		table_put(key, val);
	return 1; // safe "c.memory.leak"
fail:
	return -1; // safe "c.memory.leak"
}

int cache_chain_fixed(const char *key, size_t n, int mode)
{
	char *val;
	if (mode == 0) {
		return 0;
	} else if (mode == 1) {
		val = malloc(n);
		if (!val)
			return -1;
		val[0] = 0;
	} else {
		return 2;
	}
	free(val);
	return 1; // safe "c.memory.leak"
}

int two_exits(size_t n, int fail)
{
	char *p = malloc(n);
	if (!p)
		return -1;
	if (fail)
		goto out;
	p[0] = 0;
out:
	return 0; // want "c.memory.leak"
}

int fill_until(int fd)
{
	char *buf;
	for (;;) {
		buf = malloc(16);
		if (!buf)
			return -1;
		if (read(fd, buf, 16) <= 0)
			break;
	}
	return 0; // want "c.memory.leak"
}

int fill_until_fixed(int fd)
{
	char *buf;
	for (;;) {
		buf = malloc(16);
		if (!buf)
			return -1;
		if (read(fd, buf, 16) <= 0)
			break;
		free(buf);
	}
	free(buf);
	return 0; // safe "c.memory.leak"
}

/* An allocation that never fails in an arm of a conditional. */
char *xstrdup(const char *);
int arm_leak(const char *s, int c)
{
	char *p = c ? xstrdup(s) : NULL;
	if (!p)
		return 0;
	return p[0]; // want "c.memory.leak"
}

int arm_grouped_leak(const char *s, int c)
{
	char *p;
	p = c ? NULL : (xstrdup(s));
	if (!p)
		return 0;
	return p[0]; // want "c.memory.leak"
}

char *arm_returned(const char *s, int c)
{
	return c ? xstrdup(s) : NULL; // safe "c.memory.leak"
}

/* Once its address is taken, a block may be reached through any call. */
struct node {
	int sub;
	struct node *next;
};
void node_register(int *slot);
int register_node(void)
{
	struct node *n = malloc(sizeof *n);
	if (!n)
		return -1;
	node_register(&n->sub);
	return 0; // safe "c.memory.leak"
}

int address_only(void)
{
	struct node *n = malloc(sizeof *n);
	int *p;
	if (!n)
		return -1;
	p = &n->sub;
	*p = 1;
	return *p; // want "c.memory.leak"
}

void node_log(int v);
int call_without_address(void)
{
	struct node *n = malloc(sizeof *n);
	if (!n)
		return -1;
	n->sub = 1;
	node_log(n->sub);
	return 0; // want "c.memory.leak"
}
