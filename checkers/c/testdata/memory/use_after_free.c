#include <stdlib.h>
#include <string.h>

struct node {
	struct node *next;
	char *name;
	int refs;
};

extern void log_event(const char *what, const char *name);

/* Flawed: the block is touched after it was released. */
void node_release(struct node *n)
{
	if (--n->refs == 0) {
		free(n);
		log_event("released", n->name); // want "c.memory.use-after-free"
	}
}

void list_destroy(struct node *head)
{
	struct node *p = head;
	while (p) {
		free(p);
		p = p->next; // want "c.memory.use-after-free"
	}
}

char *rename_node(struct node *n, const char *name)
{
	char *old = n->name;
	free(old);
	n->name = strdup(name);
	return old; // want "c.memory.use-after-free"
}

void close_twice(struct node *n)
{
	char *name = n->name;
	free(name);
	log_event("closed", name); // want "c.memory.use-after-free"
}

/* Fixed: the next pointer is read first, or the pointer is reset. */
void list_destroy_fixed(struct node *head)
{
	struct node *p = head;
	while (p) {
		struct node *next = p->next;
		free(p);
		p = next; // safe "c.memory.use-after-free"
	}
}

void node_release_fixed(struct node *n)
{
	if (--n->refs == 0) {
		log_event("released", n->name);
		free(n->name);
		free(n);
		n = NULL;
	}
}

void reuse(size_t len)
{
	char *buf = malloc(len);
	if (!buf)
		return;
	buf[0] = 0;
	free(buf);
	buf = malloc(len * 2);
	if (!buf)
		return;
	buf[0] = 1; // safe "c.memory.use-after-free"
	free(buf);
}

int early_return(char *p, int fail)
{
	if (fail) {
		free(p);
		return -1;
	}
	return p[0]; // safe "c.memory.use-after-free"
}

int reuse_after_free(int *p, int c)
{
	free(p);
	if (c)
		*p = 0; // want "c.memory.use-after-free"
	return 0;
}

/* A loop whose update moves the pointer on still runs the rest of the
   body first. */
int puts(const char *s);
void drop_names(struct node *head)
{
	struct node *p;
	for (p = head; p; p = p->next) {
		free(p->name);
		puts(p->name); // want "c.memory.use-after-free"
	}
}

/* Each iteration takes a new node before touching it. */
struct node *pop(struct node **list);
void drain(struct node **list)
{
	struct node *p;
	while ((p = pop(list)) != NULL) {
		free(p->name); // safe "c.memory.use-after-free"
		free(p);
	}
}

void drain_top(struct node **list, int n)
{
	struct node *p;
	while (n-- > 0) {
		p = pop(list);
		log_event("drop", p->name);
		free(p->name); // safe "c.memory.use-after-free"
	}
}

void drain_header_reads(struct node **list)
{
	struct node *p = pop(list);
	while (p->name[0] != 0) { // want "c.memory.use-after-free"
		free(p->name); // want "c.memory.double-free"
		log_event("drop", "name");
	}
}

void drain_reads_head(struct node **list)
{
	struct node *p = pop(list);
	while (p->name[0] != 0) { // want "c.memory.use-after-free"
		p = pop(list);
		free(p->name);
	}
}

/* A struct tag spelled like the freed variable is no use of it. */
struct auth {
	char *name;
};

void drop_auth(const char *header, struct auth *state)
{
	char *auth = strdup(header);
	if (!auth)
		return;
	log_event("auth", auth);
	free(auth); // safe "c.memory.use-after-free"
	{
		struct auth *a = state;
		log_event("tag", a->name);
	}
}

void drop_auth_then_use(const char *header, struct auth *state)
{
	char *auth = strdup(header);
	if (!auth)
		return;
	free(auth);
	struct auth *a = state;
	log_event(a->name, auth); // want "c.memory.use-after-free"
}

/* Reassigned at once: a read of a sibling member in the new value is no
   use of the freed one; a read of the freed member itself is. */
struct entry {
	char *name;
	char *label;
};

void rename_entry(struct entry *e)
{
	free(e->name);
	e->name = strdup(e->label); // safe "c.memory.use-after-free"
}

void rename_from_itself(struct entry *e)
{
	free(e->name);
	e->name = strdup(e->name); // want "c.memory.use-after-free"
}

/* A label that a later goto jumps back to: the state walk forgets that
   the block was freed there (a known limit), so only the use before it
   is reported. */
void release_retry(struct node *n, struct node *spare)
{
	free(spare);
	if (n->refs < 0)
		log_event("spare", spare->name); // want "c.memory.use-after-free"
	free(n);
again:
	if (n->refs > 0) {
		n = n->next;
		goto again;
	}
	log_event("released", n->name); // safe "c.memory.use-after-free"
}

/* "*t = grown" overwrites the whole table, its tbl included. */
struct table {
	int *tbl;
	int count;
};

void table_grow(struct table *t, struct table grown)
{
	free(t->tbl);
	*t = grown;
	t->tbl[t->count++] = 1; // safe "c.memory.use-after-free"
}

void table_reset(struct table *t)
{
	free(t->tbl);
	t->count = 0;
	t->tbl[0] = 1; // want "c.memory.use-after-free"
}
