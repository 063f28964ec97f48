#include <stdio.h>
#include <string.h>

#define BUF_SIZE 256

struct log_entry {
	char text[200];
};

/* Flawed: the whole size instead of the room left. */
void add_suffix(char *suffix)
{
	char name[64];

	strcpy(name, "prefix-");
	strncat(name, suffix, sizeof(name)); // want "c.buffer.strncat-size"
	strncat(name, suffix, sizeof name - 1); // want "c.buffer.strncat-size"
	strncat(name, suffix, 64); // want "c.buffer.strncat-size"
	puts(name);
}

/* Flawed: a struct field and its whole size. */
void log_append(struct log_entry *e, const char *msg)
{
	strncat(e->text, msg, sizeof(e->text)); // want "c.buffer.strncat-size"
}

/* Flawed: the source's length bounds nothing. */
void add_path(char *dir, const char *file)
{
	char path[BUF_SIZE];

	snprintf(path, sizeof path, "%s/", dir);
	strncat(path, file, strlen(file)); // want "c.buffer.strncat-size"
	puts(path);
}

/* Fixed twin: the room left after the contents. */
void add_suffix_fixed(const char *suffix)
{
	char name[64];

	strcpy(name, "prefix-");
	strncat(name, suffix, sizeof(name) - strlen(name) - 1); // safe "c.buffer.strncat-size"
	puts(name);
}

/* Fixed: appending to an empty buffer, size - 1 is the room. */
void first_word(const char *text)
{
	char word[32];

	word[0] = '\0';
	strncat(word, text, sizeof word - 1); // safe "c.buffer.strncat-size"
	puts(word);
}

/* Comments, strings and dead code stay silent. */
void quiet_strncat(const char *suffix)
{
	char name[64] = "x";
	/* strncat(name, suffix, sizeof name); */
	puts("never write strncat(name, suffix, sizeof name);");
#if 0
	strncat(name, suffix, sizeof name);
#endif
}
