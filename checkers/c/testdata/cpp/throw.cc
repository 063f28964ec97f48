// Exceptions in destructors and noexcept functions.
#include <cstdio>
#include <stdexcept>
#include <string>

class File {
 public:
  explicit File(const char *path) : fp_(std::fopen(path, "r")) {}
  ~File() {
    if (fp_ != nullptr && std::fclose(fp_) != 0) {
      throw std::runtime_error("close failed");  // want "cpp.exception.throw-noexcept"
    }
  }
  File(File &&other) noexcept : fp_(other.fp_) {
    if (fp_ == nullptr) throw std::logic_error("empty");  // want "cpp.exception.throw-noexcept"
    other.fp_ = nullptr;
  }
  int Read() {
    if (fp_ == nullptr) throw std::runtime_error("closed");  // safe "cpp.exception.throw-noexcept"
    return std::fgetc(fp_);
  }

 private:
  std::FILE *fp_;
};

class Buffer {
 public:
  ~Buffer() noexcept(false) {
    if (dirty_) throw std::runtime_error("unflushed");  // safe "cpp.exception.throw-noexcept"
  }
  void Flush() noexcept;
  std::size_t Size() const throw();

 private:
  bool dirty_ = false;
};

void Buffer::Flush() noexcept {
  try {
    if (dirty_) throw std::runtime_error("flush");  // safe "cpp.exception.throw-noexcept"
  } catch (const std::exception &e) {
    std::fputs(e.what(), stderr);
  }
  if (dirty_) {
    throw std::invalid_argument("still dirty");  // want "cpp.exception.throw-noexcept"
  }
}

std::size_t Buffer::Size() const throw() {
  if (dirty_) throw 1;  // want "cpp.exception.throw-noexcept"
  return 0;
}

int Parse(const std::string &s) noexcept {
  auto check = [&s]() {
    if (s.empty()) throw std::invalid_argument("empty");  // safe "cpp.exception.throw-noexcept"
  };
  try {
    check();
  } catch (...) {
    return -1;
  }
  return static_cast<int>(s.size());
}
