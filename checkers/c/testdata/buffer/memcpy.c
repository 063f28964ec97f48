#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <sys/socket.h>

#define MIN(a, b) ((a) < (b) ? (a) : (b))

struct msg_hdr {
	unsigned short len;
	unsigned short type;
};

/* Flawed: the length is the source's. */
void set_user(const char *name)
{
	char user[32];

	memcpy(user, name, strlen(name) + 1); // want "c.buffer.memcpy-unbounded"
	strncpy(user, name, strlen(name)); // want "c.buffer.memcpy-unbounded"
	use_user(user);
}

/* Flawed: the length comes from the network. */
int handle(int fd)
{
	struct msg_hdr hdr;
	char payload[256];
	char body[4096];
	size_t n;

	if (recv(fd, &hdr, sizeof hdr, 0) != sizeof hdr)
		return -1;
	if (recv(fd, body, sizeof body, 0) <= 0)
		return -1;
	n = ntohs(hdr.len);
	memcpy(payload, body, n); // want "c.buffer.memcpy-unbounded"
	return process(payload, n);
}

/* Fixed twin: the length is checked first. */
int handle_fixed(int fd)
{
	struct msg_hdr hdr;
	char payload[256];
	char body[4096];
	size_t n;

	if (recv(fd, &hdr, sizeof hdr, 0) != sizeof hdr)
		return -1;
	if (recv(fd, body, sizeof body, 0) <= 0)
		return -1;
	n = ntohs(hdr.len);
	if (n > sizeof payload)
		return -1;
	memcpy(payload, body, n); // safe "c.buffer.memcpy-unbounded"
	return process(payload, n);
}

/* Fixed: clamped with MIN, or with a conditional. */
void set_user_fixed(const char *name)
{
	char user[32];
	size_t len = strlen(name);
	size_t n = MIN(len, sizeof user - 1);

	memcpy(user, name, n); // safe "c.buffer.memcpy-unbounded"
	user[n] = '\0';
	len = len < sizeof user ? len : sizeof user - 1;
	memcpy(user, name, len); // safe "c.buffer.memcpy-unbounded"
	if (strlen(name) < sizeof user)
		memcpy(user, name, strlen(name) + 1); // safe "c.buffer.memcpy-unbounded"
	use_user(user);
}

/* Fixed: a pointer of unknown size is not judged; a parameter length is the caller's. */
void copy_out(char *dst, const char *src, size_t n)
{
	char local[64];

	memcpy(dst, src, strlen(src)); // safe "c.buffer.memcpy-unbounded"
	memcpy(local, src, n); // safe "c.buffer.memcpy-unbounded"
	use_user(local);
}

/* Fixed: the strlen of a literal known to fit. */
static char netrc_path[64];

void set_netrc(void)
{
	static const char *const def = "log/netrc1304";

	memcpy(netrc_path, def, strlen(def) + 1); // safe "c.buffer.memcpy-unbounded"
}

/* Comments, strings and dead code stay silent. */
void quiet_memcpy(const char *name)
{
	char user[32];
	/* memcpy(user, name, strlen(name)); */
	puts("never write memcpy(user, name, strlen(name));");
#if 0
	memcpy(user, name, strlen(name));
#endif
}
