/* A loop macro with a one-statement body, as git writes them: tree-sitter
 * cannot know for_each_name is a loop, so this file does not parse cleanly
 * (checktest:allow-parse-errors), exactly like the real code. */
#include <string.h>

struct name_list {
	const char **names;
	int nr;
};

#define for_each_name(p, list) for ((p) = (list)->names; (p) < (list)->names + (list)->nr; (p)++)

/* The loop macro sets the cursor before its one-statement body reads it. */
int has_newline(struct name_list *list)
{
	const char **p;
	for_each_name(p, list)
		if (strchr(*p, '\n')) // safe "c.memory.uninit"
			return 1;
	return 0;
}


int emit_name(const char *name);

/* The same with a call for the body. */
void emit_names(struct name_list *list)
{
	const char **p;
	for_each_name(p, list)
		emit_name(*p); // safe "c.memory.uninit"
}
