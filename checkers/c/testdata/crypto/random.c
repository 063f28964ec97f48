#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static const char alphabet[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

struct session {
	unsigned int session_id;
	unsigned char iv[16];
	char csrf_token[33];
};

void make_token(char *token, size_t n)
{
	size_t i;
	srand(time(NULL)); // want "c.random.seed"
	for (i = 0; i + 1 < n; i++)
		token[i] = alphabet[rand() % (sizeof(alphabet) - 1)]; // want "c.random.insecure"
	token[n - 1] = '\0';
}

void new_session(struct session *s)
{
	int i;
	s->session_id = (unsigned int)random(); // want "c.random.insecure"
	for (i = 0; i < 16; i++)
		s->iv[i] = rand() & 0xff; // want "c.random.insecure"
}

unsigned int make_nonce(void)
{
	return (unsigned int)lrand48(); // want "c.random.insecure"
}

void fill_salt(unsigned char *salt, size_t n)
{
	size_t i;
	for (i = 0; i < n; i++) {
		int r = rand(); // want "c.random.insecure"
		salt[i] = (unsigned char)(r % 256);
	}
}

void format_csrf(struct session *s)
{
	snprintf(s->csrf_token, sizeof s->csrf_token, "%08x%08x", rand(), rand()); // want "c.random.insecure" "c.random.insecure"
}

/* Simulation, jitter and sampling: not security values. */
int backoff_ms(int attempt)
{
	int jitter = rand() % 100; // safe "c.random.insecure"
	return attempt * 250 + jitter;
}

int pick_victim(int nkeys)
{
	if (rand() % 2 == 0) // safe "c.random.insecure"
		return 0;
	return random() % nkeys; // safe "c.random.insecure"
}

void shuffle(int *a, int n)
{
	int i;
	for (i = n - 1; i > 0; i--) {
		int j = rand() % (i + 1); // safe "c.random.insecure"
		int t = a[i];
		a[i] = a[j];
		a[j] = t;
	}
}

int monkey_count(void)
{
	int monkey = rand() % 10; // safe "c.random.insecure"
	int key_count = rand() % 10; // safe "c.random.insecure"
	return monkey + key_count;
}

/* A random choice among keys or sessions is not a secret. */
unsigned long dict_random_key(unsigned long count)
{
	unsigned long idx = rand() % count; // safe "c.random.insecure"
	return idx;
}

int pick_session(int nsessions)
{
	return rand() % nsessions; // safe "c.random.insecure"
}

/* Comments, strings and dead code stay silent: token[i] = rand(); */
static const char *rng_doc = "never use rand() for a session_token";
#if 0
void old_token(char *token) { token[0] = rand(); }
#endif
