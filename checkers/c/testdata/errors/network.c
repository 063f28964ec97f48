/* A small line-based TCP server. */
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

/* Flawed: setup calls whose failure goes unnoticed. */
int serve(unsigned short port)
{
	struct sockaddr_in addr;
	int one = 1;
	int s = socket(AF_INET, SOCK_STREAM, 0);

	if (s < 0)
		return -1;
	memset(&addr, 0, sizeof addr);
	addr.sin_family = AF_INET;
	addr.sin_port = htons(port);
	setsockopt(s, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one); // safe "c.errors.unchecked-network"
	setsockopt(s, IPPROTO_IPV6, IPV6_V6ONLY, &one, sizeof one); // want "c.errors.unchecked-network"
	bind(s, (struct sockaddr *)&addr, sizeof addr); // want "c.errors.unchecked-network"
	listen(s, 16); // want "c.errors.unchecked-network"
	return s;
}

/* Fixed twin. */
int serve_fixed(unsigned short port)
{
	struct sockaddr_in addr;
	int s = socket(AF_INET, SOCK_STREAM, 0);

	if (s < 0)
		return -1;
	memset(&addr, 0, sizeof addr);
	addr.sin_family = AF_INET;
	addr.sin_port = htons(port);
	if (bind(s, (struct sockaddr *)&addr, sizeof addr) < 0 || listen(s, 16) < 0) { // safe "c.errors.unchecked-network"
		close(s);
		return -1;
	}
	return s;
}

/* Flawed: the echo loop trusts recv and send blindly. */
void echo_once(int c)
{
	char buf[512];

	memset(buf, 0, sizeof buf);
	recv(c, buf, sizeof buf - 1, 0); // want "c.errors.unchecked-network"
	send(c, buf, strlen(buf), 0); // want "c.errors.unchecked-network"
}

/* A removal before bind(): bind fails on a path that is still there, so the
 * failure surfaces there. */
int serve_unix(const char *path)
{
	struct sockaddr_un addr;
	int s = socket(AF_UNIX, SOCK_STREAM, 0);

	if (s < 0)
		return -1;
	memset(&addr, 0, sizeof addr);
	addr.sun_family = AF_UNIX;
	strncpy(addr.sun_path, path, sizeof addr.sun_path - 1);
	unlink(path); // safe "c.errors.unchecked-io"
	if (bind(s, (struct sockaddr *)&addr, sizeof addr) < 0) {
		close(s);
		return -1;
	}
	return s;
}

/* A poke and a half-close are not worth checking. */
void finish(int c)
{
	send(c, NULL, 0, 0); // safe "c.errors.unchecked-network"
	shutdown(c, SHUT_WR); // safe "c.errors.unchecked-network"
}

/* Fixed twin. */
int echo_once_fixed(int c)
{
	char buf[512];
	ssize_t n = recv(c, buf, sizeof buf, 0); // safe "c.errors.unchecked-network"

	if (n <= 0)
		return -1;
	return send(c, buf, (size_t)n, 0) == n ? 0 : -1; // safe "c.errors.unchecked-network"
}

/* A method named send is not the socket call (C++ style struct of ops). */
struct transport {
	int (*send)(int, const void *, size_t, int);
};

void use_transport(struct transport *t, int c)
{
	t->send(c, "x", 1, 0); // safe "c.errors.unchecked-network"
}
