#include <stdlib.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

/* This file never uses rand() for a secret: seeds are reported at low
 * severity, for the record. */
void init_simulation(void)
{
	struct timeval tv;
	gettimeofday(&tv, NULL);
	srand(time(NULL) ^ getpid() ^ tv.tv_usec); // want "c.random.seed"
	srandom(42); // want "c.random.seed"
}

void init_from_time(void)
{
	time_t now;
	time(&now);
	srand((unsigned)now); // want "c.random.seed"
}

void init_from_entropy(void)
{
	unsigned int seed;
	FILE *f = fopen("/dev/urandom", "rb");
	if (f == NULL)
		return;
	if (fread(&seed, sizeof seed, 1, f) != 1) {
		fclose(f);
		return;
	}
	fclose(f);
	srand(seed); // safe "c.random.seed"
}

void init_from_arg(unsigned int seed)
{
	srand(seed); // safe "c.random.seed"
}

int roll(void)
{
	return rand() % 6 + 1;
}

/* srand(time(NULL)); in a comment, and in dead code: */
#if 0
void old_init(void) { srand(time(NULL)); }
#endif
