package rules

import "github.com/jsec/jsec/issue"

// cInput is the input family (checkers/c/input.go).
var cInput = []Rule{
	{
		ID: "c.input.atoi", Title: "Numeric conversion without error checking", CWE: 190, Category: CatInput,
		Severity: issue.SeverityLow, Confidence: 0.6, Languages: LangC,
		Description: "atoi/atol/atoll/atof cannot report errors: non-numeric input silently becomes 0 and out-of-range input is undefined behaviour.",
		Suggestion:  "Use strtol/strtoul/strtod with an end pointer and errno, and check the range before using the value.",
	},
	{
		ID: "c.input.getenv", Title: "Environment value used without a NULL check", CWE: 476, Category: CatInput,
		Severity: issue.SeverityMedium, Confidence: 0.7, Languages: LangC,
		Description: "getenv returns NULL when the variable is not set; the result is dereferenced or passed to a function that does not accept NULL without being checked first.",
		Suggestion:  "Check the result: `const char *v = getenv(\"X\"); if (v == NULL) v = default;` before using it.",
	},
	{
		ID: "c.input.index", Title: "Array index from external input without bounds check", CWE: 129, Category: CatInput,
		Severity: issue.SeverityHigh, Confidence: 0.6, Languages: LangC,
		Description: "A fixed-size array is indexed by a value that comes from program input (a converted argument, scanf, a received packet field) with no comparison against the array size first.",
		Suggestion:  "Reject the value before indexing: `if (i < 0 || i >= N) return error;` (or use an unsigned type and `i >= N`).",
	},
	{
		ID: "c.net.legacy-inet", Title: "Obsolete IPv4 address API", CWE: 676, Category: CatDangerousAPI,
		Severity: issue.SeverityLow, Confidence: 0.7, Languages: LangC,
		Description: "inet_addr cannot signal errors (255.255.255.255 is a valid address and its error value), inet_ntoa returns a static buffer, inet_aton/inet_ntoa are IPv4-only, and gethostbyname/gethostbyaddr are not reentrant and IPv4-only.",
		Suggestion:  "Use inet_pton/inet_ntop for address conversion and getaddrinfo/getnameinfo for name resolution.",
	},
	{
		ID: "c.dos.unbounded-loop", Title: "Loop bound from external input", CWE: 606, Category: CatResourceExhaus,
		Severity: issue.SeverityMedium, Confidence: 0.55, Languages: LangC,
		Description: "A loop's bound comes from program input (a converted argument, a scanned number, a length field read from a file or socket) and is not compared with an upper limit before the loop: an attacker chooses how long it runs.",
		Suggestion:  "Reject bounds above a sane maximum before looping (`if (n > MAX_ITEMS) return error;`).",
	},
	{
		ID: "c.dos.unbounded-alloc", Title: "Allocation size from external input", CWE: 789, Category: CatResourceExhaus,
		Severity: issue.SeverityMedium, Confidence: 0.6, Languages: LangC,
		Description: "Memory is allocated with a size that comes from program input and is not compared with an upper limit first: an attacker can exhaust memory (or the stack, for alloca and VLAs).",
		Suggestion:  "Check the size against a maximum that suits the protocol or format before allocating, and check the allocation for failure.",
	},
	{
		ID: "c.dos.recursion", Title: "Recursion on external data without a depth limit", CWE: 674, Category: CatResourceExhaus,
		Severity: issue.SeverityLow, Confidence: 0.5, Languages: LangC,
		Description: "A function calls itself on a part of the structure it walks (a child node, the next list element, the rest of the input) and has no depth counter that is compared with a limit: deep or cyclic data exhausts the stack.",
		Suggestion:  "Pass a depth argument and fail above a limit, or rewrite the walk with an explicit stack or loop.",
	},
}
