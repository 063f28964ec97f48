#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define MIN_CHUNKS 1

struct header {
	unsigned int total;
	unsigned int count;
};

int main(int argc, char **argv)
{
	int total, parts, per_part;
	if (argc < 3)
		return 1;
	total = (int)strtol(argv[1], NULL, 10);
	parts = (int)strtol(argv[2], NULL, 10);
	per_part = total / parts; // want "c.int.div-zero"
	printf("%d %d\n", per_part, total % parts); // want "c.int.div-zero"
	printf("%d\n", total / (int)strtol(argv[2], NULL, 10)); // want "c.int.div-zero"
	return 0;
}

int average_from_stdin(void)
{
	int sum = 0, n;
	if (scanf("%d %d", &sum, &n) != 2)
		return -1;
	return sum / n; // want "c.int.div-zero"
}

unsigned int records_per_block(FILE *f)
{
	struct header h;
	if (fread(&h, sizeof h, 1, f) != 1)
		return 0;
	return h.total / h.count; // want "c.int.div-zero"
}

int checked_split(int argc, char **argv)
{
	int total = (int)strtol(argv[1], NULL, 10);
	int parts = (int)strtol(argv[2], NULL, 10);
	if (parts <= 0) {
		fprintf(stderr, "parts must be positive\n");
		return -1;
	}
	return total / parts; // safe "c.int.div-zero"
}

int guarded_split(const char *a, const char *b)
{
	char line[64];
	int total = (int)strtol(a, NULL, 10);
	int parts;
	if (!fgets(line, sizeof line, stdin))
		return 0;
	parts = (int)strtol(line, NULL, 10);
	return parts ? total / parts : 0; // safe "c.int.div-zero"
}

int chunk_size(char **argv, int len)
{
	char line[32];
	int chunks;
	if (!fgets(line, sizeof line, stdin))
		return len;
	chunks = (int)strtol(line, NULL, 10);
	if (chunks < MIN_CHUNKS)
		chunks = MIN_CHUNKS;
	return len / chunks; // safe "c.int.div-zero"
}

double ratio(char **argv)
{
	double d = strtod(argv[2], NULL);
	int n = (int)strtol(argv[1], NULL, 10);
	return n / d; // safe "c.int.div-zero"
}

int scaled(const char *arg)
{
	int n = (int)strtol(arg, NULL, 10);
	int per = 0;
	return n / 4 + n / sizeof(int); // safe "c.int.div-zero"
}

int empty_average(const char *arg)
{
	int count = 0;
	int sum = (int)strtol(arg, NULL, 10);
	return sum / count; // want "c.int.div-zero"
}

int counted_average(const char *list)
{
	int count = 0;
	int sum = (int)strtol(list, NULL, 10);
	while (*list)
		if (*list++ == ',')
			count++;
	return sum / count; // safe "c.int.div-zero"
}

/* A divisor from a parameter is the caller's business. */
int split_param(const char *arg, int parts)
{
	int total = (int)strtol(arg, NULL, 10);
	return total / parts; // safe "c.int.div-zero"
}

long bench(int argc, char **argv)
{
	long count = 0;
	long j, hits = 0;
	if (argc == 2)
		count = strtol(argv[1], NULL, 10);
	else
		count = 5000;
	for (j = 0; j < count; j++)
		hits += rand() % count; // safe "c.int.div-zero"
	return hits;
}

int mean(const int *v)
{
	char line[32];
	int i, n, sum = 0;
	if (!fgets(line, sizeof line, stdin))
		return 0;
	n = (int)strtol(line, NULL, 10);
	for (i = 0; i < n; i++) // want "c.dos.unbounded-loop"
		sum += v[i];
	return sum / n; // want "c.int.div-zero"
}

/* Comments, strings and dead code stay silent: n = atoi(argv[1]); x / n */
static const char *div_doc = "total / parts with parts = strtol(argv[2], NULL, 10)";
#if 0
int old_split(char **argv) { return 10 / (int)strtol(argv[1], NULL, 10); }
#endif
