package rules

import "github.com/jsec/jsec/issue"

// cBuffer is the C/C++ buffer-overflow family (checkers/c/buffer*.go).
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
	{
		ID: "c.buffer.strcat", Title: "Unbounded string concatenation", CWE: 120, Category: CatBuffer,
		Severity: issue.SeverityHigh, Confidence: 0.8, Languages: LangC,
		Description: "strcat-style append whose source is not known to fit the room left after the destination's current contents.",
		Suggestion:  "Track the length used so far and append with snprintf(dst + len, sizeof dst - len, \"%s\", src) or strlcat, checking for truncation.",
	},
	{
		ID: "c.buffer.sprintf", Title: "Formatted write may overflow its destination", CWE: 787, Category: CatBuffer,
		Severity: issue.SeverityHigh, Confidence: 0.75, Languages: LangC,
		Description: "sprintf-style call whose longest output (from its format's conversions and %s arguments) may exceed the destination.",
		Suggestion:  "Use snprintf(dst, sizeof dst, ...) and check its return value against sizeof dst for truncation.",
	},
	{
		ID: "c.buffer.size-mismatch", Title: "Size argument larger than the destination", CWE: 787, Category: CatBuffer,
		Severity: issue.SeverityHigh, Confidence: 0.85, Languages: LangC,
		Description: "A read, copy or fill is given a constant or sizeof size larger than the array it writes into.",
		Suggestion:  "Pass sizeof of the destination itself (fgets(buf, sizeof buf, f)), not a separate constant or the size of another object.",
	},
	{
		ID: "c.buffer.memcpy-unbounded", Title: "Copy length not bounded by the destination", CWE: 805, Category: CatBuffer,
		Severity: issue.SeverityHigh, Confidence: 0.6, Languages: LangC,
		Description: "memcpy/memmove/strncpy into a fixed-size array with a length taken from the source or from program input, never compared with the destination's size.",
		Suggestion:  "Check the length against sizeof dst before copying (reject or truncate), or copy MIN(len, sizeof dst) bytes.",
	},
	{
		ID: "c.buffer.strncat-size", Title: "strncat bound ignores the existing contents", CWE: 787, Category: CatBuffer,
		Severity: issue.SeverityHigh, Confidence: 0.75, Languages: LangC,
		Description: "strncat's third argument is the room left for new characters; passing the buffer's whole size (or the source's length) lets it write past the end.",
		Suggestion:  "Pass sizeof dst - strlen(dst) - 1, or use strlcat(dst, src, sizeof dst) / snprintf and check for truncation.",
	},
	{
		ID: "c.buffer.strncpy-nul", Title: "strncpy may leave the destination unterminated", CWE: 170, Category: CatBuffer,
		Severity: issue.SeverityMedium, Confidence: 0.6, Languages: LangC,
		Description: "strncpy with the whole buffer size writes no NUL when the source is that long, and nothing terminates the buffer afterwards.",
		Suggestion:  "Copy sizeof dst - 1 bytes and set dst[sizeof dst - 1] = '\\0', or use strlcpy / snprintf.",
	},
	{
		ID: "c.buffer.scanf-width", Title: "scanf %s without a field width", CWE: 120, Category: CatBuffer,
		Severity: issue.SeverityHigh, Confidence: 0.85, Languages: LangC,
		Description: "A scanf-family %s or %[ conversion without a width (or with one that leaves no room for the NUL) reads a word of any length into a fixed buffer.",
		Suggestion:  "Give every %s and %[ a width of at most sizeof buf - 1 (\"%63s\" for char buf[64]), or use %ms and free the result.",
	},
	{
		ID: "c.buffer.sizeof-pointer", Title: "sizeof applied to a pointer where the buffer size was meant", CWE: 467, Category: CatBuffer,
		Severity: issue.SeverityMedium, Confidence: 0.7, Languages: LangC,
		Description: "sizeof of a pointer (or of an array parameter) is the pointer's size, not the size of the buffer it points to, so the call covers only 4 or 8 bytes.",
		Suggestion:  "Pass the buffer's real size (keep it in a variable next to the pointer), or sizeof *p for a single object.",
	},
	{
		ID: "c.buffer.off-by-one", Title: "Write one past the end of an array", CWE: 193, Category: CatBuffer,
		Severity: issue.SeverityHigh, Confidence: 0.75, Languages: LangC,
		Description: "An array of N elements is written at index N (buf[sizeof buf], a loop running to i <= N, or an index returned by read() of the full size).",
		Suggestion:  "The last element is buf[N - 1]: loop with i < N, terminate at buf[sizeof buf - 1], and read at most sizeof buf - 1 bytes when a NUL follows.",
	},
}
