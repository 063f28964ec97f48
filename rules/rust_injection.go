package rules

import "github.com/jsec/jsec/issue"

// rustInjection is the injection family (checkers/rust/injection.go).
var rustInjection = []Rule{
	{
		ID: "rust.exec.command-injection", Title: "shell command built from untrusted input", CWE: 78, Category: CatInjection,
		Severity: issue.SeverityHigh, Confidence: 0.7, Languages: LangRust,
		Description: "A shell (sh -c, bash -c, cmd /C, powershell -Command) runs a script built at run time with format!, concatenation or a variable, or Command::new runs a program whose path comes from input; shell metacharacters or a chosen binary run arbitrary commands.",
		Suggestion:  "Run the program directly with Command::new(\"prog\").arg(value) so that no shell parses the value; if a shell is unavoidable, pass values as positional parameters (sh -c 'prog \"$1\"' sh value) and never format them into the script. Choose programs from a fixed list.",
	},
	{
		ID: "rust.injection.sql", Title: "SQL built with format!", CWE: 89, Category: CatInjection,
		Severity: issue.SeverityHigh, Confidence: 0.7, Languages: LangRust,
		Description: "An SQL statement is built with format!, + or push_str from values that are not constants or numbers and passed to query/execute/prepare (rusqlite, postgres, mysql, sqlx, diesel); a quote in the value changes the statement.",
		Suggestion:  "Use placeholders ($1, ?) and bind the values (params![], .bind(), &[&value]); use sqlx::query! for compile-time checked queries; choose identifiers such as table names from a fixed list.",
	},
	{
		ID: "rust.path.traversal", Title: "file path from untrusted input", CWE: 22, Category: CatPath,
		Severity: issue.SeverityMedium, Confidence: 0.55, Languages: LangRust,
		Description: "A path from a web request (or, joined onto a base directory, from the command line, the environment or standard input) reaches File::open, fs::read, fs::write or another file-system call without canonicalize()+starts_with(base) or a check that rejects \"..\" components; \"../\" or an absolute path names files outside the intended directory.",
		Suggestion:  "Reject paths with Component::ParentDir, RootDir or Prefix components, or canonicalize the joined path and check that it starts_with the canonical base directory before opening it.",
	},
	{
		ID: "rust.file.toctou", Title: "check-then-use race on a path", CWE: 367, Category: CatRace,
		Severity: issue.SeverityMedium, Confidence: 0.6, Languages: LangRust,
		Description: "A path is checked (exists, is_file, is_dir, metadata) and later created, written, removed or opened for writing by name in the same function; between the two calls another process can create, remove or replace it with a symlink, so the check protects nothing.",
		Suggestion:  "Act on the path once and handle the error: OpenOptions::new().write(true).create_new(true).open(p) to create exclusively, open the file first and check its metadata through the handle, and treat NotFound/AlreadyExists as results.",
	},
}
