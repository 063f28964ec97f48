// Recursion in the methods of a class: the class is one item, each method
// is decided on its own.
struct Node {
	Node *next;
	int value;
};

class List {
public:
	int size() const { return count_; }

	Node *Erase(Node *item, Node *head) {
		if (head == item) {
			return head->next;
		}
		head->next = Erase(item, head->next); // want "c.dos.recursion"
		return head;
	}

	int Sum(Node *head, int depth) const {
		if (!head || depth > 16)
			return 0;
		depth++;
		return head->value + Sum(head->next, depth); // safe "c.dos.recursion"
	}

private:
	int count_ = 0;
};

namespace util {
int Depth(const Node *n);
}

class Walker {
public:
	// An overload with more parameters, not a call to itself.
	int Count(const Node *head) { return Count(head->next, nullptr, 0); } // safe "c.dos.recursion"
	int Count(const Node *head, const Node *stop, int n) {
		return head == stop ? n : n + 1;
	}
	// Another scope's function of the same name.
	int Depth(const Node *n) { return util::Depth(n->next); } // safe "c.dos.recursion"
	// Fewer arguments: the rest may be defaults.
	int Visit(const Node *n, bool deep = true);
};

int Walker::Visit(const Node *n, bool deep)
{
	if (!n)
		return 0;
	return 1 + Visit(n->next); // want "c.dos.recursion"
}

class Table {
public:
	const Node *aux(unsigned idx) const;
	// An overload of the same arity: only the types tell which is called.
	const Node *aux(const Node *entry) const { return aux(entry->size); } // safe "c.dos.recursion"
	// An operator's returns: Check never matches a call to it by name.
	bool operator==(const Table &o) const { return this == &o; } // safe "c.dos.recursion"
	// The only Walk of one argument calls itself.
	int Walk(const Node *n) const { return n ? 1 + Walk(n->next) : 0; } // want "c.dos.recursion"
};
