/* Windows process creation. */
#include <windows.h>
#include <shellapi.h>
#include <stdio.h>
#include <stdlib.h>

/* The document to open comes from the command line. */
int wmain(int argc, wchar_t **argv)
{
	if (argc < 2)
		return 1;
	ShellExecuteW(NULL, L"open", argv[1], NULL, NULL, SW_SHOWNORMAL); // want "c.exec.windows"
	ShellExecuteW(NULL, L"open", L"notepad.exe", argv[1], NULL, SW_SHOWNORMAL); // want "c.exec.windows"
	ShellExecuteW(NULL, L"open", L"https://example.com/help", NULL, NULL, SW_SHOWNORMAL); // safe "c.exec.windows"
	return 0;
}

/* A command line formatted from the environment, no application name. */
BOOL start_helper(PROCESS_INFORMATION *pi)
{
	STARTUPINFOA si = {sizeof(si)};
	char cmdline[MAX_PATH * 2];
	const char *opts = getenv("HELPER_OPTS");

	if (!opts)
		opts = "";
	snprintf(cmdline, sizeof cmdline, "helper.exe --daemon %s", opts);
	return CreateProcessA(NULL, cmdline, NULL, NULL, FALSE, 0, NULL, NULL, &si, pi); // want "c.exec.windows"
}

/* The whole command line comes from a pipe. */
BOOL run_remote_command(HANDLE pipe, PROCESS_INFORMATION *pi)
{
	STARTUPINFOA si = {sizeof(si)};
	char cmdline[1024];
	DWORD got;

	if (!ReadFile(pipe, cmdline, sizeof cmdline - 1, &got, NULL))
		return FALSE;
	cmdline[got] = '\0';
	if (!fgets(cmdline, sizeof cmdline, stdin))
		return FALSE;
	return CreateProcessA(NULL, cmdline, NULL, NULL, FALSE, 0, NULL, NULL, &si, pi); // want "c.exec.windows"
}

/* cmd.exe /c with a parameter. */
void run_batch(const char *script, PROCESS_INFORMATION *pi)
{
	STARTUPINFOA si = {sizeof(si)};
	char line[1024];

	snprintf(line, sizeof line, "/c \"%s\"", script);
	CreateProcessA("C:\\Windows\\System32\\cmd.exe", line, NULL, NULL, FALSE, 0, NULL, NULL, &si, pi); // want "c.exec.windows"
}

/* WinExec is a shell-style command line. */
void legacy_launch(const char *target)
{
	char cmd[260];

	snprintf(cmd, sizeof cmd, "rundll32.exe url.dll,FileProtocolHandler %s", target);
	WinExec(cmd, SW_SHOW); // want "c.exec.windows"
}

/* ShellExecuteEx with fields set from input. */
BOOL open_attachment(HWND hwnd)
{
	SHELLEXECUTEINFOA sei = {sizeof(sei)};
	char name[MAX_PATH];

	if (!fgets(name, sizeof name, stdin))
		return FALSE;
	sei.hwnd = hwnd;
	sei.lpVerb = "open";
	sei.lpFile = name;
	sei.nShow = SW_SHOW;
	return ShellExecuteExA(&sei); // want "c.exec.windows"
}

/* Fixed programs and command lines. */
BOOL start_service_tool(PROCESS_INFORMATION *pi)
{
	STARTUPINFOW si = {sizeof(si)};
	wchar_t cmdline[] = L"sc.exe query wuauserv";

	return CreateProcessW(NULL, cmdline, NULL, NULL, FALSE, 0, NULL, NULL, &si, pi); // safe "c.exec.windows"
}

BOOL open_log(HWND hwnd)
{
	SHELLEXECUTEINFOW sei = {sizeof(sei)};

	sei.hwnd = hwnd;
	sei.lpFile = L"C:\\ProgramData\\App\\app.log";
	return ShellExecuteExW(&sei); // safe "c.exec.windows"
}

void show_calc(void)
{
	WinExec("calc.exe", SW_SHOW); // safe "c.exec.windows"
}
