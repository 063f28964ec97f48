/* A member declaration is no local: only the locals of a method are
   tracked. */
class Counter {
public:
	int next() { return count_++; }
	int broken() {
		int v;
		return v; // want "c.memory.uninit"
	}

private:
	int count_; // safe "c.memory.uninit"
	unsigned limit_; // safe "c.memory.uninit"
};

struct Pair {
	int a; // safe "c.memory.uninit"
	int b;
};

int sum(const Pair &p)
{
	struct Local {
		int x; // safe "c.memory.uninit"
	} l;
	int t;
	l.x = p.a;
	return t + l.x; // want "c.memory.uninit"
}

/* Each method is its own function: a member deleted in two methods is no
   double free; twice in one method is. */
struct Node;
class Holder {
public:
	~Holder() { delete node_; } // safe "c.memory.double-free"
	void Reset() {
		delete node_;
		node_ = nullptr;
	}
	void Twice(Node *n) {
		delete n;
		delete n; // want "c.memory.double-free"
	}

private:
	Node *node_; // safe "c.memory.uninit"
};

void twice(Node *n)
{
	delete n;
	delete n; // want "c.memory.double-free"
}

/* Member function declarations end in qualifiers (const, override,
   final), not in variable names; a method defined in the class body
   declares no local in the class: its own locals are still tracked. */
class Reader {
public:
	virtual ~Reader() = default;
	int size() const; // safe "c.memory.uninit"
	virtual bool empty() const override; // safe "c.memory.uninit"
	int last() noexcept final; // safe "c.memory.uninit"
	int read(char *buf) const {
		int n;
		if (buf)
			n = 1;
		return n; // want "c.memory.uninit"
	}
	int count() noexcept { int c; return c; } // want "c.memory.uninit"
};
