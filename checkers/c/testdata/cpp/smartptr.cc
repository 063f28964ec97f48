// Ownership of a connection pool.
#include <cstdlib>
#include <memory>
#include <vector>

struct Conn {
  int fd = -1;
};

class Pool {
 public:
  void Adopt(std::unique_ptr<Conn> c);
  void Borrow();
  void Keep(std::unique_ptr<Conn> c);
  void Close(std::unique_ptr<Conn> c);
  Conn *current() const { return current_; }

 private:
  Conn *current_ = nullptr;
  std::unique_ptr<Conn> owned_;
  std::vector<std::unique_ptr<Conn>> all_;
};

void Pool::Adopt(std::unique_ptr<Conn> c) {
  current_ = c.get();
  all_.push_back(std::move(c));  // ownership moves into the pool
}

void Pool::Borrow() {
  auto c = std::make_unique<Conn>();
  current_ = c.get();  // want "cpp.smartptr.get-escape"
  c->fd = 3;
}

void Pool::Keep(std::unique_ptr<Conn> c) {
  owned_ = std::move(c);
  current_ = owned_.get();  // safe "cpp.smartptr.get-escape"
}

void Pool::Close(std::unique_ptr<Conn> c) {
  delete c.get();  // want "cpp.smartptr.get-escape"
}

void Share(const std::shared_ptr<Conn> &sp) {
  std::shared_ptr<Conn> again(sp.get());  // want "cpp.smartptr.get-escape"
  auto other = std::unique_ptr<Conn>(sp.get());  // want "cpp.smartptr.get-escape"
  std::shared_ptr<Conn> copy = sp;  // safe "cpp.smartptr.get-escape"
  Conn *raw = sp.get();  // safe "cpp.smartptr.get-escape"
  raw->fd = 0;
}

void FreeBuffer(std::unique_ptr<char, void (*)(void *)> buf) {
  free(buf.get());  // want "cpp.smartptr.get-escape"
  char *released = buf.release();  // safe "cpp.smartptr.get-escape"
  free(released);
}

// Parentheses around the call keep it the whole right side; a cast or a
// call around it does not.
Conn *kept;
void Parenthesised() {
  auto c = std::make_unique<Conn>();
  kept = (c.get());  // want "cpp.smartptr.get-escape"
}
void ThroughCast() {
  auto c = std::make_unique<Conn>();
  void *v = reinterpret_cast<void *>(c.get());  // safe "cpp.smartptr.get-escape"
  kept = static_cast<Conn *>(v);
}
