/* Array indexes that come from the command line, a scanned number or a
 * received packet. */
#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#define NSLOTS 16

static const char *level_names[8] = {
	"emerg", "alert", "crit", "err", "warning", "notice", "info", "debug",
};

struct pkt_header {
	unsigned short type;
	unsigned short len;
};

static int handlers[NSLOTS];
static int byte_class[256];

int main(int argc, char **argv)
{
	int slot;
	if (argc < 3)
		return 1;
	slot = atoi(argv[1]); // want "c.input.atoi"
	handlers[slot] = 1; // want "c.input.index"
	printf("%s\n", level_names[atoi(argv[2])]); // want "c.input.index" "c.input.atoi"
	return 0;
}

int read_slot(void)
{
	int slot;
	if (scanf("%d", &slot) != 1)
		return -1;
	return handlers[slot]; // want "c.input.index"
}

int checked_slot(void)
{
	int slot;
	if (scanf("%d", &slot) != 1)
		return -1;
	if (slot < 0 || slot >= NSLOTS)
		return -1;
	return handlers[slot]; // safe "c.input.index"
}

int dispatch(int fd)
{
	struct pkt_header hdr;
	unsigned char body[64];
	if (recv(fd, &hdr, sizeof hdr, 0) != (long)sizeof hdr)
		return -1;
	if (recv(fd, body, sizeof body, 0) <= 0)
		return -1;
	handlers[ntohs(hdr.type)]++; // want "c.input.index"
	return byte_class[body[0]]; // safe "c.input.index"
}

int masked(const char *arg)
{
	long v = strtol(arg, NULL, 10);
	return handlers[v & (NSLOTS - 1)]; // safe "c.input.index"
}

int from_env(void)
{
	const char *s = getenv("SLOT");
	long v;
	if (s == NULL)
		return 0;
	v = strtol(s, NULL, 10);
	if (v >= NSLOTS)
		return 0;
	return handlers[v]; // safe "c.input.index"
}

/* A caller's index is not program input here: the caller decides. */
int slot_value(int slot)
{
	int n = atoi("3");
	return handlers[slot] + n; // safe "c.input.index"
}

/* %n stores how many characters were consumed: bounded by the width. */
void read_word(FILE *fp)
{
	char word[64];
	int n = 0;
	if (fscanf(fp, "%63s%n", word, &n) == 1)
		word[n] = '\0'; // safe "c.input.index"
}
