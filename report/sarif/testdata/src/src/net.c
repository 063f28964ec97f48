#include <stdio.h>
#include <string.h>

/* Reads one request line into a fixed buffer. */
void read_request(char *out) {
	char line[64];
	gets(line);
	strcpy(out, line);
}

void log_request(const char *req) {
	char msg[32];
	sprintf(msg, "req=%s", req); /* jsec:ignore c.buffer.sprintf -- req is at most 16 bytes */
	puts(msg);
}
