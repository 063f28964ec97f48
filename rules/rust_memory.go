package rules

import "github.com/jsec/jsec/issue"

// rustMemory is the memory family (checkers/rust/memory.go).
var rustMemory = []Rule{
	{
		ID: "rust.memory.forget", Title: "mem::forget leaks a value", CWE: 401, Category: CatMemory,
		Severity: issue.SeverityLow, Confidence: 0.55, Languages: LangRust,
		Description: "mem::forget(x) skips the destructor of a value that owns a resource (Box, Vec, String, file, socket, lock guard), so its memory or handle leaks, or its lock is never released.",
		Suggestion:  "Let the value drop; to hand ownership to other code use into_raw/into_raw_parts/into_raw_fd, or ManuallyDrop with a // SAFETY: comment.",
	},
	{
		ID: "rust.memory.manually-drop", Title: "ManuallyDrop never dropped", CWE: 401, Category: CatMemory,
		Severity: issue.SeverityLow, Confidence: 0.5, Languages: LangRust,
		Description: "A value wrapped in ManuallyDrop::new is never passed to ManuallyDrop::drop/take/into_inner, moved, returned, stored or handed out as a raw pointer, so it leaks.",
		Suggestion:  "Call ManuallyDrop::drop or into_inner on every path, or hand the contents to their new owner (into_raw_parts idiom) explicitly.",
	},
	{
		ID: "rust.memory.rc-cycle", Title: "Rc/Arc reference cycle", CWE: 401, Category: CatMemory,
		Severity: issue.SeverityLow, Confidence: 0.45, Languages: LangRust,
		Description: "A struct links to itself (or to another struct that links back) through two strong, mutable Rc/Arc links (Rc<RefCell<…>>, Arc<Mutex<…>>) and holds no Weak: once the links point both ways the nodes keep each other alive and are never freed.",
		Suggestion:  "Make the back link (parent, prev, owner) a Weak<…> and upgrade() it when needed.",
	},
}
