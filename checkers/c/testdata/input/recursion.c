/* Recursive walkers over trees, lists and parser input. */
#include <stddef.h>
#include <stdlib.h>

#define MAX_DEPTH 64

struct node {
	struct node *left, *right;
	struct node *next;
	int value;
};

int tree_sum(const struct node *n)
{
	if (n == NULL)
		return 0;
	return n->value + tree_sum(n->left) + tree_sum(n->right); // want "c.dos.recursion"
}

int tree_sum_limited(const struct node *n, int depth)
{
	if (n == NULL || depth > MAX_DEPTH)
		return 0;
	return n->value + tree_sum_limited(n->left, depth + 1) + tree_sum_limited(n->right, depth + 1); // safe "c.dos.recursion"
}

void list_free(struct node *n)
{
	struct node *next;
	if (n == NULL)
		return;
	next = n->next;
	free(n);
	list_free(next); // want "c.dos.recursion"
}

/* A recursive-descent parser over a string. */
struct parser {
	const char *p;
	int depth;
};

static int parse_value(struct parser *ps);

static int skip_parens(const char *s)
{
	if (*s != '(')
		return 0;
	return 1 + skip_parens(s + 1); // want "c.dos.recursion"
}

static int parse_value(struct parser *ps)
{
	int v;
	if (++ps->depth > MAX_DEPTH)
		return -1;
	if (*ps->p == '[') {
		ps->p++;
		v = parse_value(ps); // safe "c.dos.recursion"
		ps->depth--;
		return v;
	}
	ps->depth--;
	return *ps->p++;
}

/* Recursion on a number is bounded by the number, not by the data. */
unsigned long factorial(unsigned n)
{
	if (n < 2)
		return 1;
	return n * factorial(n - 1); // safe "c.dos.recursion"
}

/* Walking a constant table of the program's own is not walking input. */
struct rule {
	int next;
	const char *name;
};

static const struct rule rules[] = { { -1, "a" }, { 0, "b" }, { 1, "c" } };

int chain_length(int r)
{
	if (r < 0)
		return 0;
	return 1 + chain_length(rules[r].next); // safe "c.dos.recursion"
}

struct pending {
	struct pending *up;
	const char *path;
};

struct walker {
	struct pending *bottom;
};

int emit(const char *path);

/* Pops a stack kept in the walker and recurses on the walker itself: the
 * depth is the input's nesting. */
int flush_pending(struct walker *w)
{
	struct pending *d = w->bottom;
	if (!d)
		return 0;
	w->bottom = d->up;
	return flush_pending(w) || emit(d->path); // want "c.dos.recursion"
}

/* A depth counter that a condition compares bounds the recursion. */
int count_nodes_bounded(const struct node *n, int depth)
{
	if (!n || depth > 64)
		return 0;
	depth++;
	return 1 + count_nodes_bounded(n->left, depth) + count_nodes_bounded(n->right, depth); // safe "c.dos.recursion"
}
