#include <stdio.h>

struct account {
	char name[32];
	char role[16];
};

/* Flawed: %s with no width. */
int read_account(struct account *a)
{
	char pass[64];

	if (scanf("%s", pass) != 1) // want "c.buffer.scanf-width"
		return -1;
	if (scanf("%31s %15s", a->name, a->role) != 2) // safe "c.buffer.scanf-width"
		return -1;
	if (scanf("%32s", a->name) != 1) // want "c.buffer.scanf-width"
		return -1;
	return check_password(pass);
}

/* Flawed: fscanf and sscanf, including a scanset. */
int parse_line(FILE *f, const char *line)
{
	char key[32], value[128];
	int id;

	if (fscanf(f, "%d %[^\n]", &id, value) != 2) // want "c.buffer.scanf-width"
		return -1;
	if (sscanf(line, "%31[^=]=%127s", key, value) != 2) // safe "c.buffer.scanf-width"
		return -1;
	if (sscanf(line, "%d:%s", &id, key) != 2) // want "c.buffer.scanf-width"
		return -1;
	return id;
}

/* Fixed: allocated and suppressed conversions, and a short source. */
int parse_alloc(const char *line)
{
	char *word = NULL;
	char small[8] = "abc";
	char copy[16];

	if (sscanf(line, "%ms", &word) != 1) // safe "c.buffer.scanf-width"
		return -1;
	if (sscanf(line, "%*s %d", &small[0]) != 1) // safe "c.buffer.scanf-width"
		return -1;
	if (sscanf(small, "%s", copy) != 1) // safe "c.buffer.scanf-width"
		return -1;
	return word[0];
}

/* Comments, strings and dead code stay silent. */
void quiet_scanf(void)
{
	char word[16] = "";
	/* scanf("%s", word); */
	puts("never write scanf('%s', word);");
#if 0
	scanf("%s", word);
#endif
}
