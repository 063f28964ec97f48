package rules

import "github.com/jsec/jsec/issue"

// cBuffer is the C/C++ buffer-overflow family (checkers/c/buffer.go).
var cBuffer = []Rule{
	{
		ID: "c.buffer.strcpy", Title: "Unbounded string copy", CWE: 120, Category: CatBuffer,
		Severity: issue.SeverityHigh, Confidence: 0.8, Languages: LangC,
		Description: "strcpy-style copy into a destination whose size is not known to hold the source.",
		Suggestion:  "Use a bounded copy that always terminates (snprintf(dst, sizeof dst, \"%s\", src) or strlcpy) and check for truncation.",
	},
	{
		ID: "c.buffer.gets", Title: "Use of gets", CWE: 242, Category: CatBuffer,
		Severity: issue.SeverityCritical, Confidence: 0.95, Languages: LangC,
		Description: "gets() cannot limit how much it reads: any input longer than the buffer overflows it.",
		Suggestion:  "Use fgets(buf, sizeof buf, stdin) and strip the newline.",
	},
}
