#include <alloca.h>
#include <string.h>
#include <unistd.h>

#define NAME_MAX_LEN 255

/* Flawed: the stack grows by whatever the caller or the input says. */
void print_name(const char *name)
{
	size_t n = strlen(name) + 1;
	char *copy = alloca(n); // want "c.memory.alloca"
	memcpy(copy, name, n);
	write(1, copy, n - 1);
}

void echo_packet(int fd, size_t len)
{
	char *buf = __builtin_alloca(len); // want "c.memory.alloca"
	ssize_t got = read(fd, buf, len);
	if (got > 0)
		write(1, buf, (size_t)got);
}

/* Fixed: constant, or checked against a bound first. */
void print_name_fixed(const char *name)
{
	size_t n = strlen(name) + 1;
	char *copy;
	if (n > NAME_MAX_LEN)
		return;
	copy = alloca(n); // safe "c.memory.alloca"
	memcpy(copy, name, n);
	write(1, copy, n - 1);
}

void fixed_scratch(void)
{
	char *tmp = alloca(NAME_MAX_LEN + 1); // safe "c.memory.alloca"
	tmp[0] = 0;
	char *more = alloca(sizeof(long) * 8); // safe "c.memory.alloca"
	more[0] = 0;
}

void clamped(size_t len)
{
	size_t n = len < 512 ? len : 512;
	char *buf = alloca(n); // safe "c.memory.alloca"
	buf[0] = 0;
}
