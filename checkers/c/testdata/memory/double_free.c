#include <stdlib.h>
#include <string.h>

struct session {
	char *token;
	char *user;
};

extern int validate(const char *token);

/* Flawed: the same block is released twice. */
void session_reset(struct session *s, int hard)
{
	free(s->token);
	if (hard)
		free(s->token); // want "c.memory.double-free"
	s->token = NULL;
}

int check_token(char *token)
{
	int ok = validate(token);
	if (!ok) {
		free(token);
		goto fail;
	}
	free(token);
	return 0;
fail:
	free(token); // want "c.memory.double-free"
	return -1;
}

void drop_both(char *name)
{
	char *copy = strdup(name);
	if (copy && copy[0] == '-')
		free(copy);
	free(copy); // want "c.memory.double-free"
}

/* Fixed: the pointer is cleared or reassigned after free. */
void session_reset_fixed(struct session *s, int hard)
{
	free(s->token);
	s->token = NULL;
	if (hard)
		free(s->token); // safe "c.memory.double-free"
}

int check_token_fixed(char *token)
{
	int ok = validate(token);
	free(token);
	if (!ok)
		return -1;
	token = strdup("anonymous");
	free(token); // safe "c.memory.double-free"
	return 0;
}

void free_list(struct session **items, int n)
{
	for (int i = 0; i < n; i++) {
		free(items[i]->user);
		free(items[i]); // safe "c.memory.double-free"
	}
}

void drop_branches(char *a, int which)
{
	if (which)
		free(a);
	else
		free(a); // safe "c.memory.double-free"
}

/* The path out of a then-branch skips its else branch. */
extern void audit(const char *what);

void drop_after_branches(char *buf, int mode)
{
	if (mode) {
		free(buf);
	} else {
		audit("keep");
	}
	free(buf); // want "c.memory.double-free"
}

void drop_after_exit(char *buf, int mode)
{
	if (mode == 1)
		free(buf);
	else
		audit("keep");
	free(buf); // want "c.memory.double-free"
}

void drop_in_branches(char *buf, int mode)
{
	if (mode) {
		free(buf);
	} else {
		audit(buf);
		free(buf); // safe "c.memory.double-free"
	}
}

void drop_or_die(char *buf, int mode)
{
	if (mode < 0) {
		free(buf);
		exit(1);
	}
	free(buf); // safe "c.memory.double-free"
}

/* A call given &p may store a new block into p. */
int format_cmd(char **out, const char *fmt);
void run(char *cmd);
void run_twice(void)
{
	char *cmd;
	format_cmd(&cmd, "PING");
	run(cmd);
	free(cmd);
	format_cmd(&cmd, "GET");
	run(cmd);
	free(cmd); // safe "c.memory.double-free"
}

void run_twice_unset(int again)
{
	char *cmd;
	format_cmd(&cmd, "PING");
	run(cmd);
	free(cmd);
	if (again)
		format_cmd(&cmd, "GET");
	free(cmd); // want "c.memory.double-free"
}

/* Out of the free's block and into a plain one, a reset still counts;
   inside an if it does not. */
void block_reset(char *p)
{
	{
		free(p);
	}
	{
		p = NULL;
	}
	free(p); // safe "c.memory.double-free"
}

void cond_reset(char *p, int c)
{
	{
		free(p);
	}
	if (c) {
		p = NULL;
	}
	free(p); // want "c.memory.double-free"
}
