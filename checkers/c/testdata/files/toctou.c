/* Check-then-use races on paths. */
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

/* The classic setuid bug: access() checks the real user, open() runs later. */
int append_report(const char *path, const char *line)
{
	int fd;

	if (access(path, W_OK) != 0)
		return -1;
	fd = open(path, O_WRONLY | O_APPEND); // want "c.file.toctou"
	if (fd < 0)
		return -1;
	if (write(fd, line, 1) != 1) {
		close(fd);
		return -1;
	}
	return close(fd);
}

/* lstat to refuse symlinks, then fopen by name. */
FILE *open_regular(const char *path)
{
	struct stat st;

	if (lstat(path, &st) != 0 || !S_ISREG(st.st_mode))
		return NULL;
	return fopen(path, "r"); // want "c.file.toctou"
}

/* stat then chmod. */
int make_private(const char *path)
{
	struct stat st;

	if (stat(path, &st) < 0)
		return -1;
	if (st.st_uid != getuid())
		return -1;
	return chmod(path, 0600); // want "c.file.toctou"
}

/* Fixed: O_NOFOLLOW after lstat, O_EXCL after access. */
int open_regular_fd(const char *path)
{
	struct stat st;

	if (lstat(path, &st) != 0 || !S_ISREG(st.st_mode))
		return -1;
	return open(path, O_RDONLY | O_NOFOLLOW); // safe "c.file.toctou"
}

int create_new(const char *path)
{
	if (access(path, F_OK) == 0)
		return -1;
	return open(path, O_WRONLY | O_CREAT | O_EXCL, 0600); // safe "c.file.toctou"
}

/* Fixed: open first, then check the descriptor. */
int open_checked(const char *path)
{
	struct stat before, after;
	int fd;

	if (lstat(path, &before) != 0)
		return -1;
	fd = open(path, O_RDONLY); // safe "c.file.toctou"
	if (fd < 0 || fstat(fd, &after) != 0)
		return -1;
	if (before.st_ino != after.st_ino || before.st_dev != after.st_dev)
		return -1;
	return fd;
}

/* The path changed between the check and the use. */
int open_next(const char *a, const char *b)
{
	const char *path = a;
	struct stat st;

	if (stat(path, &st) == 0)
		path = b;
	return open(path, O_RDONLY); // safe "c.file.toctou"
}

/* Different paths. */
int copy_if_missing(const char *src, const char *dst)
{
	if (access(dst, F_OK) == 0)
		return 0;
	return open(src, O_RDONLY); // safe "c.file.toctou"
}

/* Informational stat() calls: the size before a read, an ignored result,
 * a value chosen either way. */
long file_size_then_read(const char *path, char *buf, long max)
{
	struct stat st;
	FILE *f;

	if (stat(path, &st) != 0)
		return -1;
	f = fopen(path, "rb"); // safe "c.file.toctou"
	if (!f)
		return -1;
	return (long)fread(buf, 1, st.st_size < max ? st.st_size : max, f);
}

int upload_size(const char *path)
{
	struct stat st;

	stat(path, &st);
	return open(path, O_RDONLY); // safe "c.file.toctou"
}

FILE *open_resume(const char *path, long *offset)
{
	struct stat st;

	if (stat(path, &st) == 0)
		*offset = st.st_size;
	else
		*offset = 0;
	return fopen(path, "ab"); // safe "c.file.toctou"
}

/* An existence check that decides to create: a symlink planted in
 * between redirects the write. */
FILE *create_if_missing(const char *path)
{
	struct stat st;

	if (stat(path, &st) == 0)
		return NULL;
	return fopen(path, "w"); // want "c.file.toctou"
}
