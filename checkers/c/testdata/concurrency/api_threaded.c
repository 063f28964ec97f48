/* A threaded log writer: here the static state is shared for real. */
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

static void *log_thread(void *arg)
{
	char *line = arg;
	char *field = strtok(line, " "); // want "c.api.strtok"
	time_t now = time(NULL);
	struct tm *tm = gmtime(&now); // want "c.api.time-nonreentrant"

	if (field && tm)
		fprintf(stderr, "%02d:%02d %s\n", tm->tm_hour, tm->tm_min, field);
	return NULL;
}

int start_logger(char *line, pthread_t *tid)
{
	return pthread_create(tid, NULL, log_thread, line);
}
