/* Saving a state file atomically (or trying to). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct state {
	char path[256];
	char tmp[256];
	int version;
};

/* Flawed: every step's result is dropped. */
void state_save(const struct state *st, const char *data, size_t len)
{
	int fd = open(st->tmp, O_WRONLY | O_CREAT | O_TRUNC, 0600);

	if (fd < 0)
		return;
	write(fd, data, len); // want "c.errors.unchecked-io"
	fsync(fd); // want "c.errors.unchecked-io"
	close(fd);
	rename(st->tmp, st->path); // want "c.errors.unchecked-io"
}

/* Fixed twin: short writes and failures are handled. */
int state_save_fixed(const struct state *st, const char *data, size_t len)
{
	int fd = open(st->tmp, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	ssize_t n;

	if (fd < 0)
		return -1;
	while (len > 0) {
		n = write(fd, data, len); // safe "c.errors.unchecked-io"
		if (n < 0) {
			close(fd);
			return -1;
		}
		data += n;
		len -= (size_t)n;
	}
	if (fsync(fd) != 0) { // safe "c.errors.unchecked-io"
		close(fd);
		return -1;
	}
	close(fd);
	return rename(st->tmp, st->path); // safe "c.errors.unchecked-io"
}

/* Flawed: the header is read without checking how much arrived. */
int state_load(struct state *st, FILE *f)
{
	char magic[4];

	fread(magic, 1, sizeof magic, f); // want "c.errors.unchecked-io"
	fseek(f, 16, SEEK_SET); // want "c.errors.unchecked-io"
	if (memcmp(magic, "STv1", 4) != 0)
		return -1;
	if (fread(&st->version, sizeof st->version, 1, f) != 1) // safe "c.errors.unchecked-io"
		return -1;
	return 0;
}

/* Flawed: the working directory and spool directory are assumed. */
void enter_spool(const char *dir)
{
	mkdir(dir, 0700); // want "c.errors.unchecked-io"
	chdir(dir); // want "c.errors.unchecked-io"
}

/* Deliberate: ignored on purpose, and diagnostics to stderr. */
void cleanup(const struct state *st)
{
	(void)unlink(st->tmp); // safe "c.errors.unchecked-io"
	fwrite("cleaned\n", 1, 8, stderr); // safe "c.errors.unchecked-io"
	write(STDERR_FILENO, "bye\n", 4); // safe "c.errors.unchecked-io"
	fflush(stdout); // safe "c.errors.unchecked-io"
	unlink(st->path); // safe "c.errors.unchecked-io"
}

/* Flawed: if the unlink fails (a symlink an attacker planted in a shared
 * directory), open() without O_EXCL follows it. */
int write_pidfile(const char *path, int pid)
{
	char buf[32];
	int fd, n;

	unlink(path); // want "c.errors.unchecked-io"
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		return -1;
	n = snprintf(buf, sizeof buf, "%d\n", pid);
	if (write(fd, buf, (size_t)n) != n) {
		close(fd);
		return -1;
	}
	return close(fd);
}

/* Fixed twin: a missing file is fine, any other failure is not. */
int write_pidfile_fixed(const char *path, int pid)
{
	char buf[32];
	int fd, n;

	if (unlink(path) != 0 && errno != ENOENT) // safe "c.errors.unchecked-io"
		return -1;
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0644);
	if (fd < 0)
		return -1;
	n = snprintf(buf, sizeof buf, "%d\n", pid);
	if (write(fd, buf, (size_t)n) != n) {
		close(fd);
		return -1;
	}
	return close(fd);
}

/* Fixed twin: stdio errors are sticky and checked once at the end. */
int state_dump(const struct state *st, FILE *out)
{
	fwrite(st->path, 1, strlen(st->path), out); // safe "c.errors.unchecked-io"
	fwrite("\n", 1, 1, out);
	return ferror(out) ? -1 : 0;
}

/* Flawed: the stream is never checked. */
void state_print(const struct state *st, FILE *out)
{
	fwrite(st->path, 1, strlen(st->path), out); // want "c.errors.unchecked-io"
}

/* Cleanup on the way out of a failure is best effort. */
int state_replace(const struct state *st)
{
	if (rename(st->tmp, st->path) != 0) {
		unlink(st->tmp); // safe "c.errors.unchecked-io"
		return -1;
	}
	return 0;
}

/* Quiet: comments, strings, dead code. */
void quiet(int fd)
{
	/* write(fd, "x", 1); */
	const char *doc = "write(fd, buf, len);";
#if 0
	write(fd, doc, 1);
#endif
	(void)doc;
	(void)fd;
}
