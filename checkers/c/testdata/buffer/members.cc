#include <cstdio>
#include <cstring>
#include <string>

namespace net {

// A fixed-size header kept in a member array.
class Frame {
 public:
  void SetTag(const char *tag);
  void SetTagFixed(const char *tag);
  void Clear();

 private:
  char tag_[16];
  unsigned char payload_[256];
};

void Frame::SetTag(const char *tag) {
  std::memcpy(tag_, tag, 32);  // want "c.buffer.size-mismatch"
}

void Frame::SetTagFixed(const char *tag) {
  std::snprintf(tag_, sizeof tag_, "%s", tag);  // safe "c.buffer.size-mismatch"
}

void Frame::Clear() {
  std::memset(payload_, 0, sizeof payload_);  // safe "c.buffer.size-mismatch"
  payload_[sizeof payload_] = 0;  // want "c.buffer.off-by-one"
}

// absl/protobuf-style StrCat builds a std::string: not the Win32 API.
std::string StrCat(const std::string &a, const std::string &b);

std::string Describe(const std::string &name) {
  return StrCat("frame ", name);  // safe "c.buffer.strcat"
}

}  // namespace net
