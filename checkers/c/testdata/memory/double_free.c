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

/* A free in a loop's body, a return after the loop: the next iteration
   frees the block again (the return ends no path that goes round). */
int free_each_round(char **names, int n)
{
	int i;
	for (i = 0; i < n; i++) {
		if (n > 5) {
			free(names); // want "c.memory.double-free"
		}
	}
	return 0;
}

/* The same free followed by a return inside the body: no second round. */
int free_then_return(char **names, int n)
{
	int i;
	for (i = 0; i < n; i++) {
		if (n > 5) {
			free(names); // safe "c.memory.double-free"
			return 1;
		}
	}
	return 0;
}

/* A function of the file that never returns: exit() ends its body and
   nothing returns before it. A free followed by a call of it ends the
   path, as free(p); exit(1); does. */
extern int printf(const char *, ...);
extern void exit(int);

static void fatal_error(const char *msg)
{
	printf("%s\n", msg);
	exit(1);
}

int free_then_fatal(char **names, int n)
{
	int i;
	for (i = 0; i < n; i++) {
		printf("%s\n", names[i]); // safe "c.memory.use-after-free"
		if (n > 5) {
			free(names); // safe "c.memory.double-free"
			fatal_error("too many");
		}
	}
	return 0;
}

/* One that may return: the loop goes round with the block freed. */
static void maybe_fatal(int code)
{
	if (code == 0)
		return;
	exit(code);
}

int free_then_maybe_fatal(char **names, int n)
{
	int i;
	for (i = 0; i < n; i++) {
		if (n > 5) {
			free(names); // want "c.memory.double-free"
			maybe_fatal(n);
		}
	}
	return 0;
}
