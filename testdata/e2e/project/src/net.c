#include <string.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include "util.h"

int listen_on(int port)
{
	struct sockaddr_in addr;
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	if (fd < 0)
		return -1;
	memset(&addr, 0, sizeof(addr));
	addr.sin_family = AF_INET;
	addr.sin_port = htons((unsigned short)port);
	if (bind(fd, (struct sockaddr *)&addr, sizeof(addr)) < 0)
		return -1;
	if (listen(fd, 16) < 0)
		return -1;
	return fd;
}

char *dup_line(const char *line)
{
	char *copy = malloc(strlen(line) + 1);
	if (copy == NULL)
		return NULL;
	strcpy(copy, line);                  /* safe: sized from the source */
	return copy;
}
