#include <stdio.h>
#include <string.h>

#define HOST_LEN 64

struct conn {
	char host[HOST_LEN];
	char user[32];
};

/* Flawed: a 64-character host leaves no terminating NUL. */
void set_host(struct conn *c, const char *host)
{
	strncpy(c->host, host, sizeof(c->host)); // want "c.buffer.strncpy-nul"
	printf("connecting to %s\n", c->host);
}

/* Flawed: a constant equal to the array size. */
void set_name(const char *name)
{
	char buf[HOST_LEN];

	strncpy(buf, name, HOST_LEN); // want "c.buffer.strncpy-nul"
	puts(buf);
}

/* Fixed twin: explicit termination right after the copy. */
void set_host_fixed(struct conn *c, const char *host)
{
	strncpy(c->host, host, sizeof(c->host)); // safe "c.buffer.strncpy-nul"
	c->host[sizeof(c->host) - 1] = '\0';
	printf("connecting to %s\n", c->host);
}

/* Fixed: size - 1 into a zeroed buffer, and a short literal that is padded. */
void set_user(struct conn *c, const char *user)
{
	char tmp[32] = {0};

	strncpy(tmp, user, sizeof tmp - 1); // safe "c.buffer.strncpy-nul"
	strncpy(c->user, "anonymous", sizeof c->user); // safe "c.buffer.strncpy-nul"
	puts(tmp);
}

/* Flawed: the buffer is used before it is terminated. */
void set_user_late(const char *user)
{
	char tmp[32];

	strncpy(tmp, user, sizeof tmp); // want "c.buffer.strncpy-nul"
	puts(tmp);
	tmp[sizeof tmp - 1] = 0;
}

/* Comments, strings and dead code stay silent. */
void quiet_strncpy(const char *name)
{
	char buf[32] = "";
	/* strncpy(buf, name, sizeof buf); */
	puts("never write strncpy(buf, name, sizeof buf);");
#if 0
	strncpy(buf, name, sizeof buf);
#endif
}
