#include <stdio.h>

int read_line(void)
{
	char line[128];
	gets(line); // want "c.buffer.gets"
	fgets(line, sizeof line, stdin); // safe "c.buffer.gets"
	return line[0];
}

/* The name alone is not a call. */
char *(*reader)(char *) = 0;
int gets_count; // safe "c.buffer.gets"
