#include <stdio.h>
#include <string.h>
#include <pwd.h>
#include <dirent.h>
#include <dlfcn.h>
#include <sys/mman.h>

/* Flawed: results that are NULL on failure are used unchecked. */
int write_pid(const char *path, int pid)
{
	FILE *fp = fopen(path, "w");
	fprintf(fp, "%d\n", pid); // want "c.null.unchecked-return"
	return fclose(fp);
}

const char *home_of(const char *user)
{
	struct passwd *pw = getpwnam(user);
	return pw->pw_dir; // want "c.null.unchecked-return"
}

void strip_dir(char *path)
{
	*strrchr(path, '/') = '\0'; // want "c.null.unchecked-return"
}

void split_key(char *line)
{
	char *eq = strchr(line, '=');
	*eq = '\0'; // want "c.null.unchecked-return"
}

int count_entries(const char *dir)
{
	DIR *d = opendir(dir);
	int n = 0;
	while (readdir(d) != NULL) // want "c.null.unchecked-return"
		n++;
	closedir(d);
	return n;
}

typedef int (*init_fn)(void);

int load_plugin(const char *path)
{
	void *h = dlopen(path, RTLD_NOW);
	init_fn init = (init_fn)dlsym(h, "plugin_init");
	return init(); // want "c.null.unchecked-return"
}

void *map_file(int fd, size_t len)
{
	char *p = mmap(NULL, len, PROT_READ, MAP_PRIVATE, fd, 0);
	if (p == NULL) // want "c.null.unchecked-return"
		return NULL;
	return p;
}

char map_first(int fd, size_t len)
{
	char *p = mmap(NULL, len, PROT_READ, MAP_PRIVATE, fd, 0);
	return p[0]; // want "c.null.unchecked-return"
}

/* Fixed: every result is tested first. */
int write_pid_checked(const char *path, int pid)
{
	FILE *fp = fopen(path, "w");
	if (fp == NULL)
		return -1;
	fprintf(fp, "%d\n", pid); // safe "c.null.unchecked-return"
	return fclose(fp);
}

const char *home_checked(const char *user)
{
	struct passwd *pw = getpwnam(user);
	return pw ? pw->pw_dir : NULL; // safe "c.null.unchecked-return"
}

void split_checked(char *line)
{
	char *eq = strchr(line, '=');
	if (eq)
		*eq = '\0'; // safe "c.null.unchecked-return"
}

void *map_checked(int fd, size_t len)
{
	char *p = mmap(NULL, len, PROT_READ, MAP_PRIVATE, fd, 0);
	if (p == MAP_FAILED) // safe "c.null.unchecked-return"
		return NULL;
	p[0] = 0; // safe "c.null.unchecked-return"
	return p;
}

int count_checked(const char *dir)
{
	DIR *d = opendir(dir);
	int n = 0;
	if (!d)
		return -1;
	while (readdir(d) != NULL) // safe "c.null.unchecked-return"
		n++;
	closedir(d);
	return n;
}

/* A result that is only compared or stored is not used. */
int has_colon(const char *s)
{
	return strchr(s, ':') != NULL; // safe "c.null.unchecked-return"
}

/* The result is dereferenced on a path that never tests it. */
int ext_len(const char *name, int verbose)
{
	const char *dot = strchr(name, '.');
	if (verbose)
		return (int)strlen(dot); // want "c.null.unchecked-return"
	if (!dot)
		return 0;
	return (int)strlen(dot); // safe "c.null.unchecked-return"
}

int ext_first(const char *name, int verbose)
{
	const char *dot = strchr(name, '.');
	if (verbose)
		verbose++;
	else
		return dot[1]; // want "c.null.unchecked-return"
	return dot ? dot[1] : 0; // safe "c.null.unchecked-return"
}

/* A result tested or compared in a condition is not dereferenced. */
int has_colon(const char *s)
{
	if (strchr(s, ':')) // safe "c.null.unchecked-return"
		return 1;
	while (strstr(s, "ab") != NULL) // safe "c.null.unchecked-return"
		s += 2;
	return 0;
}

int colon_next(const char *s)
{
	if (strchr(s, ':')[1] == 'x') // want "c.null.unchecked-return"
		return 1;
	if (strlen(strchr(s, ';')) > 2) // want "c.null.unchecked-return"
		return 2;
	return 0;
}

int print_sep(const char *ip, char *buf, int n)
{
	return snprintf(buf, n, strchr(ip, ':') ? "[%s]" : "%s", ip); // safe "c.null.unchecked-return"
}
