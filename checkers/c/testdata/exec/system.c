/* Command execution through the shell: system() and popen(). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define ARCHIVE_DIR "/var/backups"

struct job {
	char name[64];
	int id;
};

/* argv goes straight into the shell. */
int main(int argc, char **argv)
{
	char cmd[512];

	if (argc < 2)
		return 1;
	snprintf(cmd, sizeof cmd, "tar czf " ARCHIVE_DIR "/%s.tgz /srv/data", argv[1]);
	system(cmd); // want "c.exec.system"
	system(argv[2]); // want "c.exec.system"
	system("sync"); // safe "c.exec.system"
	return 0;
}

/* The environment is input too; strcat keeps the earlier literal part. */
void run_editor(const char *file)
{
	char line[1024];
	const char *editor = getenv("EDITOR");

	if (!editor)
		editor = "vi";
	strlcpy(line, editor, sizeof line);
	strlcat(line, " ", sizeof line);
	strlcat(line, file, sizeof line);
	system(line); // want "c.exec.system"
}

/* A line read from stdin, run with popen. */
void run_query_tool(void)
{
	char input[256], cmd[300];
	FILE *out;

	if (!fgets(input, sizeof input, stdin))
		return;
	snprintf(cmd, sizeof cmd, "grep -F '%s' /var/log/app.log", input);
	out = popen(cmd, "r"); // want "c.exec.system"
	if (out)
		pclose(out);
}

/* A wrapper: the caller decides; still reported, at lower confidence. */
int run_hook(const char *hook)
{
	return system(hook); // want "c.exec.system"
}

/* Numbers cannot inject anything: %d of a pid is safe. */
void kill_worker(int pid)
{
	char cmd[64];

	snprintf(cmd, sizeof cmd, "kill -TERM %d", pid);
	system(cmd); // safe "c.exec.system"
}

/* A command chosen among constants. */
void restart(int hard)
{
	const char *cmd = hard ? "systemctl restart app" : "systemctl reload app";

	system(cmd); // safe "c.exec.system"
}

/* A buffer filled only with literals. */
void cleanup(void)
{
	char cmd[128];

	strlcpy(cmd, "rm -rf ", sizeof cmd);
	strlcat(cmd, "/tmp/app-cache", sizeof cmd);
	system(cmd); // safe "c.exec.system"
}

/* curl/wget command lines built from input: SSRF through the shell. */
void fetch_update(const char *server)
{
	char cmd[512];

	snprintf(cmd, sizeof cmd, "curl -s -o /tmp/update.bin %s/latest", server);
	system(cmd); // want "c.ssrf.fetch-command"
}

int mirror(int argc, char **argv, FILE *list)
{
	char url[256], cmd[512];

	(void)argc;
	(void)argv;
	while (fgets(url, sizeof url, list)) {
		snprintf(cmd, sizeof cmd, "cd /srv/mirror && wget -q '%s'", url);
		if (system(cmd) != 0) // want "c.ssrf.fetch-command"
			return -1;
	}
	return 0;
}

/* A URL from the environment appended to a wget command, read with popen. */
FILE *open_feed(void)
{
	char cmd[1024];
	const char *feed = getenv("FEED_URL");

	if (!feed)
		return NULL;
	strlcpy(cmd, "wget -qO- ", sizeof cmd);
	strlcat(cmd, feed, sizeof cmd);
	return popen(cmd, "r"); // want "c.ssrf.fetch-command"
}

/* A fixed URL with a numeric parameter is neither. */
void fetch_page(int page)
{
	char cmd[256];

	snprintf(cmd, sizeof cmd, "curl -s https://status.example.com/page/%d", page);
	system(cmd); // safe "c.ssrf.fetch-command" safe "c.exec.system"
}

/* Names that are not calls, and calls in comments, strings and dead code. */
struct platform {
	int (*system)(const char *);
};

void quiet(struct platform *pl, const char *arg)
{
	/* system(arg); */
	const char *doc = "never call system(arg) with user data";
#if 0
	system(arg);
#endif
	pl->system(doc); // safe "c.exec.system"
}
