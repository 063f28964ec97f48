package rules

import "github.com/jsec/jsec/issue"

// rustUnsafe is the Rust unsafe-code family (checkers/rust/unsafe.go).
var rustUnsafe = []Rule{
	{
		ID: "rust.unsafe.transmute", Title: "mem::transmute between types", CWE: 843, Category: CatTypes,
		Severity: issue.SeverityHigh, Confidence: 0.7, Languages: LangRust,
		Description: "mem::transmute reinterprets the bits of one type as another; a size, alignment, validity or lifetime mismatch is undefined behaviour.",
		Suggestion:  "Use a safe conversion (from_ne_bytes, to_bits/from_bits, as for numbers, pointer casts with cast()) or document the invariant in a // SAFETY: comment.",
	},
}
