package rules

import "github.com/jsec/jsec/issue"

// rustFFI is the ffi family (checkers/rust/ffi.go).
var rustFFI = []Rule{
	{
		ID: "rust.ffi.cstr-from-ptr", Title: "CStr::from_ptr on a pointer that may be null", CWE: 476, Category: CatFFI,
		Severity: issue.SeverityMedium, Confidence: 0.65, Languages: LangRust,
		Description: "CStr::from_ptr reads a C string from a pointer that came from a parameter or a C call (getenv, readdir …) and was never checked for null: a null pointer is undefined behaviour.",
		Suggestion:  "Check p.is_null() first (and treat null as None or an error), then call CStr::from_ptr inside an unsafe block with a // SAFETY: comment.",
	},
	{
		ID: "rust.ffi.cstring-dangling", Title: "pointer to a dropped CString", CWE: 416, Category: CatFFI,
		Severity: issue.SeverityHigh, Confidence: 0.9, Languages: LangRust,
		Description: "CString::new(…).unwrap().as_ptr() takes a pointer into a temporary CString that is dropped at the end of the statement; storing, assigning or returning that pointer leaves it dangling.",
		Suggestion:  "Bind the CString to a variable that outlives every use of the pointer: let s = CString::new(x)?; f(s.as_ptr());",
	},
	{
		ID: "rust.ffi.into-raw-leak", Title: "into_raw without from_raw", CWE: 401, Category: CatFFI,
		Severity: issue.SeverityLow, Confidence: 0.5, Languages: LangRust,
		Description: "CString/Box/Arc/Rc::into_raw hands an allocation to C, and no matching from_raw in the file takes it back; unless the C side returns the pointer to Rust to be freed, it leaks (and freeing it with C's free() is undefined behaviour).",
		Suggestion:  "Export a matching free function that rebuilds the owner with from_raw and drops it, and document that C must call it.",
	},
	{
		ID: "rust.ffi.export-null-check", Title: "exported FFI function dereferences an unchecked pointer", CWE: 476, Category: CatFFI,
		Severity: issue.SeverityMedium, Confidence: 0.65, Languages: LangRust,
		Description: "A #[no_mangle] extern \"C\" fn dereferences a raw pointer parameter (or builds a slice, CStr or Box from it) without checking it for null, although any C caller can pass NULL.",
		Suggestion:  "Check every pointer parameter with is_null() at the top of the exported function and return an error code, or take Option<&T>/Option<NonNull<T>>.",
	},
	{
		ID: "rust.ffi.panic-boundary", Title: "panic can unwind across an extern \"C\" boundary", CWE: 755, Category: CatFFI,
		Severity: issue.SeverityMedium, Confidence: 0.6, Languages: LangRust,
		Description: "An extern \"C\" fn defined in Rust can panic (unwrap, expect, panic!, unreachable!, todo!) outside catch_unwind; a panic cannot unwind into C, so it aborts the host process (undefined behaviour before Rust 1.81).",
		Suggestion:  "Handle errors and return an error code, or wrap the body in std::panic::catch_unwind and convert the panic into one; use extern \"C-unwind\" only if the caller can unwind.",
	},
}
