#include <stdlib.h>
#include <string.h>

struct item {
	struct item *next;
	char *key;
	int value;
};

extern struct item *find(const char *key);
extern void report(const char *msg, const char *key);

/* Flawed: dereferenced exactly where it is known to be NULL. */
int item_value(const char *key)
{
	struct item *it = find(key);
	if (it == NULL) {
		report("missing", it->key); // want "c.null.deref"
		return -1;
	}
	return it->value;
}

int last_value(struct item *head)
{
	struct item *last = NULL;
	for (struct item *p = head; p; p = p->next)
		if (p->value > 0)
			break;
	return last->value; // want "c.null.deref"
}

/* Flawed: the NULL test comes after the first dereference. */
int item_key_len(struct item *it)
{
	int v = it->value; // want "c.null.deref"
	if (!it)
		return -1;
	return v + (int)strlen(it->key);
}

/* Fixed: test first, or assign before use. */
int item_value_fixed(const char *key)
{
	struct item *it = find(key);
	if (it == NULL) {
		report("missing", key);
		return -1;
	}
	return it->value; // safe "c.null.deref"
}

int last_value_fixed(struct item *head)
{
	struct item *last = NULL;
	for (struct item *p = head; p; p = p->next)
		last = p;
	if (!last)
		return 0;
	return last->value; // safe "c.null.deref"
}

int item_key_len_fixed(struct item *it)
{
	if (!it)
		return -1;
	int v = it->value; // safe "c.null.deref"
	return v + (int)strlen(it->key);
}

/* Parameters are not assumed NULL; a reassigned pointer is a new value. */
int walk(struct item *it)
{
	int n = it->value; // safe "c.null.deref"
	it = it->next;
	if (it == NULL)
		return n;
	return n + it->value;
}

int maybe(struct item *it, int deep)
{
	if (deep)
		return it->value; // safe "c.null.deref"
	if (it == NULL)
		return 0;
	return 1;
}

extern struct item *open_item(const char *key);

/* Flawed: the only way to the label is a jump made while it is NULL. */
int item_or_default(const char *key, int fallback)
{
	struct item *it = NULL;
	if (fallback)
		goto out;
	it = open_item(key);
	return it ? it->value : -1;
out:
	return it->value; // want "c.null.deref"
}

/* Fixed: every jump to the label carries a pointer that was set. */
int item_or_first(const char *key, struct item *first)
{
	struct item *it = NULL;
	if (!key) {
		it = first;
		goto out;
	}
	it = open_item(key);
	if (!it)
		it = first;
out:
	if (!it)
		return -1;
	return it->value; // safe "c.null.deref"
}

/* "*p" after an if condition, else or return dereferences p. */
int store_flag(int c)
{
	int *flag = NULL;
	if (c)
		*flag = 1; // want "c.null.deref"
	return 0;
}

int read_flag(int c)
{
	int *flag = NULL;
	if (c)
		return 0;
	else
		return *flag; // want "c.null.deref"
}

/* A dereference counts against a later test only when it runs on every
 * path to the test. */
int touch_if_asked(struct item *it, int asked)
{
	if (asked) {
		it->value++;
	}
	if (!it) // safe "c.null.deref"
		return -1;
	return it->value;
}

int touch_in_block(struct item *it)
{
	{
		it->value++; // want "c.null.deref"
	}
	if (!it)
		return -1;
	return it->value;
}

/* Nor when it is a later operand of && or ||, or a branch of ?:. */
void note(const char *fmt, ...);
int name_then_test(struct item *it, int verbose)
{
	note("%d %d", it ? it->value : 0, verbose && it->value);
	if (!it) // safe "c.null.deref"
		return -1;
	return it->value;
}

int value_or_test(struct item *it, int fast)
{
	int v = fast || it->value;
	if (!it) // safe "c.null.deref"
		return v;
	return it->value;
}

int and_then_test(struct item *it, int a)
{
	note("%d", a && a > 1, it->value); // want "c.null.deref"
	if (!it)
		return -1;
	return it->value;
}

int and_at_top_then_test(struct item *it, int a)
{
	int v = a && it->value; /* not counted by the triage, as in C++ auto&& */
	if (!it)
		return v;
	return it->value;
}

/* A test of the root is no test of the field that holds the NULL. */
char first_key_char(struct item *it)
{
	it->key = NULL;
	if (it)
		return it->key[0]; // want "c.null.deref"
	return 0;
}

char first_key_guarded(struct item *it)
{
	it->key = NULL;
	return it && it->key[0]; // want "c.null.deref"
}

/* A test joined to others by && settles the true branch, by || the
   false one. */
int chain_and(struct item *it, int n)
{
	it = NULL;
	if (n && it)
		return it->value; // safe "c.null.deref"
	return 0;
}

int chain_or(struct item *it, int n)
{
	it = NULL;
	if (n || !it)
		return 0;
	return it->value; // safe "c.null.deref"
}

int chain_or_then(struct item *it, int n)
{
	it = NULL;
	if (n > 2 || n < 0)
		return it->value; // want "c.null.deref"
	return 0;
}

