package rules

import "github.com/jsec/jsec/issue"

// cErrors is the unchecked-result family (checkers/c/errors.go).
var cErrors = []Rule{
	{
		ID: "c.errors.unchecked-io", Title: "I/O result ignored", CWE: 252, Category: CatErrors,
		Severity: issue.SeverityLow, Confidence: 0.5, Languages: LangC,
		Description: "The result of a file or I/O call (read, write, fseek, rename, mkdir, chdir …) is discarded: short reads and writes, and failures, go unnoticed.",
		Suggestion:  "Check the result (and loop on short reads and writes); cast to (void) only where ignoring it is deliberate.",
	},
	{
		ID: "c.errors.unchecked-network", Title: "Network call result ignored", CWE: 252, Category: CatErrors,
		Severity: issue.SeverityMedium, Confidence: 0.55, Languages: LangC,
		Description: "The result of a socket call (recv, send, connect, bind, listen, accept, a protective setsockopt …) is discarded: a failed or partial transfer is treated as a success, a socket goes on unprotected.",
		Suggestion:  "Check the result: handle -1 with errno, and loop on partial sends and receives.",
	},
	{
		ID: "c.errors.unchecked-privilege", Title: "Privilege change result ignored", CWE: 273, Category: CatPermissions,
		Severity: issue.SeverityHigh, Confidence: 0.85, Languages: LangC,
		Description: "The result of a privilege or permission change (setuid, setgid, setgroups, chroot, chmod, chown …) is discarded, or the uid is dropped before the gid: when the drop fails the program goes on with the privileges it meant to give up.",
		Suggestion:  "Check every privilege change and abort when it fails; drop supplementary groups and the gid (setgroups, setgid) before the uid (setuid).",
	},
	{
		ID: "c.errors.unchecked-pthread", Title: "pthread call result ignored", CWE: 252, Category: CatErrors,
		Severity: issue.SeverityLow, Confidence: 0.5, Languages: LangC,
		Description: "The result of a pthread call that can fail (pthread_create, pthread_join, pthread_*_init, pthread_attr_*, pthread_key_create …) is discarded: a thread that was never created is joined, an uninitialised object is used.",
		Suggestion:  "Check the returned error number (pthread functions return it instead of setting errno) and handle the failure.",
	},
}
