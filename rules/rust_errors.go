package rules

import "github.com/jsec/jsec/issue"

// rustErrors is the errors family (checkers/rust/errors.go).
var rustErrors = []Rule{
	{
		ID: "rust.panic.unwrap", Title: "unwrap/expect on a fallible external operation", CWE: 754, Category: CatPanic,
		Severity: issue.SeverityLow, Confidence: 0.45, Languages: LangRust,
		Description: "unwrap() or expect() on the Result or Option of an operation that fails on bad input or a hostile environment (parsing, file and network I/O, environment variables, lookups) turns that input into a panic: a crash, or a denial of service in a server.",
		Suggestion:  "Propagate the error with ? (or match on it) and report it to the caller; keep unwrap for values the code itself guarantees.",
	},
	{
		ID: "rust.panic.explicit", Title: "explicit panic in library code", CWE: 617, Category: CatPanic,
		Severity: issue.SeverityLow, Confidence: 0.4, Languages: LangRust,
		Description: "panic!, todo!, unimplemented! or unreachable! in non-test code aborts the thread when reached; reachable from input, it is a denial of service.",
		Suggestion:  "Return a Result (or Option) that the caller can handle; if the panic is part of the contract, document it in a # Panics section.",
	},
	{
		ID: "rust.errors.ignored-result", Title: "Result silently discarded", CWE: 252, Category: CatErrors,
		Severity: issue.SeverityLow, Confidence: 0.5, Languages: LangRust,
		Description: "`let _ = …;` or `….ok();` drops the Result of an I/O, process, network or synchronization call, so a failed write, fsync, permission change, removal or kill goes unnoticed.",
		Suggestion:  "Handle the error: propagate it with ?, log it, or state why it can be ignored in a comment and a named binding (let _unused = …) after review.",
	},
	{
		ID: "rust.refcell.double-borrow", Title: "RefCell borrowed mutably while borrowed", CWE: 248, Category: CatPanic,
		Severity: issue.SeverityMedium, Confidence: 0.6, Languages: LangRust,
		Description: "A RefCell is borrowed (borrow_mut while any borrow is alive, or borrow while a borrow_mut is alive) while the guard of an earlier borrow of the same cell is still alive; RefCell enforces the borrow rules at run time and panics.",
		Suggestion:  "End the first borrow before the second: scope the guard in a block, drop() it, copy the value out, or use try_borrow/try_borrow_mut and handle the error.",
	},
}
