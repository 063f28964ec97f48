#include <cstddef>
#include <cstring>

// A size from the caller makes a variable-length array (a GNU extension
// in C++); a constexpr local is a constant, so its array is a plain one.
template <std::size_t Bytes>
void pad_copy(char *out, const char *in, std::size_t len)
{
	char runtime[len + 1]; // want "c.memory.vla"
	std::memcpy(runtime, in, len);
	constexpr std::size_t rounded = (Bytes + 7) & ~std::size_t(7);
	char fixed[rounded]; // safe "c.memory.vla"
	std::memcpy(fixed, runtime, rounded < len ? rounded : len);
	std::memcpy(out, fixed, rounded);
}
