/* Permission modes. */
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#define SHARED_MODE 0666

int publish(const char *path)
{
	return chmod(path, 0777); // want "c.file.permissive-mode"
}

int share_socket(int fd)
{
	return fchmod(fd, S_IRWXU | S_IRWXG | S_IRWXO); // want "c.file.permissive-mode"
}

int share_file(const char *path)
{
	mode_t mode = S_IRUSR | S_IWUSR | S_IROTH | S_IWOTH;

	return chmod(path, mode); // want "c.file.permissive-mode"
}

/* A daemon that clears its umask and then creates files. */
int daemon_setup(const char *pidfile)
{
	int fd;

	umask(0); // want "c.file.permissive-mode"
	fd = open(pidfile, O_WRONLY | O_CREAT | O_TRUNC, 0666); // want "c.file.permissive-mode"
	if (fd < 0)
		return -1;
	if (mkdir("/var/run/app", 0777) != 0) // want "c.file.permissive-mode"
		return -1;
	return mkfifo("/var/run/app/ctl", SHARED_MODE); // want "c.file.permissive-mode"
}

/* Safe modes. */
int protect(const char *path)
{
	return chmod(path, 0644); // safe "c.file.permissive-mode"
}

int protect_fd(int fd)
{
	return fchmod(fd, S_IRUSR | S_IWUSR); // safe "c.file.permissive-mode"
}

int private_umask(void)
{
	umask(077); // safe "c.file.permissive-mode"
	return umask(S_IWGRP | S_IWOTH); // safe "c.file.permissive-mode"
}

/* Opened without O_CREAT: the mode argument is ignored. */
int reopen(const char *path)
{
	return open(path, O_RDWR, 0666); // safe "c.file.permissive-mode"
}

int group_writable(const char *path)
{
	return chmod(path, 0664 & ~S_IWOTH); // safe "c.file.permissive-mode"
}

/* Reading the umask: set it to 0 and put the old value back at once. */
mode_t current_umask(void)
{
	mode_t old = umask(0); // safe "c.file.permissive-mode"

	umask(old);
	return old;
}

/* A mode named by a macro that looks like a variable: the triage must find
 * its #define (a lone variable would count only if assigned before). */
#define shared_perms 0666
#define private_perms 0600

int publish_shared(const char *path)
{
	return chmod(path, shared_perms); // want "c.file.permissive-mode"
}

int publish_private(const char *path)
{
	return chmod(path, private_perms); // safe "c.file.permissive-mode"
}
