#include <stdio.h>
#include <stdint.h>
#include <inttypes.h>
#include <string.h>

#define NAME_LEN 32

struct session {
	char id[16];
	char user[NAME_LEN];
};

/* Flawed: a %s of a command-line argument into a fixed buffer. */
int main(int argc, char **argv)
{
	char greeting[64];

	if (argc < 2)
		return 1;
	sprintf(greeting, "Hello, %s!", argv[1]); // want "c.buffer.sprintf"
	puts(greeting);
	return 0;
}

/* Flawed: two 32-bit integers need up to 24 bytes. */
void format_pair(int a, int b)
{
	char buf[16];

	sprintf(buf, "%d,%d", a, b); // want "c.buffer.sprintf"
	puts(buf);
}

/* Fixed twin: the same format into a buffer large enough. */
void format_pair_fixed(int a, int b)
{
	char buf[24];

	sprintf(buf, "%d,%d", a, b); // safe "c.buffer.sprintf"
	puts(buf);
}

/* Flawed: a 64-bit value printed with PRIu64 into 16 bytes. */
void format_offset(uint64_t off)
{
	char num[16];

	sprintf(num, "off=%" PRIu64, off); // want "c.buffer.sprintf"
	puts(num);
}

/* Fixed: precision bounds the string, and the field holds the rest. */
void format_session(struct session *s, const char *user)
{
	char line[48];

	sprintf(line, "user=%.20s id=%08x", user, 42u); // safe "c.buffer.sprintf"
	sprintf(s->id, "%x", 7u); // safe "c.buffer.sprintf"
	sprintf(s->id, "session-%s", user); // want "c.buffer.sprintf"
	puts(line);
}

/* Fixed: a %s of an array that fits. */
void copy_user(struct session *s)
{
	char label[40];

	sprintf(label, "[%s]", s->user); // safe "c.buffer.sprintf"
	puts(label);
}

/* Flawed: vsprintf of a caller's format into a fixed buffer. */
void log_msg(const char *fmt, va_list ap)
{
	char msg[128];

	vsprintf(msg, fmt, ap); // want "c.buffer.sprintf"
	fputs(msg, stderr);
}

/* Fixed: the size-taking form. */
void log_msg_fixed(const char *fmt, va_list ap)
{
	char msg[128];

	vsnprintf(msg, sizeof msg, fmt, ap); // safe "c.buffer.sprintf"
	fputs(msg, stderr);
}

/* Comments and strings do not count. */
void quiet(void)
{
	/* sprintf(buf, "%s", argv[1]); */
	puts("use snprintf, not sprintf");
}

/* Flawed: INT64_MIN needs 20 characters and the NUL. */
int format_id(char *out, long long id)
{
	char buf[20];
	int n = sprintf(buf, "%lld", id); // want "c.buffer.sprintf"

	memcpy(out, buf, n);
	return n;
}

/* %f prints every integer digit: a small buffer overflows for large values. */
void format_ratio(double ratio, double total)
{
	char small[16];
	char big[64];

	sprintf(small, "%f", total); // want "c.buffer.sprintf"
	sprintf(big, "%.2f%%", ratio); // safe "c.buffer.sprintf"
	puts(small);
	puts(big);
}

/* Fixed: a format this function builds itself (from bounded pieces). */
void format_number(double v)
{
	char form[16];
	char buff[512];

	build_format(form, sizeof form);
	sprintf(buff, form, v); // safe "c.buffer.sprintf"
	puts(buff);
}
