/* A connection pool and a job queue guarded by pthread mutexes. */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

struct conn {
	int fd;
	struct conn *next;
};

struct pool {
	pthread_mutex_t lock;
	struct conn *free_list;
	int nfree;
	int closed;
};

struct queue {
	pthread_mutex_t lock;
	pthread_cond_t nonempty;
	int jobs[64];
	int head, tail;
};

static pthread_mutex_t stats_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;
static long stats_total;
static int registry_size;

extern void log_error(const char *msg);
extern int validate(struct conn *c);

/* Flawed: the error path locks the pool again instead of unlocking it. */
int pool_put(struct pool *p, struct conn *c)
{
	pthread_mutex_lock(&p->lock);
	if (!validate(c)) {
		log_error("bad connection");
		pthread_mutex_lock(&p->lock); // want "c.sync.double-lock"
		return -1; // want "c.sync.missing-unlock"
	}
	c->next = p->free_list;
	p->free_list = c;
	p->nfree++;
	pthread_mutex_unlock(&p->lock);
	return 0;
}

/* Flawed: two locks of the stats mutex on the straight-line path. */
void stats_add(long n)
{
	pthread_mutex_lock(&stats_lock);
	stats_total += n;
	pthread_mutex_lock(&stats_lock); // want "c.sync.double-lock"
	pthread_mutex_unlock(&stats_lock);
}

/* Fixed twin: unlock before taking the lock again. */
void stats_add_twice(long n)
{
	pthread_mutex_lock(&stats_lock);
	stats_total += n;
	pthread_mutex_unlock(&stats_lock);
	pthread_mutex_lock(&stats_lock); // safe "c.sync.double-lock"
	stats_total += n;
	pthread_mutex_unlock(&stats_lock);
}

/* Fixed twin: the lock is taken on exclusive branches only. */
void stats_reset(int hard)
{
	if (hard) {
		pthread_mutex_lock(&stats_lock);
		stats_total = 0;
		pthread_mutex_unlock(&stats_lock);
	} else {
		pthread_mutex_lock(&stats_lock); // safe "c.sync.double-lock"
		stats_total /= 2;
		pthread_mutex_unlock(&stats_lock);
	}
}

/* Flawed: the early return keeps the pool locked. */
struct conn *pool_get(struct pool *p)
{
	struct conn *c;

	pthread_mutex_lock(&p->lock);
	if (p->closed)
		return NULL; // want "c.sync.missing-unlock"
	c = p->free_list;
	if (c != NULL) {
		p->free_list = c->next;
		p->nfree--;
	}
	pthread_mutex_unlock(&p->lock);
	return c;
}

/* Fixed twin: every exit unlocks. */
struct conn *pool_get_fixed(struct pool *p)
{
	struct conn *c = NULL;

	pthread_mutex_lock(&p->lock);
	if (p->closed) {
		pthread_mutex_unlock(&p->lock);
		return NULL; // safe "c.sync.missing-unlock"
	}
	c = p->free_list;
	if (c != NULL)
		p->free_list = c->next;
	pthread_mutex_unlock(&p->lock);
	return c;
}

/* Flawed: "goto out" skips the unlock that the normal path does. */
int queue_push(struct queue *q, int job)
{
	int ret = 0;

	pthread_mutex_lock(&q->lock);
	if ((q->tail + 1) % 64 == q->head) {
		ret = -ENOSPC;
		goto out; // want "c.sync.missing-unlock"
	}
	q->jobs[q->tail] = job;
	q->tail = (q->tail + 1) % 64;
	pthread_cond_signal(&q->nonempty);
	pthread_mutex_unlock(&q->lock);
out:
	return ret;
}

/* Fixed twin: the label unlocks, so every goto is fine. */
int queue_push_fixed(struct queue *q, int job)
{
	int ret = 0;

	pthread_mutex_lock(&q->lock);
	if ((q->tail + 1) % 64 == q->head) {
		ret = -ENOSPC;
		goto out; // safe "c.sync.missing-unlock"
	}
	q->jobs[q->tail] = job;
	q->tail = (q->tail + 1) % 64;
	pthread_cond_signal(&q->nonempty);
out:
	pthread_mutex_unlock(&q->lock);
	return ret;
}

