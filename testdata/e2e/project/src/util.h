#ifndef UTIL_H
#define UTIL_H

#include <string.h>
#include <sys/socket.h>
#include <netinet/in.h>

int listen_on(int port);

/* Copies a token; the bounded version is safe. */
static inline void copy_token(char *dst, size_t size, const char *src)
{
	strncpy(dst, src, size - 1);
	dst[size - 1] = '\0';
}

#endif
