package rules

import "github.com/jsec/jsec/issue"

// rustArith is the arith family (checkers/rust/arith.go).
var rustArith = []Rule{
	{
		ID: "rust.int.truncating-cast", Title: "narrowing `as` cast", CWE: 197, Category: CatArithmetic,
		Severity: issue.SeverityMedium, Confidence: 0.55, Languages: LangRust,
		Description: "An `as` cast to a narrower integer type silently drops the high bits, and a cast of a signed value to an unsigned type turns negative values into huge ones; a length or offset that no longer matches the data leads to wrong bounds, short writes or corrupt output.",
		Suggestion:  "Use T::try_from(x) (or x.try_into()) and handle the error, or check the range first (if x > u32::MAX as usize { … }).",
	},
	{
		ID: "rust.int.overflow", Title: "unchecked arithmetic on untrusted sizes", CWE: 190, Category: CatArithmetic,
		Severity: issue.SeverityMedium, Confidence: 0.5, Languages: LangRust,
		Description: "A length or count read from input (from_le_bytes, read_u32, get_u32, parse) goes through + or * without checked arithmetic and then sizes an allocation, a slice or a bounds check. In release builds the arithmetic wraps, so a crafted value makes the check pass or the buffer too small; in debug builds it panics.",
		Suggestion:  "Use checked_mul/checked_add (or u64 arithmetic with an explicit limit) and reject the input when it overflows or exceeds a sane maximum.",
	},
	{
		ID: "rust.dos.uncapped-alloc", Title: "allocation sized by untrusted input", CWE: 789, Category: CatResourceExhaus,
		Severity: issue.SeverityMedium, Confidence: 0.5, Languages: LangRust,
		Description: "Vec::with_capacity, vec![x; n], String::with_capacity, reserve or resize is sized by a length read from input with no upper bound; a few bytes of crafted input make the process allocate gigabytes or abort.",
		Suggestion:  "Cap the length before allocating (n.min(LIMIT), or reject n > LIMIT), or grow the buffer as data actually arrives (read_to_end on a Take reader).",
	},
}
