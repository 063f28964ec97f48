// Casts in a small serialization layer.
#include <cstdint>
#include <cstring>
#include <string>

namespace wire {

struct Header {
  std::uint32_t magic;
  std::uint32_t length;
};

struct Packet {
  Header header;
  char payload[256];
};

struct Session {
  int fd;
};

std::uint32_t PeekMagic(const char *buf) {
  const Header *h = reinterpret_cast<const Header *>(buf);  // safe "cpp.cast.reinterpret"
  return h->magic;
}

const unsigned char *Bytes(const Packet *p) {
  return reinterpret_cast<const unsigned char *>(p);  // safe "cpp.cast.reinterpret"
}

std::uintptr_t Address(Session *s) {
  return reinterpret_cast<std::uintptr_t>(s);  // safe "cpp.cast.reinterpret"
}

Session *FromHandle(void *handle) {
  return reinterpret_cast<Session *>(handle);  // safe "cpp.cast.reinterpret"
}

Session *AsSessionUnknown(Packet *p) {
  return reinterpret_cast<Session *>(p->payload + 0);  // safe "cpp.cast.reinterpret"
}

Session *AsSession(Packet *p) {
  return reinterpret_cast<Session *>(p);  // want "cpp.cast.reinterpret"
}

Header *HeaderOf(Session &s) {
  return reinterpret_cast<Header *>(&s);  // want "cpp.cast.reinterpret"
}

void Copy(Header *dst, const Packet &p) {
  std::memcpy(dst, &p.header, sizeof *dst);  // safe "cpp.cast.reinterpret"
}

using Callback = void (*)(int);

Callback AsCallback(void *sym) {
  return reinterpret_cast<Callback>(sym);  // safe "cpp.cast.reinterpret"
}

// const_cast: writes through the result are the problem, reads are not.
void Upcase(const std::string &name) {
  char *p = const_cast<char *>(name.c_str());  // want "cpp.cast.const"
  for (; *p != '\0'; ++p) {
    if (*p >= 'a' && *p <= 'z') *p = static_cast<char>(*p - 32);
  }
}

void Terminate(const char *text, std::size_t n) {
  const_cast<char *>(text)[n] = '\0';  // want "cpp.cast.const"
}

void Fill(const Packet *p) {
  std::memset(const_cast<char *>(p->payload), 0, sizeof p->payload);  // want "cpp.cast.const"
}

void Reset(const Header &h) {
  const_cast<Header &>(h).length = 0;  // want "cpp.cast.const"
}

extern "C" int legacy_log(char *msg);
extern "C" int legacy_len(char *msg);

int Log(const std::string &msg) {
  return legacy_len(const_cast<char *>(msg.c_str()));  // safe "cpp.cast.const"
}

std::size_t Length(const char *text) {
  char *t = const_cast<char *>(text);  // safe "cpp.cast.const"
  return std::strlen(t);
}

}  // namespace wire

// reinterpret_cast<Session *>(p) in a comment is not code.
