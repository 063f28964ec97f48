/* Control flow the lock rules must follow without crying wolf. */
#include <pthread.h>
#include <stdlib.h>

struct cache {
	pthread_mutex_t lock;
	pthread_cond_t changed;
	int entries[128];
	int n;
	int busy;
};

extern void release_and_log(pthread_mutex_t *m, const char *why);
extern int cache_full(struct cache *c);

static void cache_unlock(struct cache *c)
{
	pthread_mutex_unlock(&c->lock);
}

/* Safe: each loop iteration unlocks before break or continue. */
int cache_scan(struct cache *c, int key)
{
	int i, found = -1;

	for (i = 0; i < 128; i++) {
		pthread_mutex_lock(&c->lock); // safe "c.sync.double-lock"
		if (c->entries[i] == 0) {
			pthread_mutex_unlock(&c->lock);
			continue;
		}
		if (c->entries[i] == key) {
			found = i;
			pthread_mutex_unlock(&c->lock);
			break;
		}
		pthread_mutex_unlock(&c->lock);
	}
	return found; // safe "c.sync.missing-unlock"
}

/* One switch case forgets to unlock. */
int cache_op(struct cache *c, int op, int key)
{
	pthread_mutex_lock(&c->lock);
	switch (op) {
	case 0:
		c->n = 0;
		pthread_mutex_unlock(&c->lock);
		return 0; // safe "c.sync.missing-unlock"
	case 1:
		if (cache_full(c))
			return -1; // want "c.sync.missing-unlock"
		c->entries[c->n++] = key;
		break;
	default:
		break;
	}
	pthread_mutex_unlock(&c->lock);
	return 0;
}

/* Safe: lock and unlock under the same #ifdef. */
void cache_clear(struct cache *c)
{
#ifdef CACHE_THREADS
	pthread_mutex_lock(&c->lock);
#endif
	c->n = 0;
#ifdef CACHE_THREADS
	pthread_mutex_unlock(&c->lock);
#endif
	return; // safe "c.sync.missing-unlock"
}

/* Safe: the mutex is handed to a function that unlocks it elsewhere, or to
 * this file's helper that unlocks it. */
int cache_put(struct cache *c, int key)
{
	pthread_mutex_lock(&c->lock);
	if (c->n >= 128) {
		release_and_log(&c->lock, "full");
		return -1; // safe "c.sync.missing-unlock"
	}
	if (key < 0) {
		cache_unlock(c);
		return -1; // safe "c.sync.missing-unlock"
	}
	c->entries[c->n++] = key;
	pthread_mutex_unlock(&c->lock);
	return 0;
}

/* Safe: exit() ends the path; the lock does not matter any more. */
int cache_check(struct cache *c)
{
	pthread_mutex_lock(&c->lock);
	if (c->n < 0)
		abort(); // safe "c.sync.missing-unlock"
	pthread_mutex_unlock(&c->lock);
	return 0;
}

/* Safe: waiting keeps the mutex held, the loop does not lock again. */
void cache_wait_idle(struct cache *c)
{
	pthread_mutex_lock(&c->lock);
	while (c->busy)
		pthread_cond_wait(&c->changed, &c->lock);
	c->busy = 1;
	pthread_mutex_unlock(&c->lock); // safe "c.sync.double-lock"
}

/* Safe: the lock is only held on the success side of the test. */
int cache_try_bump(struct cache *c)
{
	if (pthread_mutex_trylock(&c->lock) == 0) {
		c->n++;
		pthread_mutex_unlock(&c->lock);
		return 1;
	}
	return 0; // safe "c.sync.missing-unlock"
}

/* Safe: a do { } while (0) block with a break. */
int cache_drop(struct cache *c, int key)
{
	int ret = -1;

	pthread_mutex_lock(&c->lock);
	do {
		if (c->n == 0)
			break;
		if (c->entries[c->n - 1] != key)
			break;
		c->n--;
		ret = 0;
	} while (0);
	pthread_mutex_unlock(&c->lock);
	return ret; // safe "c.sync.missing-unlock"
}

struct node {
	pthread_mutex_t lock;
	struct node *next;
	int key;
};

/* Safe: hand-over-hand locking; n names another node after n = n->next. */
struct node *list_find(struct node *n, int key)
{
	struct node *next;

	pthread_mutex_lock(&n->lock);
	next = n->next;
	pthread_mutex_unlock(&n->lock);
	n = next;
	pthread_mutex_lock(&n->lock); // safe "c.sync.double-lock"
	if (n->key != key) {
		pthread_mutex_unlock(&n->lock);
		return NULL;
	}
	return n; // safe "c.sync.missing-unlock"
}

/* Safe: lock coupling keeps the old node locked while taking the next. */
void list_walk(struct node *n)
{
	pthread_mutex_lock(&n->lock);
	struct node *prev = n;
	n = n->next;
	pthread_mutex_lock(&n->lock); // safe "c.sync.double-lock"
	pthread_mutex_unlock(&prev->lock);
	pthread_mutex_unlock(&n->lock);
}

/* Safe: two unrelated conditions; no single straight-line path is known to
 * take both. */
void cache_mode(struct cache *c, int mode)
{
	if (mode == 1)
		pthread_mutex_lock(&c->lock);
	c->busy = mode;
	if (mode == 2)
		pthread_mutex_lock(&c->lock); // safe "c.sync.double-lock"
	pthread_mutex_unlock(&c->lock);
}

/* Flawed: the retry loop locks again after a failed attempt that kept the
 * lock. */
int cache_retry(struct cache *c)
{
	pthread_mutex_lock(&c->lock);
	if (c->busy) {
		c->busy = 0;
		pthread_mutex_lock(&c->lock); // want "c.sync.double-lock"
	}
	pthread_mutex_unlock(&c->lock);
	return 0;
}
