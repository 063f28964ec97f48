#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct node {
	struct node *next;
	int value;
	char *label;
	char tag[8];
};

/* Flawed: sizeof of the pointer, not of the 100-byte buffer. */
char *make_buffer(void)
{
	char *buf = malloc(100);

	if (buf == NULL)
		return NULL;
	memset(buf, 0, sizeof(buf)); // want "c.buffer.sizeof-pointer"
	return buf;
}

/* Flawed: an array parameter is a pointer. */
void read_name(int fd, char name[64])
{
	if (read(fd, name, sizeof(name)) < 0) // want "c.buffer.sizeof-pointer"
		return;
	name[63] = '\0';
}

/* Flawed: allocation sized by the pointer, and a pointer field. */
struct node *new_node(const char *label)
{
	struct node *n = malloc(sizeof(n)); // want "c.buffer.sizeof-pointer"

	if (n == NULL)
		return NULL;
	n->label = label_copy(label);
	memset(n->label, 0, sizeof(n->label)); // want "c.buffer.sizeof-pointer"
	return n;
}

/* Fixed twins: sizeof the object, and sizeof an array. */
struct node *new_node_fixed(void)
{
	struct node *n = malloc(sizeof(*n)); // safe "c.buffer.sizeof-pointer"
	char line[128];

	if (n == NULL)
		return NULL;
	memset(n, 0, sizeof(*n)); // safe "c.buffer.sizeof-pointer"
	memset(n->tag, 0, sizeof(n->tag)); // safe "c.buffer.sizeof-pointer"
	if (fgets(line, sizeof(line), stdin) != NULL) // safe "c.buffer.sizeof-pointer"
		n->value = parse_int(line);
	return n;
}

/* Fixed: copying a pointer value is what sizeof(p) is for. */
void save_ptr(void **slot, void *p)
{
	memcpy(slot, &p, sizeof(p)); // safe "c.buffer.sizeof-pointer"
}

/* Fixed: the base's struct is declared elsewhere; a same-named pointer field here does not decide. */
typedef struct status status_t;

struct message {
	char *msg;
};

void set_error(status_t *status, const char *fmt, va_list ap)
{
	vsnprintf(status->msg, sizeof(status->msg), fmt, ap); // safe "c.buffer.sizeof-pointer"
}

/* Comments, strings and dead code stay silent. */
void quiet_sizeof(char *p)
{
	/* memset(p, 0, sizeof(p)); */
	puts("never write memset(p, 0, sizeof(p));");
#if 0
	memset(p, 0, sizeof(p));
#endif
}