/* Flawed: a void function that unlocks on one path and not on the other. */
void queue_drop(struct queue *q)
{
	pthread_mutex_lock(&q->lock);
	if (q->head == q->tail) {
		pthread_mutex_unlock(&q->lock);
		return;
	}
	q->head = (q->head + 1) % 64;
} // want "c.sync.missing-unlock"

/* Fixed twin: returns locked by contract: every success path holds the
 * lock, the failure path releases it and says so with NULL. */
struct conn *pool_lock_first(struct pool *p)
{
	pthread_mutex_lock(&p->lock);
	if (p->free_list == NULL) {
		pthread_mutex_unlock(&p->lock);
		return NULL;
	}
	return p->free_list; // safe "c.sync.missing-unlock"
}

/* Fixed twin: the lock is taken and released under the same condition. */
void pool_note(struct pool *p, int shared)
{
	if (shared)
		pthread_mutex_lock(&p->lock);
	p->nfree += 0;
	if (shared)
		pthread_mutex_unlock(&p->lock);
	return; // safe "c.sync.missing-unlock"
}

/* Fixed twin: a failed lock returns without holding anything. */
int pool_close(struct pool *p)
{
	int rc;

	if ((rc = pthread_mutex_lock(&p->lock)) != 0)
		return rc; // safe "c.sync.missing-unlock"
	p->closed = 1;
	pthread_mutex_unlock(&p->lock);
	return 0;
}

/* Fixed twin: a trylock that failed holds nothing. */
int pool_try_close(struct pool *p)
{
	if (pthread_mutex_trylock(&p->lock) == EBUSY)
		return -1; // safe "c.sync.missing-unlock"
	p->closed = 1;
	pthread_mutex_unlock(&p->lock);
	return 0;
}

/* The registry is locked before the stats here ... */
void registry_add(void)
{
	pthread_mutex_lock(&registry_lock);
	registry_size++;
	pthread_mutex_lock(&stats_lock);
	stats_total++;
	pthread_mutex_unlock(&stats_lock);
	pthread_mutex_unlock(&registry_lock);
}

/* Flawed: ... and after them here. */
void stats_flush(void)
{
	pthread_mutex_lock(&stats_lock);
	stats_total = 0;
	pthread_mutex_lock(&registry_lock); // want "c.sync.lock-order"
	registry_size = 0;
	pthread_mutex_unlock(&registry_lock);
	pthread_mutex_unlock(&stats_lock);
}

/* Fixed twin: same order as registry_add. */
void registry_clear(void)
{
	pthread_mutex_lock(&registry_lock);
	registry_size = 0;
	pthread_mutex_lock(&stats_lock); // safe "c.sync.lock-order"
	stats_total = 0;
	pthread_mutex_unlock(&stats_lock);
	pthread_mutex_unlock(&registry_lock);
}

/* Fixed twin: the stats lock is released before the registry is taken. */
void stats_then_registry(void)
{
	pthread_mutex_lock(&stats_lock);
	stats_total++;
	pthread_mutex_unlock(&stats_lock);
	pthread_mutex_lock(&registry_lock); // safe "c.sync.lock-order"
	registry_size++;
	pthread_mutex_unlock(&registry_lock);
}

/* Comments, strings and dead code stay silent. */
void quiet(struct pool *p)
{
	/* pthread_mutex_lock(&p->lock); pthread_mutex_lock(&p->lock); */
	const char *doc = "pthread_mutex_lock(&p->lock) twice deadlocks";
#if 0
	pthread_mutex_lock(&p->lock);
	pthread_mutex_lock(&p->lock);
#endif
	(void)doc;
	pthread_mutex_lock(&p->lock); // safe "c.sync.double-lock"
	pthread_mutex_unlock(&p->lock);
}
