package rules

import "github.com/jsec/jsec/issue"

// cArith is the arith family (checkers/c/arith*.go): integer and
// pointer-arithmetic errors and logic slips.
var cArith = []Rule{
	{
		ID: "c.int.div-zero", Title: "Division by a value that may be zero", CWE: 369, Category: CatArithmetic,
		Severity: issue.SeverityMedium, Confidence: 0.6, Languages: LangC,
		Description: "An integer division or remainder uses a divisor that comes from program input (or was set to 0) and is not checked against zero first; a zero divisor crashes the process (SIGFPE) or is undefined behaviour.",
		Suggestion:  "Check the divisor before dividing (if (n == 0) reject the input) or clamp it to a valid range where it is parsed.",
	},
	{
		ID: "c.int.signed-size", Title: "Signed value used as a size", CWE: 195, Category: CatArithmetic,
		Severity: issue.SeverityMedium, Confidence: 0.6, Languages: LangC,
		Description: "A signed int/long/ssize_t that may be negative (program input, an error return such as read()'s -1, a subtraction) is passed as a size; converted to size_t, a negative value becomes huge.",
		Suggestion:  "Check the value for < 0 (and against the buffer size) before using it as a size, or keep sizes in size_t from where they are parsed.",
	},
	{
		ID: "c.int.pointer-diff", Title: "Pointer arithmetic scaled twice", CWE: 468, Category: CatArithmetic,
		Severity: issue.SeverityHigh, Confidence: 0.8, Languages: LangC,
		Description: "Pointer arithmetic on a T * already counts in elements of T; dividing a pointer difference by sizeof(T), or adding n * sizeof(T) to a T *, scales a second time.",
		Suggestion:  "Use the element count directly (p - q, p + n), or do byte arithmetic on char * / uintptr_t explicitly.",
	},
	{
		ID: "c.logic.assign-in-cond", Title: "Assignment used as a condition", CWE: 481, Category: CatLogic,
		Severity: issue.SeverityMedium, Confidence: 0.7, Languages: LangC,
		Description: "An if or while condition is an assignment (x = 0, x = y) where a comparison (==) was probably meant; the condition tests the assigned value.",
		Suggestion:  "Write == for a comparison; if the assignment is intended, wrap it in a second pair of parentheses and compare explicitly: if ((x = y) != 0).",
	},
}
