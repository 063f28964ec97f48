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

extern int open_conf(const char *path);
extern int read_conf(int fd);
extern int parse_hex(const char *s, int *out, const char **end);

/* The goto-cleanup idiom: every jump to the label carries the state. */
int load_conf(const char *path)
{
	int ret;
	int fd = open_conf(path);
	if (fd < 0) {
		ret = -1;
		goto out;
	}
	if (read_conf(fd) < 0) {
		ret = -2;
		goto out;
	}
	ret = 0;
out:
	return ret; // safe "c.memory.uninit"
}

/* One jump forgets to set it. */
int load_conf_flawed(const char *path)
{
	int ret;
	int fd = open_conf(path);
	if (fd < 0)
		goto out;
	ret = read_conf(fd);
out:
	return ret; // want "c.memory.uninit"
}

/* Written by the left operand of &&, read by the right one. */
int hex_end_is_nul(const char *s)
{
	int v;
	const char *end;
	return !parse_hex(s, &v, &end) && *end == '\0'; // safe "c.memory.uninit"
}

/* Behind ||, the write may not have happened. */
int hex_or_nul(const char *s, int quick)
{
	int v;
	const char *end;
	return (quick || !parse_hex(s, &v, &end)) && *end == '\0'; // want "c.memory.uninit"
}

/* A struct tag is no mention of the variable that shares its name; a
 * "(void)x;" statement reads nothing; "(T *)&x" hands x out to be written. */
struct commit {
	int date;
};

extern struct commit *lookup_commit(const char *name);
extern int read_into(char *buf, int n);

int commit_date(const char *name)
{
	struct commit *commit;
	struct commit fallback = {0};
	if (!name)
		return fallback.date;
	commit = lookup_commit(name);
	return commit ? commit->date : 0; // safe "c.memory.uninit"
}

int commit_date_bad(const char *name)
{
	struct commit *commit;
	struct commit fallback = {0};
	if (name)
		commit = lookup_commit(name);
	else
		fallback.date = 1;
	return commit->date; // want "c.memory.uninit"
}

int unused_for_now(int n)
{
	int spare;
	(void)spare; // safe "c.memory.uninit"
	return n;
}

int read_byte(void)
{
	unsigned char byte;
	if (read_into((char *)&byte, 1) != 1)
		return -1;
	return byte; // safe "c.memory.uninit"
}

int read_byte_bad(void)
{
	unsigned char byte, other;
	if (read_into((char *)&other, 1) != 1)
		return -1;
	return byte; // want "c.memory.uninit"
}

int masked(int a)
{
	int mask;
	int v = a & mask; // want "c.memory.uninit"
	return v;
}

int store_through(int c)
{
	int *slot;
	if (c)
		*slot = 1; // want "c.memory.uninit"
	return 0;
}

/* A name declared again after a comma is a new variable. */
int sum_twice(const int *v, int n)
{
	int i, total = 0;
	for (i = 0; i < n; i++)
		total += v[i];
	{
		int j, i;
		for (j = 0; j < 2; j++)
			total += j;
		i = total;
		total = i;
	}
	return total; // safe "c.memory.uninit"
}

int second_unset(int n)
{
	int first = n, second;
	return first + second; // want "c.memory.uninit"
}

/* The true branch of a chain of &&s runs every operand; the false branch
   of a chain of ||s too. */
int query(int *out);
int and_chain(int a)
{
	int b;
	if (a && !query(&b)) {
		if (b > 0) // safe "c.memory.uninit"
			return 1;
	}
	return 0;
}

int and_chain_false(int a)
{
	int b;
	if (a && !query(&b))
		return 0;
	return b; // want "c.memory.uninit"
}

long next(void);
long or_chain(int a)
{
	long n;
	if (a || (n = next()) < 0 || n > 5) // safe "c.memory.uninit"
		return 0;
	return n; // safe "c.memory.uninit"
}

long or_chain_true(int a)
{
	long n;
	if (a || (n = next()) < 0)
		return n; // want "c.memory.uninit"
	return 0;
}

long or_chain_nested(int a)
{
	long n;
	if ((a && (n = next()) > 0) || a > 5)
		return 0;
	return n; // want "c.memory.uninit"
}

/* A loop's body runs after its whole condition. */
struct commit *next_commit(void);
int walk_commits(int i)
{
	struct commit *commit;
	int n = 0;
	while (i-- && (commit = next_commit()))
		n += commit != 0; // safe "c.memory.uninit"
	return n;
}

const char *find_next(const char *s);
int scan_format(const char *s)
{
	const char *cp, *sp;
	int n = 0;
	for (cp = s; *cp && (sp = find_next(cp)); cp = sp + 1)
		n++; // safe "c.memory.uninit"
	return n;
}

/* (TYPE)&x with a type the parser cannot know takes the address. */
int recv(int s, void *buf, unsigned long n, int flags);
int peek_byte(int s)
{
	char buf;
	if (recv(s, (RECV_ARG)&buf, 1, 0) != 1)
		return -1;
	return buf; // safe "c.memory.uninit"
}

int masked_sum(int a)
{
	int mask;
	int v = (a + 1) & mask; // want "c.memory.uninit"
	return v;
}

/* final and override are ordinary names in C. */
int names(int k)
{
	int final, override;
	if (k)
		override = k;
	k += final; // want "c.memory.uninit"
	return override; // want "c.memory.uninit"
}

/* A label that a later goto jumps back to: the state walk does not
   iterate such a loop; it forgets what it knows about every variable at
   the label, so it reports the read before the label and none after it
   (a read of ret there may see nothing assigned: a known limit). */
int retry_conf(int fd)
{
	int ret;
	int tries;
	if (fd < 0)
		tries = 3;
	if (tries > 2) // want "c.memory.uninit"
		return -2;
again:
	if (read_conf(fd) < 0) {
		ret = -1;
		goto again;
	}
	return ret; // safe "c.memory.uninit"
}

/* A read inside parentheses is a read: (len) calls nothing. */
size_t padded_total(size_t base, int pad)
{
	size_t len;
	size_t total;
	if (pad)
		base++;
	total = (len); // want "c.memory.uninit"
	return total + base;
}

size_t padded_total_fixed(size_t base, int pad)
{
	size_t len = base;
	size_t total;
	if (pad)
		len++;
	total = (len); // safe "c.memory.uninit"
	return total;
}
