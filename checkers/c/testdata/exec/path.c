/* File names taken from input. */
#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#define UPLOAD_DIR "/srv/uploads"

/* A file server: the requested name comes from the socket. */
int serve_file(int client)
{
	char req[256], path[512];
	ssize_t n = recv(client, req, sizeof req - 1, 0);
	int fd;

	if (n <= 0)
		return -1;
	req[n] = '\0';
	snprintf(path, sizeof path, "%s/%s", UPLOAD_DIR, req);
	fd = open(path, O_RDONLY); // want "c.path.traversal"
	return fd;
}

/* Deleting a file named on stdin. */
void delete_upload(void)
{
	char name[128], path[PATH_MAX];

	if (!fgets(name, sizeof name, stdin))
		return;
	name[strcspn(name, "\n")] = '\0';
	strlcpy(path, UPLOAD_DIR "/", sizeof path);
	strlcat(path, name, sizeof path);
	if (unlink(path) != 0) // want "c.path.traversal"
		perror(path);
}

/* A CGI program: PATH_INFO is part of the request. */
FILE *cgi_open(void)
{
	char path[1024];
	const char *info = getenv("PATH_INFO");

	if (!info)
		return NULL;
	snprintf(path, sizeof path, "/var/www/data%s", info);
	return fopen(path, "r"); // want "c.path.traversal"
}

/* A command-line name joined under a fixed directory: lower confidence. */
int main(int argc, char **argv)
{
	char path[512];

	if (argc < 2)
		return 1;
	snprintf(path, sizeof path, "/var/lib/app/profiles/%s.conf", argv[1]);
	return remove(path); // want "c.path.traversal"
}

/* The user names the whole path (argv, the environment): their own file. */
DIR *open_spool(void)
{
	const char *spool = getenv("SPOOL_DIR");

	if (!spool)
		spool = "/var/spool/app";
	return opendir(spool); // safe "c.path.traversal"
}

FILE *open_user_config(void)
{
	char path[512];
	const char *home = getenv("HOME");

	if (!home)
		return NULL;
	snprintf(path, sizeof path, "%s/.apprc", home);
	return fopen(path, "r"); // safe "c.path.traversal"
}

/* realpath() without a prefix check does not confine anything. */
FILE *open_resolved(void)
{
	char name[256], resolved[PATH_MAX];

	if (scanf("%255s", name) != 1)
		return NULL;
	if (!realpath(name, resolved))
		return NULL;
	return fopen(resolved, "r"); // want "c.path.traversal"
}

/* Rejecting ".." and '/' before use. */
int serve_file_checked(int client)
{
	char req[256], path[512];
	ssize_t n = recv(client, req, sizeof req - 1, 0);

	if (n <= 0)
		return -1;
	req[n] = '\0';
	if (strstr(req, "..") || strchr(req, '/'))
		return -1;
	snprintf(path, sizeof path, "%s/%s", UPLOAD_DIR, req);
	return open(path, O_RDONLY); // safe "c.path.traversal"
}

/* realpath() plus a prefix check. */
FILE *open_confined(void)
{
	char name[256], resolved[PATH_MAX];

	if (scanf("%255s", name) != 1)
		return NULL;
	if (!realpath(name, resolved))
		return NULL;
	if (strncmp(resolved, UPLOAD_DIR "/", sizeof(UPLOAD_DIR)) != 0)
		return NULL;
	return fopen(resolved, "r"); // safe "c.path.traversal"
}

/* basename() keeps only the last component. */
int store_named(int client, const char *data, size_t len)
{
	char req[256], path[512];
	ssize_t n = recv(client, req, sizeof req - 1, 0);
	FILE *f;

	if (n <= 0)
		return -1;
	req[n] = '\0';
	snprintf(path, sizeof path, UPLOAD_DIR "/%s", basename(req));
	f = fopen(path, "w"); // safe "c.path.traversal"
	if (!f)
		return -1;
	fwrite(data, 1, len, f);
	return fclose(f);
}

/* A parameter alone is not evidence of input. */
int load_config(const char *path)
{
	struct stat st;

	return stat(path, &st); // safe "c.path.traversal"
}

/* A fixed path and a number. */
int open_log(int day)
{
	char path[64];

	snprintf(path, sizeof path, "/var/log/app.%d", day);
	return open(path, O_WRONLY | O_APPEND); // safe "c.path.traversal"
}
