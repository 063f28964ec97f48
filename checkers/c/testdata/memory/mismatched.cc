#include <cstdlib>
#include <cstring>

class Buffer {
public:
	explicit Buffer(size_t n) : data_(new char[n]), size_(n) {}
	~Buffer() { delete data_; } // want "c.memory.mismatched-dealloc"

private:
	char *data_;
	size_t size_;
};

class Table {
public:
	explicit Table(size_t n) { rows_ = new int[n]; }
	~Table() { delete[] rows_; } // safe "c.memory.mismatched-dealloc"

private:
	int *rows_;
};

struct Point {
	int x, y;
};

/* Flawed: each block is released by the wrong function. */
void scratch(size_t n)
{
	char *tmp = new char[n];
	std::memset(tmp, 0, n);
	delete tmp; // want "c.memory.mismatched-dealloc"
}

void one_point()
{
	Point *p = new Point;
	p->x = 1;
	delete[] p; // want "c.memory.mismatched-dealloc"
}

void c_block(size_t n)
{
	char *raw = static_cast<char *>(std::malloc(n));
	if (!raw)
		return;
	delete[] raw; // want "c.memory.mismatched-dealloc"
}

void cpp_block()
{
	Point *p = new Point();
	std::free(p); // want "c.memory.mismatched-dealloc"
}

/* Fixed: each release matches its allocation. */
void scratch_fixed(size_t n)
{
	char *tmp = new char[n];
	std::memset(tmp, 0, n);
	delete[] tmp; // safe "c.memory.mismatched-dealloc"
}

void c_block_fixed(size_t n)
{
	char *raw = static_cast<char *>(std::malloc(n));
	std::free(raw); // safe "c.memory.mismatched-dealloc"
}

void either(bool big)
{
	Point *p;
	if (big)
		p = new Point[4];
	else
		p = new Point;
	delete p; // safe "c.memory.mismatched-dealloc"
}
