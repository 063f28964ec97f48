/* Loop bounds and allocation sizes read from a file, a socket or argv. */
#include <arpa/inet.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_RECORDS 4096
#define MAX_FRAME (1 << 20)

struct record {
	int id;
	char name[32];
};

int fill(struct record *r, int i);

int load_records(FILE *fp)
{
	int count, i;
	struct record *recs;
	if (fscanf(fp, "%d", &count) != 1 || count <= 0)
		return -1;
	recs = calloc(count, sizeof(*recs)); // want "c.dos.unbounded-alloc"
	if (recs == NULL)
		return -1;
	for (i = 0; i < count; i++) // want "c.dos.unbounded-loop"
		fill(&recs[i], i);
	free(recs);
	return 0;
}

int load_records_checked(FILE *fp)
{
	int count, i;
	struct record *recs;
	if (fscanf(fp, "%d", &count) != 1 || count <= 0 || count > MAX_RECORDS)
		return -1;
	recs = calloc(count, sizeof(*recs)); // safe "c.dos.unbounded-alloc"
	if (recs == NULL)
		return -1;
	for (i = 0; i < count; i++) // safe "c.dos.unbounded-loop"
		fill(&recs[i], i);
	free(recs);
	return 0;
}

int read_frame(int fd, unsigned char **out)
{
	uint32_t len;
	unsigned char *buf;
	if (read(fd, &len, sizeof len) != (ssize_t)sizeof len)
		return -1;
	len = ntohl(len);
	buf = malloc(len + 1); // want "c.dos.unbounded-alloc"
	if (buf == NULL)
		return -1;
	*out = buf;
	return (int)len;
}

int read_frame_checked(int fd, unsigned char **out)
{
	uint32_t len;
	unsigned char *buf;
	if (read(fd, &len, sizeof len) != (ssize_t)sizeof len)
		return -1;
	len = ntohl(len);
	if (len > MAX_FRAME)
		return -1;
	buf = malloc(len + 1); // safe "c.dos.unbounded-alloc"
	if (buf == NULL)
		return -1;
	*out = buf;
	return (int)len;
}

int main(int argc, char **argv)
{
	unsigned long n, i;
	char *scratch;
	if (argc < 2)
		return 1;
	n = strtoul(argv[1], NULL, 10);
	scratch = malloc(n); // want "c.dos.unbounded-alloc"
	if (scratch == NULL)
		return 1;
	memset(scratch, 0, n);
	free(scratch);
	while (n-- > 0) // want "c.dos.unbounded-loop"
		usleep(10);
	for (i = 0; i < n && i < MAX_RECORDS; i++) // safe "c.dos.unbounded-loop"
		usleep(10);
	return 0;
}

void drain(FILE *fp)
{
	int n, i;
	if (fscanf(fp, "%d", &n) != 1)
		return;
	for (i = 0; i < n; i++) { // safe "c.dos.unbounded-loop"
		if (i >= MAX_RECORDS)
			break;
		fgetc(fp);
	}
}

/* A bound from a parameter or a constant is the caller's business. */
void repeat(int times)
{
	int i;
	int k = atoi("4");
	for (i = 0; i < times * k; i++) // safe "c.dos.unbounded-loop"
		usleep(1);
}

/* Input read into one member says nothing of the others. */
struct pipe_state {
	char *buf;
	long len;
	int nconns;
};
struct pipe_state pipe_state;
void pipe_close(int i);

void pipe_read(int fd)
{
	int i;
	pipe_state.len = read(fd, pipe_state.buf, 4096);
	if (pipe_state.len <= 0)
		return;
	for (i = 0; i < pipe_state.nconns; i++) // safe "c.dos.unbounded-loop"
		pipe_close(i);
}

void pipe_count(int fd)
{
	int i;
	if (read(fd, &pipe_state.nconns, sizeof pipe_state.nconns) != sizeof pipe_state.nconns)
		return;
	for (i = 0; i < pipe_state.nconns; i++) // want "c.dos.unbounded-loop"
		pipe_close(i);
}
