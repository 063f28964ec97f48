/* Environment variables: NULL when unset. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char home_dir[4096];

size_t home_length(void)
{
	return strlen(getenv("HOME")); // want "c.input.getenv"
}

int is_debug(void)
{
	return getenv("APP_DEBUG")[0] == '1'; // want "c.input.getenv"
}

void show_shell(FILE *out)
{
	fprintf(out, "shell: %s\n", getenv("SHELL")); // want "c.input.getenv"
	fprintf(out, "%d vars\n", getenv("SHELL") != NULL); // safe "c.input.getenv"
}

void load_home(void)
{
	const char *home = getenv("HOME");
	size_t n = strlen(home); // want "c.input.getenv"
	if (n < sizeof(home_dir))
		memcpy(home_dir, home, n + 1);
}

int editor_is_vi(void)
{
	char *editor = getenv("EDITOR");
	if (editor == NULL)
		return 0;
	return strcmp(editor, "vi") == 0; // safe "c.input.getenv"
}

const char *tmp_dir(void)
{
	const char *dir = getenv("TMPDIR"); // safe "c.input.getenv"
	return dir ? dir : "/tmp";
}

int lang_is_c(void)
{
	const char *lang = getenv("LANG");
	return lang && strcmp(lang, "C") == 0; // safe "c.input.getenv"
}

int term_is_dumb(void)
{
	const char *term;
	if ((term = getenv("TERM")) == NULL)
		return 1;
	return !strcmp(term, "dumb"); // safe "c.input.getenv"
}

int columns(void)
{
	const char *cols = getenv("COLUMNS");
	if (!cols || !*cols)
		return 80;
	return atoi(cols); // safe "c.input.getenv" want "c.input.atoi"
}

/* Passing the value on unchecked to a function that tests it is fine. */
extern int set_pager(const char *pager);

int use_pager(void)
{
	return set_pager(getenv("PAGER")); // safe "c.input.getenv"
}

/* In a comment: strlen(getenv("HOME")) */

/* System calls fail with EFAULT on NULL rather than crash. */
#include <unistd.h>

int enter_workdir(void)
{
	return chdir(getenv("WORKDIR")); // safe "c.input.getenv"
}
