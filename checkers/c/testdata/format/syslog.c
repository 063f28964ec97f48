#include <stdarg.h>
#include <stdio.h>
#include <syslog.h>

/* Flawed: a client-supplied string logged as the format. */
void log_request(int fd)
{
	char req[512];
	ssize_t n = recv(fd, req, sizeof req - 1, 0);

	if (n <= 0)
		return;
	req[n] = '\0';
	syslog(LOG_INFO, req); // want "c.format.syslog"
	syslog(LOG_INFO, "request: %s", req); // safe "c.format.syslog"
}

/* Flawed: a parameter logged as the format. */
void audit(const char *event)
{
	syslog(LOG_NOTICE | LOG_AUTH, event); // want "c.format.syslog"
}

/* Fixed twin. */
void audit_fixed(const char *event)
{
	syslog(LOG_NOTICE | LOG_AUTH, "%s", event); // safe "c.format.syslog"
}

/* Fixed: a variadic logging wrapper. */
void log_msg(int prio, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsyslog(prio, fmt, ap); // safe "c.format.syslog"
	va_end(ap);
}

/* Comments, strings and dead code stay silent. */
void quiet_syslog(const char *msg)
{
	/* syslog(LOG_ERR, msg); */
	puts("never write syslog(LOG_ERR, msg);");
#if 0
	syslog(LOG_ERR, msg);
#endif
}
