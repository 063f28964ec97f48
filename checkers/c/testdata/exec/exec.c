/* exec-family and posix_spawn calls. */
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

extern char **environ;

/* The program itself comes from the command line. */
int main(int argc, char **argv)
{
	if (argc < 2)
		return 1;
	execvp(argv[1], argv + 1); // want "c.exec.exec"
	return 127;
}

/* A program named by the environment. */
void launch_pager(const char *file)
{
	const char *pager = getenv("PAGER");

	if (!pager)
		pager = "less";
	execlp(pager, pager, file, (char *)NULL); // want "c.exec.exec"
}

/* A shell with -c and a command built from input. */
void run_filter(const char *pattern)
{
	char cmd[512];

	snprintf(cmd, sizeof cmd, "sort | grep %s", pattern);
	execl("/bin/sh", "sh", "-c", cmd, (char *)NULL); // want "c.exec.exec"
}

/* The same through an argument vector and posix_spawn. */
int spawn_script(const char *script_line)
{
	pid_t pid;
	char *args[] = {"sh", "-c", NULL, NULL};

	args[2] = (char *)script_line;
	return posix_spawn(&pid, "/bin/sh", NULL, NULL, args, environ); // want "c.exec.exec"
}

int spawn_stdin_cmd(char *line)
{
	pid_t pid;
	char *args[4];

	if (read(0, line, 200) <= 0)
		return -1;
	args[0] = "bash";
	args[1] = "-c";
	args[2] = line;
	args[3] = NULL;
	return posix_spawnp(&pid, args[0], NULL, NULL, args, environ); // want "c.exec.exec"
}

/* A fixed program with its argument as an argv entry: not shell-parsed. */
void compress_file(const char *path)
{
	execl("/usr/bin/gzip", "gzip", "-9", path, (char *)NULL); // safe "c.exec.exec"
}

void list_dir(char *dir)
{
	char *args[] = {"ls", "-l", dir, NULL};

	execv("/bin/ls", args); // safe "c.exec.exec"
}

/* A shell with a constant command. */
void flush_caches(void)
{
	execl("/bin/sh", "sh", "-c", "sync; echo 3 > /proc/sys/vm/drop_caches", (char *)NULL); // safe "c.exec.exec"
}

/* A shell whose command only splices a number. */
void renice_self(int prio)
{
	char cmd[64];

	snprintf(cmd, sizeof cmd, "renice -n %d -p $$", prio);
	execl("/bin/sh", "sh", "-c", cmd, (char *)NULL); // safe "c.exec.exec"
}

/* A program path chosen among constants. */
void run_tool(int legacy)
{
	const char *tool = legacy ? "/usr/bin/oldtool" : "/usr/bin/newtool";

	execl(tool, tool, "--check", (char *)NULL); // safe "c.exec.exec"
}

/* A shell named by a build-time macro, with a formatted command. */
void show_manual(const char *viewer, const char *page)
{
	char cmd[256];

	snprintf(cmd, sizeof cmd, "%s %s", viewer, page);
	execl(SHELL_PATH, SHELL_PATH, "-c", cmd, (char *)NULL); // want "c.exec.exec"
}

/* A constant program named by a macro. */
void run_gc(void)
{
	execl(GC_HELPER, GC_HELPER, "--auto", (char *)NULL); // safe "c.exec.exec"
}
