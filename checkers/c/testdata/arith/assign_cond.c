#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define STATE_DONE 3

struct conn {
	char *name;
	int state;
	int fd;
	struct conn *next;
};

int poll_conn(struct conn *c, int expected)
{
	if (c->state = STATE_DONE) // want "c.logic.assign-in-cond"
		return 1;
	if (c->state == STATE_DONE) // safe "c.logic.assign-in-cond"
		return 1;
	if (c->fd = -1) // want "c.logic.assign-in-cond"
		return -1;
	if (c->state = expected) // want "c.logic.assign-in-cond"
		return 2;
	while (c->fd = 0) // want "c.logic.assign-in-cond"
		c->fd = 1;
	return 0;
}

int idioms(FILE *f, struct conn *c, size_t n)
{
	char *p;
	int ch;
	ssize_t got;
	char buf[64];
	if ((p = malloc(n)) == NULL) // safe "c.logic.assign-in-cond"
		return -1;
	while ((ch = getc(f)) != EOF) // safe "c.logic.assign-in-cond"
		n++;
	if ((got = read(c->fd, buf, sizeof buf))) // safe "c.logic.assign-in-cond"
		n += got;
	if ((c = c->next)) // safe "c.logic.assign-in-cond"
		n++;
	if (got = read(c->fd, buf, sizeof buf)) // safe "c.logic.assign-in-cond"
		n += got;
	while (c = c->next) // safe "c.logic.assign-in-cond"
		n++;
	if (n == 0 && (ch = 1)) // safe "c.logic.assign-in-cond"
		n++;
	if (p = c->name) // safe "c.logic.assign-in-cond"
		n += strlen(p);
	do {
		n--;
	} while (ch = 0); // want "c.logic.assign-in-cond"
	free(p);
	return (int)n;
}

/* In comments and strings: if (x = 0) */
static const char *doc = "if (x = 0) is a bug";
