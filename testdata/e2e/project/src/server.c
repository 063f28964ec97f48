/* A small line-oriented TCP server: the kind of C code jsec is for. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <unistd.h>
#include <sys/socket.h>
#include "util.h"

#define NAME_LEN 32
#define LINE_MAX 512

struct session {
	int fd;
	char user[NAME_LEN];
	char *history;
};

static int handle_login(struct session *s, const char *line)
{
	char user[NAME_LEN];
	strcpy(user, line + 6);              /* flawed: no bound on the name */
	strncpy(s->user, user, sizeof(s->user) - 1);
	s->user[sizeof(s->user) - 1] = '\0';
	syslog(LOG_INFO, line);              /* flawed: client text as format */
	return 0;
}

static int run_command(const char *arg)
{
	char cmd[LINE_MAX];
	snprintf(cmd, sizeof(cmd), "/usr/bin/lookup %s", arg);
	return system(cmd);                  /* flawed: shell built from input */
}

static void serve(int fd)
{
	char line[LINE_MAX];
	struct session *s = malloc(sizeof(*s));
	ssize_t n = recv(fd, line, sizeof(line) - 1, 0);
	if (n <= 0)
		return;
	line[n] = '\0';
	s->fd = fd;                          /* flawed: malloc result unchecked */
	if (strncmp(line, "LOGIN ", 6) == 0)
		handle_login(s, line);
	else if (strncmp(line, "QUERY ", 6) == 0)
		run_command(line + 6);
	free(s);
	s->history = NULL;                   /* flawed: use after free */
}

int main(int argc, char **argv)
{
	char greeting[16];
	int port = atoi(argv[1]);
	int fd = listen_on(port);
	gets(greeting);                      /* flawed: gets */
	printf("%s listening on %d\n", greeting, port);
	for (;;) {
		int c = accept(fd, NULL, NULL);
		if (c < 0)
			continue;
		serve(c);
		close(c);
	}
}