int chain_and_else(struct item *it, int n)
{
	it = NULL;
	if (n && it)
		return 0;
	return it->value; // want "c.null.deref"
}

/* An ALL_CAPS macro given the pointer may assign it. */
#define ALLOC_ONE(p) ((p) = malloc(sizeof(*(p))))
struct item *get_or_make(const char *key)
{
	struct item *it = find(key);
	if (!it) {
		ALLOC_ONE(it);
		it->key = NULL; // safe "c.null.deref"
	}
	return it;
}

struct item *get_or_make_late(const char *key)
{
	struct item *it = find(key);
	if (!it) {
		it->value = 0; // want "c.null.deref"
		ALLOC_ONE(it);
	}
	return it;
}

/* A label between the dereference and the test lets a goto skip the
   dereference. */
int release_item(struct item *it, int fail)
{
	if (fail)
		goto out;
	it->value++;
out:
	if (it) // safe "c.null.deref"
		free(it->key);
	return 0;
}

int release_item_late(struct item *it, int fail)
{
	if (fail)
		goto out;
	return 1;
out:
	it->value++; // want "c.null.deref"
	if (it)
		free(it->key);
	return 0;
}

/* A store into it->f defines it, for the dereference before a test. */
int reset_then_test(struct item *it)
{
	it->value = 0;
	if (!it) // safe "c.null.deref"
		return -1;
	return 0;
}

int store_touch_test(struct item *it)
{
	it->key = NULL;
	it->value++; // want "c.null.deref"
	if (!it)
		return -1;
	return 0;
}

int touch_then_pick(struct item *it, int a)
{
	int v;
	it->value++; // want "c.null.deref"
	v = a ? 1 : 2;
	if (!it)
		return v;
	return 0;
}

/* A label that a later goto jumps back to: the state walk forgets the
   NULL there (a known limit), so only the dereference before it is
   reported. */
int retry_find(const char *key)
{
	struct item *it = NULL;
	struct item *hint = NULL;
	if (key[0] == '!')
		return hint->value; // want "c.null.deref"
again:
	if (key[0] == '?') {
		it = find(key);
		goto again;
	}
	return it->value; // safe "c.null.deref"
}

/* A NULL stored by the then-branch of an if without braces: the else
   branch is the other path. */
int then_null_else_return(struct item *it, int c)
{
	if (c)
		it = NULL;
	else
		return -1;
	return it->value; // want "c.null.deref"
}

int then_null_else_found(const char *key, int c)
{
	struct item *it;
	if (c)
		it = NULL;
	else
		it = find(key);
	return it->value; // safe "c.null.deref"
}

int then_null_else_other(struct item *it, int c, int *n)
{
	if (c)
		it = NULL;
	else
		*n = 1;
	return it->value; // safe "c.null.deref"
}

int both_null(const char *key, int c)
{
	struct item *it = NULL;
	if (c)
		it = NULL;
	else
		c++;
	return it->value; // want "c.null.deref"
}

int then_null_else_deref(struct item *it, int c)
{
	if (c)
		it = NULL;
	else
		it->value++; // safe "c.null.deref"
	return 0;
}

int then_null_chain(const char *key, int c)
{
	struct item *it;
	if (c == 1)
		it = NULL;
	else if (c == 2)
		return 0;
	else
		return 1;
	return it->value; // want "c.null.deref"
}

int null_on_both_paths(struct item *it, int c)
{
	if (it)
		return 0;
	if (c)
		it = NULL;
	else
		c++;
	return it->value; // want "c.null.deref"
}

/* A NULL stored at the end of a loop's body: the next iteration
   dereferences it before the store (NULL on every path here, as the
   test before the loop leaves it NULL). */
int null_next_iteration(struct item *it, int c)
{
	if (it)
		return 0;
	while (c--) {
		c += it->value; // want "c.null.deref"
		it = NULL;
	}
	return c;
}

int fresh_each_iteration(struct item *head, int c)
{
	while (c--) {
		struct item *it = find(head->key);
		c += it->value; // safe "c.null.deref"
		it = NULL;
	}
	return c;
}

/* A store into another member of the same object is no write of this one. */
int sibling_written(struct item *it)
{
	it->next = NULL;
	it->value = 0;
	return it->next->value; // want "c.null.deref"
}

int same_member_written(struct item *it, struct item *other)
{
	it->next = NULL;
	it->next = other;
	return it->next->value; // safe "c.null.deref"
}

/* A NULL stored through an out-parameter, then read back through it. */
int out_param_read_back(struct item **out)
{
	*out = NULL;
	return (*out)->value; // want "c.null.deref"
}

int out_param_set_after(struct item **out, const char *key)
{
	*out = NULL;
	if (!key)
		return -1;
	*out = find(key);
	return *out ? (*out)->value : 0; // safe "c.null.deref"
}

/* A callback called in the branch that found it NULL. */
int notify(int (*cb)(int), int event)
{
	if (!cb)
		return cb(event); // want "c.null.deref"
	return 0;
}

int notify_checked(int (*cb)(int), int event)
{
	if (cb)
		return cb(event); // safe "c.null.deref"
	return 0;
}
