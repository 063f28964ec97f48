/* Legacy IPv4 conversion and resolver calls. */
#include <arpa/inet.h>
#include <netdb.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>

int parse_addr(const char *text, struct in_addr *out)
{
	in_addr_t a = inet_addr(text); // want "c.net.legacy-inet"
	if (a == INADDR_NONE)
		return -1;
	out->s_addr = a;
	return 0;
}

int parse_addr_pton(const char *text, struct in_addr *out)
{
	return inet_pton(AF_INET, text, out) == 1 ? 0 : -1; // safe "c.net.legacy-inet"
}

void log_peer(const struct sockaddr_in *sin)
{
	printf("peer %s\n", inet_ntoa(sin->sin_addr)); // want "c.net.legacy-inet"
	printf("loopback %u\n", (unsigned)inet_addr("127.0.0.1")); // want "c.net.legacy-inet"
}

int resolve(const char *host, struct in_addr *out)
{
	struct hostent *he = gethostbyname(host); // want "c.net.legacy-inet"
	if (he == NULL || he->h_length != (int)sizeof(*out))
		return -1;
	memcpy(out, he->h_addr_list[0], sizeof(*out));
	return 0;
}

int aton(const char *text, struct in_addr *out)
{
	return inet_aton(text, out); // want "c.net.legacy-inet"
}

/* A struct member that happens to share the name is not a call. */
struct resolver_ops {
	struct hostent *(*gethostbyname)(const char *); // safe "c.net.legacy-inet"
};
