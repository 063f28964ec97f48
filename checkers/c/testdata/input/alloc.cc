// C++ allocations sized by a length read from a stream.
#include <arpa/inet.h>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

constexpr std::uint32_t kMaxItems = 1u << 16;

struct Item {
  std::uint32_t id;
};

bool ReadItems(std::FILE *fp, std::vector<Item> *out) {
  std::uint32_t count = 0;
  if (std::fread(&count, sizeof count, 1, fp) != 1) return false;
  count = ntohl(count);
  std::vector<Item> items(count);  // want "c.dos.unbounded-alloc"
  out->reserve(count);  // want "c.dos.unbounded-alloc"
  Item *raw = new Item[count];  // want "c.dos.unbounded-alloc"
  delete[] raw;
  out->swap(items);
  return true;
}

bool ReadItemsChecked(std::FILE *fp, std::vector<Item> *out) {
  std::uint32_t count = 0;
  if (std::fread(&count, sizeof count, 1, fp) != 1) return false;
  count = ntohl(count);
  if (count > kMaxItems) return false;
  std::vector<Item> items(count);  // safe "c.dos.unbounded-alloc"
  out->swap(items);
  return true;
}
