/* Initialising a worker pool. */
#include <pthread.h>
#include <stdlib.h>

struct pool {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	pthread_t threads[8];
	pthread_key_t key;
	int n;
};

extern void *pool_worker(void *arg);

/* Flawed: init and create results are dropped. */
void pool_init(struct pool *p)
{
	int i;

	pthread_mutex_init(&p->lock, NULL); // want "c.errors.unchecked-pthread"
	pthread_cond_init(&p->cond, NULL); // want "c.errors.unchecked-pthread"
	pthread_key_create(&p->key, free); // want "c.errors.unchecked-pthread"
	for (i = 0; i < 8; i++)
		pthread_create(&p->threads[i], NULL, pool_worker, p); // want "c.errors.unchecked-pthread"
	p->n = 8;
}

/* Fixed twin. */
int pool_init_fixed(struct pool *p)
{
	int i, rc;

	if ((rc = pthread_mutex_init(&p->lock, NULL)) != 0) // safe "c.errors.unchecked-pthread"
		return rc;
	rc = pthread_cond_init(&p->cond, NULL); // safe "c.errors.unchecked-pthread"
	if (rc != 0)
		return rc;
	for (i = 0; i < 8; i++) {
		rc = pthread_create(&p->threads[i], NULL, pool_worker, p); // safe "c.errors.unchecked-pthread"
		if (rc != 0)
			break;
	}
	p->n = i;
	return rc;
}

/* Lock and unlock are a separate concern and are not reported. */
void pool_bump(struct pool *p)
{
	pthread_mutex_lock(&p->lock); // safe "c.errors.unchecked-pthread"
	p->n++;
	pthread_mutex_unlock(&p->lock); // safe "c.errors.unchecked-pthread"
	pthread_mutex_destroy(&p->lock); // safe "c.errors.unchecked-pthread"
}
