#include <memory>

struct Node {
	int kind;
	Node *next;
};

int visit(Node *n, Node *other)
{
	if (auto *m = n->next) // safe "c.logic.assign-in-cond"
		return m->kind;
	if (n->kind = 2) // want "c.logic.assign-in-cond"
		return 2;
	if (n = other) // want "c.logic.assign-in-cond"
		return 3;
	return 0;
}
