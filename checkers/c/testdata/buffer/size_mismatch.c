#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>

#define LINE_MAX_LEN 128
#define HDR_LEN 16

struct packet {
	unsigned char hdr[HDR_LEN];
	unsigned char body[512];
};

static char g_line[64];

/* Flawed: the size is not the buffer's. */
int read_config(FILE *f)
{
	char line[64];

	while (fgets(line, LINE_MAX_LEN, f) != NULL) { // want "c.buffer.size-mismatch"
		parse_line(line);
	}
	if (fgets(g_line, 128, f) == NULL) // want "c.buffer.size-mismatch"
		return -1;
	return 0;
}

/* Fixed twin: sizeof the destination itself. */
int read_config_fixed(FILE *f)
{
	char line[64];

	while (fgets(line, sizeof line, f) != NULL) { // safe "c.buffer.size-mismatch"
		parse_line(line);
	}
	return 0;
}

/* Flawed: sizeof the (larger) source. */
void copy_header(struct packet *pkt, const unsigned char body[512])
{
	unsigned char hdr[HDR_LEN];
	unsigned char raw[32];

	memcpy(hdr, raw, sizeof raw); // want "c.buffer.size-mismatch"
	memcpy(pkt->hdr, pkt->body, sizeof(pkt->body)); // want "c.buffer.size-mismatch"
	memcpy(pkt->hdr, raw, sizeof(pkt->hdr)); // safe "c.buffer.size-mismatch"
	memset(hdr, 0, 2 * HDR_LEN); // want "c.buffer.size-mismatch"
	memset(hdr + 4, 0, HDR_LEN); // want "c.buffer.size-mismatch"
	memset(hdr + 4, 0, HDR_LEN - 4); // safe "c.buffer.size-mismatch"
}

/* Flawed: a socket read larger than its buffer. */
int recv_reply(int fd)
{
	char reply[256];
	ssize_t n;

	n = recv(fd, reply, 1024, 0); // want "c.buffer.size-mismatch"
	if (n <= 0)
		return -1;
	n = read(fd, reply, sizeof(reply)); // safe "c.buffer.size-mismatch"
	return (int)n;
}

/* Flawed: fread's element size times its count. */
int load_table(FILE *f)
{
	int table[16];

	if (fread(table, sizeof(int), 32, f) != 32) // want "c.buffer.size-mismatch"
		return -1;
	if (fread(table, sizeof(int), 16, f) != 16) // safe "c.buffer.size-mismatch"
		return -1;
	return table[0];
}

/* Flawed: a heap buffer of 32 bytes filled with 64. */
char *make_token(void)
{
	char *tok = malloc(32);

	if (tok == NULL)
		return NULL;
	memset(tok, 'A', 64); // want "c.buffer.size-mismatch"
	return tok;
}

/* Fixed: a two-dimensional array row. */
void clear_rows(void)
{
	char names[8][32];
	int i;

	for (i = 0; i < 8; i++)
		memset(names[i], 0, sizeof names[i]); // safe "c.buffer.size-mismatch"
	memset(names, 0, sizeof names); // safe "c.buffer.size-mismatch"
	snprintf(names[0], 64, "%d", i); // want "c.buffer.size-mismatch"
}

/* Comments, strings and dead code stay silent. */
void quiet_fgets(FILE *f)
{
	char line[64];
	/* fgets(line, 128, f); */
	puts("never write fgets(line, 128, f);");
#if 0
	fgets(line, 128, f);
#endif
}

/* sizeof counts bytes; a wide call counts characters. */
#include <wchar.h>
void copy_wide(const wchar_t *src)
{
	wchar_t w[10];
	wcsncpy(w, src, sizeof(w)); // want "c.buffer.size-mismatch" "c.buffer.strncpy-nul"
	wputs(w);
}

/* A size that leaves room is never too large. */
void format_tail(double d)
{
	char dbuf[32];
	memcpy(dbuf, "(double)", 7);
	snprintf(dbuf + 7, sizeof(dbuf) - 7, "%.17g", d); // safe "c.buffer.size-mismatch"
	memset(dbuf, 0, sizeof(dbuf) - 1); // safe "c.buffer.size-mismatch"
	memset(&dbuf[4], 0, sizeof dbuf - 4); // safe "c.buffer.size-mismatch"
	puts(dbuf);
}
