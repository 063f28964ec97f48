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

namespace ns {
int level;
}

struct Arena;
Arena *TryAllocate(int n);
const Node *Pop(Node *n);

/* C++ conditions may declare a variable: no assignment there. */
int conditions(Node *n, int v)
{
	if (Arena *a = TryAllocate(v)) // safe "c.logic.assign-in-cond"
		return a != nullptr;
	while (const Node *top = Pop(n)) // safe "c.logic.assign-in-cond"
		n = top->next;
	if (std::unique_ptr<Node> owned = nullptr) // safe "c.logic.assign-in-cond"
		return 1;
	return 0;
}

/* Each alone in its function: shapes close to a declaration that are
   assignments must still reach Check. */
int qualified(void)
{
	if (ns::level = 3) // want "c.logic.assign-in-cond"
		return 4;
	return 0;
}

int through(int *p)
{
	if (*p = 5) // want "c.logic.assign-in-cond"
		return 5;
	return 0;
}
