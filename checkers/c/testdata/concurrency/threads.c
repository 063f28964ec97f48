/* A tiny download manager: worker threads and shared counters. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

#define NWORKERS 4

static long bytes_done;
static int active_workers;
static _Atomic long requests_served;
static __thread int worker_id;
static pthread_mutex_t counters_lock = PTHREAD_MUTEX_INITIALIZER;
static int last_status;

extern long fetch_one(int id);
extern void lock_counters(void);
extern void unlock_counters(void);

/* Flawed: both counters are written without the lock. */
static void *download_worker(void *arg)
{
	long n = fetch_one((int)(long)arg);
	int local = 0;

	worker_id = (int)(long)arg;
	bytes_done += n; // want "c.sync.data-race"
	active_workers--; // want "c.sync.data-race"
	requests_served++; // safe "c.sync.data-race"
	local++;
	return NULL;
}

/* Fixed twin: the same updates under the mutex. */
static void *download_worker_locked(void *arg)
{
	long n = fetch_one((int)(long)arg);

	pthread_mutex_lock(&counters_lock);
	bytes_done += n; // safe "c.sync.data-race"
	active_workers--;
	pthread_mutex_unlock(&counters_lock);
	last_status = 0; // want "c.sync.data-race"
	return NULL;
}

/* Fixed twin: locked through the file's helper functions. */
static void *download_worker_helper(void *arg)
{
	long n = fetch_one((int)(long)arg);

	lock_counters();
	bytes_done += n; // safe "c.sync.data-race"
	unlock_counters();
	return NULL;
}

/* Flawed: the thread handles are dropped. */
void start_downloads(void)
{
	pthread_t tid;
	int i;

	for (i = 0; i < NWORKERS; i++)
		pthread_create(&tid, NULL, download_worker, (void *)(long)i); // want "c.sync.thread-leak" "c.errors.unchecked-pthread"
	printf("%ld %d\n", bytes_done, active_workers);
}

/* Fixed twin: every thread is joined. */
void run_downloads(void)
{
	pthread_t tids[NWORKERS];
	int i;

	for (i = 0; i < NWORKERS; i++)
		pthread_create(&tids[i], NULL, download_worker_locked, (void *)(long)i); // safe "c.sync.thread-leak" want "c.errors.unchecked-pthread"
	for (i = 0; i < NWORKERS; i++)
		pthread_join(tids[i], NULL); // want "c.errors.unchecked-pthread"
}

/* Fixed twin: created detached. */
void start_detached(void)
{
	pthread_t tid;
	pthread_attr_t attr;

	pthread_attr_init(&attr); // want "c.errors.unchecked-pthread"
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED); // want "c.errors.unchecked-pthread"
	pthread_create(&tid, &attr, download_worker_helper, NULL); // safe "c.sync.thread-leak" want "c.errors.unchecked-pthread"
	pthread_attr_destroy(&attr);
}

struct worker {
	pthread_t thread;
	int id;
};

/* Fixed twin: the handle is stored in a structure the caller keeps. */
int start_worker(struct worker *workers, int i)
{
	struct worker *w = &workers[i];

	w->id = i;
	return pthread_create(&w->thread, NULL, download_worker_locked, w); // safe "c.sync.thread-leak"
}

/* Fixed twin: the handle is handed to the caller. */
int start_one(pthread_t *out)
{
	pthread_t tid;

	if (pthread_create(&tid, NULL, download_worker_locked, NULL) != 0) // safe "c.sync.thread-leak"
		return -1;
	*out = tid;
	return 0;
}

void lock_counters(void)
{
	pthread_mutex_lock(&counters_lock);
}

void unlock_counters(void)
{
	pthread_mutex_unlock(&counters_lock);
}

/* The text of a comment does not start threads: pthread_create(&t, NULL, f, NULL) */
