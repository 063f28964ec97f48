package rules

import "github.com/jsec/jsec/issue"

// cFiles is the files family (checkers/c/files.go): temporary names,
// check-then-use races, permissions and chroot jails.
var cFiles = []Rule{
	{
		ID: "c.file.tmpname", Title: "Insecure temporary file name", CWE: 377, Category: CatRace,
		Severity: issue.SeverityHigh, Confidence: 0.85, Languages: LangC,
		Description: "tmpnam/tempnam/mktemp return a name that another process can create (or symlink) before this one opens it.",
		Suggestion:  "Create the file atomically with mkstemp()/mkostemp() (or tmpfile()), or open the name with O_CREAT|O_EXCL.",
	},
	{
		ID: "c.file.toctou", Title: "Check-then-use race on a path", CWE: 367, Category: CatRace,
		Severity: issue.SeverityMedium, Confidence: 0.7, Languages: LangC,
		Description: "A path is checked (access/stat/lstat) and then used by name; the file can be replaced between the check and the use.",
		Suggestion:  "Open first and check the descriptor (fstat, O_NOFOLLOW, O_CREAT|O_EXCL), or use the *at() calls on a trusted directory descriptor.",
	},
	{
		ID: "c.file.permissive-mode", Title: "World-writable file permissions", CWE: 732, Category: CatPermissions,
		Severity: issue.SeverityHigh, Confidence: 0.8, Languages: LangC,
		Description: "A file or directory is given permissions that let every user write to it: chmod-family modes with S_IWOTH, a umask that does not mask it, or files created with such modes under that umask.",
		Suggestion:  "Grant only owner (and where needed group) write permission, e.g. 0644/0600 for files and 0755/0700 for directories; keep the umask at 022 or stricter.",
	},
	{
		ID: "c.file.chroot-jail", Title: "chroot without chdir(\"/\")", CWE: 243, Category: CatPermissions,
		Severity: issue.SeverityHigh, Confidence: 0.8, Languages: LangC,
		Description: "chroot() does not change the working directory: unless the process chdir()s into the jail, relative paths still reach the old file system.",
		Suggestion:  "Call chdir(\"/\") right after chroot() (or chdir(dir) before chroot(\".\")) and check both results; drop privileges afterwards.",
	},
}
