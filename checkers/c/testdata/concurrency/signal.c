/* A daemon's signal handling. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <unistd.h>

static volatile sig_atomic_t got_hup;
static volatile sig_atomic_t stop_requested;
static char *pending_msg;
static int wake_pipe[2];

/* Flawed: stdio, the heap and exit() in a handler. */
static void on_term(int sig)
{
	fprintf(stderr, "caught signal %d, exiting\n", sig); // want "c.signal.unsafe-call"
	free(pending_msg); // want "c.signal.unsafe-call"
	syslog(LOG_NOTICE, "terminating"); // want "c.signal.unsafe-call"
	exit(1); // want "c.signal.unsafe-call"
}

/* Fixed twin: only async-signal-safe calls. */
static void on_term_safe(int sig)
{
	static const char msg[] = "caught signal, exiting\n";
	(void)sig;
#if 0
	fprintf(stderr, "caught %d\n", sig);
#endif
	write(STDERR_FILENO, msg, sizeof msg - 1); // safe "c.signal.unsafe-call"
	_exit(1); // safe "c.signal.unsafe-call"
}

static void flush_and_close(void)
{
	fflush(stdout);
	fclose(stdout);
}

/* Flawed: the unsafe work hides in a helper of this file. */
static void on_quit(int sig)
{
	(void)sig;
	stop_requested = 1;
	flush_and_close(); // want "c.signal.unsafe-call"
}

/* Flawed: installed through sigaction. */
static void on_hup(int sig, siginfo_t *info, void *ctx)
{
	(void)info;
	(void)ctx;
	got_hup = 1;
	printf("reloading after signal %d\n", sig); // want "c.signal.unsafe-call"
}

/* Fixed twin: sets a flag and pokes the main loop. */
static void on_usr1(int sig)
{
	char c = 1;
	(void)sig;
	stop_requested = 1;
	(void)write(wake_pipe[1], &c, 1); // safe "c.signal.unsafe-call"
}

/* Not a handler: runs in the main loop, stdio is fine here. */
static void report_status(void)
{
	printf("hup=%d stop=%d\n", (int)got_hup, (int)stop_requested); // safe "c.signal.unsafe-call"
}

int setup_signals(void)
{
	struct sigaction sa;
	struct sigaction usr = { .sa_handler = on_usr1 };

	memset(&sa, 0, sizeof sa);
	sa.sa_sigaction = on_hup;
	sa.sa_flags = SA_SIGINFO;
	if (sigaction(SIGHUP, &sa, NULL) != 0)
		return -1;
	if (sigaction(SIGUSR1, &usr, NULL) != 0)
		return -1;
	signal(SIGTERM, on_term);
	signal(SIGINT, on_term_safe);
	signal(SIGQUIT, on_quit);
	signal(SIGPIPE, SIG_IGN);
	report_status();
	return 0;
}
