/* A bounded work queue with a condition variable. */
#include <pthread.h>
#include <time.h>

struct workq {
	pthread_mutex_t lock;
	pthread_cond_t ready;
	int items[32];
	int count;
	int shutdown;
};

/* Flawed: a spurious wakeup pops from an empty queue. */
int workq_pop(struct workq *q)
{
	int item;

	pthread_mutex_lock(&q->lock);
	if (q->count == 0)
		pthread_cond_wait(&q->ready, &q->lock); // want "c.sync.cond-wait"
	item = q->items[--q->count];
	pthread_mutex_unlock(&q->lock);
	return item;
}

/* Flawed: a timed wait taken once, as if it could only end on a signal. */
int workq_pop_timeout(struct workq *q, const struct timespec *deadline)
{
	int item = -1;

	pthread_mutex_lock(&q->lock);
	if (q->count == 0)
		pthread_cond_timedwait(&q->ready, &q->lock, deadline); // want "c.sync.cond-wait"
	if (q->count > 0)
		item = q->items[--q->count];
	pthread_mutex_unlock(&q->lock);
	return item;
}

/* Flawed: a do { } while (0) block is not a loop. */
int workq_pop_block(struct workq *q)
{
	int item = -1;

	pthread_mutex_lock(&q->lock);
	do {
		if (q->count == 0)
			pthread_cond_wait(&q->ready, &q->lock); // want "c.sync.cond-wait"
		if (q->count > 0)
			item = q->items[--q->count];
	} while (0);
	pthread_mutex_unlock(&q->lock);
	return item;
}

/* Fixed twin: the predicate is re-checked after every wakeup. */
int workq_pop_fixed(struct workq *q)
{
	int item;

	pthread_mutex_lock(&q->lock);
	while (q->count == 0 && !q->shutdown)
		pthread_cond_wait(&q->ready, &q->lock); // safe "c.sync.cond-wait"
	item = q->shutdown ? -1 : q->items[--q->count];
	pthread_mutex_unlock(&q->lock);
	return item;
}

/* Fixed twin: a for loop re-checks too. */
int workq_wait_shutdown(struct workq *q)
{
	pthread_mutex_lock(&q->lock);
	for (;;) {
		if (q->shutdown)
			break;
		pthread_cond_wait(&q->ready, &q->lock); // safe "c.sync.cond-wait"
	}
	pthread_mutex_unlock(&q->lock);
	return 0;
}

/* Not a call: a field named like the API. */
struct waiter_ops {
	int (*pthread_cond_wait)(pthread_cond_t *, pthread_mutex_t *);
};
