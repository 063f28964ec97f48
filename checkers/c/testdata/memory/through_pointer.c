#include <stdlib.h>
#include <string.h>

/* Pointers reached through an out-parameter (*pp) or a member of one
 * ((*pp)->next): the same flaws as on a local, and the same fixes. */
struct node {
	struct node *next;
	int value;
};

void release_twice(char **pp)
{
	free(*pp);
	free(*pp); // want "c.memory.double-free"
}

void release_and_clear(char **pp)
{
	free(*pp);
	*pp = NULL;
	free(*pp); // safe "c.memory.double-free"
}

void fill_unchecked(char **pp)
{
	*pp = malloc(10);
	(*pp)[0] = 1; // want "c.null.unchecked-alloc"
}

int fill_checked(char **pp)
{
	*pp = malloc(10);
	if (*pp == NULL)
		return -1;
	(*pp)[0] = 1; // safe "c.null.unchecked-alloc"
	return 0;
}

int next_value(struct node **pp)
{
	(*pp)->next = NULL;
	return (*pp)->next->value; // want "c.null.deref"
}

int next_value_linked(struct node **pp, struct node *other)
{
	(*pp)->next = NULL;
	(*pp)->next = other;
	return (*pp)->next->value; // safe "c.null.deref"
}

int first_cleared(int **pp, int c)
{
	if (c)
		*pp = NULL;
	else
		return 0;
	return **pp; // want "c.null.deref"
}

int first_cleared_or_set(int **pp, int *fallback, int c)
{
	if (c)
		*pp = NULL;
	else
		*pp = fallback;
	return *pp ? **pp : 0; // safe "c.null.deref"
}
