package rules

import "github.com/jsec/jsec/issue"

// cFormat is the format family (checkers/c/format.go).
var cFormat = []Rule{
	{
		ID: "c.format.printf", Title: "Non-literal format string", CWE: 134, Category: CatFormat,
		Severity: issue.SeverityHigh, Confidence: 0.8, Languages: LangC,
		Description: "A printf-family call whose format argument is not a string literal: conversions in the data (%n, %s, %x) read and write memory.",
		Suggestion:  "Print data through a literal format: printf(\"%s\", msg), fprintf(f, \"%s\", msg).",
	},
	{
		ID: "c.format.syslog", Title: "Non-literal syslog format", CWE: 134, Category: CatFormat,
		Severity: issue.SeverityHigh, Confidence: 0.8, Languages: LangC,
		Description: "syslog/vsyslog with a format argument that is not a string literal: log messages carrying '%' directives read and write memory.",
		Suggestion:  "Log data through a literal format: syslog(LOG_ERR, \"%s\", msg).",
	},
	{
		ID: "c.format.err", Title: "Non-literal err/warn format", CWE: 134, Category: CatFormat,
		Severity: issue.SeverityMedium, Confidence: 0.75, Languages: LangC,
		Description: "err/errx/warn/warnx/error(3) and their v* forms with a format argument that is not a string literal.",
		Suggestion:  "Pass data through a literal format: warnx(\"%s\", msg).",
	},
}
