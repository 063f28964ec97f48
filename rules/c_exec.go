package rules

import "github.com/jsec/jsec/issue"

// cExec is the exec family (checkers/c/exec.go): commands, programs,
// queries, paths and URLs built from input, unsafe deserialization and
// XML external entities.
var cExec = []Rule{
	{
		ID: "c.exec.system", Title: "Shell command from non-constant input", CWE: 78, Category: CatInjection,
		Severity: issue.SeverityHigh, Confidence: 0.75, Languages: LangC,
		Description: "system()/popen() runs a command line that is not a constant; the shell interprets any metacharacters in the non-constant part.",
		Suggestion:  "Run the program directly with execv()/posix_spawn() and an argument vector, or validate the value against a strict allow-list before building the command.",
	},
	{
		ID: "c.exec.exec", Title: "Program execution with a non-constant program or shell command", CWE: 78, Category: CatInjection,
		Severity: issue.SeverityHigh, Confidence: 0.7, Languages: LangC,
		Description: "An exec*/posix_spawn call runs a program whose path is not a constant, or runs a shell with -c and a non-constant command.",
		Suggestion:  "Execute a fixed program path with the value as a separate argv entry, never as a shell command; validate program names against an allow-list.",
	},
	{
		ID: "c.exec.windows", Title: "Windows command execution with a non-constant command line", CWE: 78, Category: CatInjection,
		Severity: issue.SeverityHigh, Confidence: 0.7, Languages: LangC,
		Description: "ShellExecute/WinExec/CreateProcess starts a program or command line that is not a constant.",
		Suggestion:  "Pass a fixed, fully qualified application name to CreateProcess and quote each argument; never build a cmd.exe command line from input.",
	},
	{
		ID: "c.injection.sql", Title: "SQL built from non-constant input", CWE: 89, Category: CatInjection,
		Severity: issue.SeverityCritical, Confidence: 0.75, Languages: LangC,
		Description: "A query assembled with sprintf/strcat/string concatenation from non-constant text is executed by a SQL API.",
		Suggestion:  "Use a prepared statement with placeholders (sqlite3_prepare_v2 + sqlite3_bind_*, mysql_stmt_*, PQexecParams) and bind the values.",
	},
	{
		ID: "c.path.traversal", Title: "File path from external input", CWE: 22, Category: CatPath,
		Severity: issue.SeverityHigh, Confidence: 0.6, Languages: LangC,
		Description: "A file-system call uses a path that comes from program input without rejecting \"..\" or confining it to a directory.",
		Suggestion:  "Reject names containing '/' or \"..\", or resolve the path with realpath() and check that it stays under the intended directory before using it.",
	},
	{
		ID: "c.ssrf.curl-url", Title: "Request URL from external input", CWE: 918, Category: CatSSRF,
		Severity: issue.SeverityHigh, Confidence: 0.6, Languages: LangC,
		Description: "libcurl is told to fetch a URL that comes from program input, so the requester chooses which host and scheme the program talks to.",
		Suggestion:  "Parse the URL (curl_url_set/curl_url_get) and check scheme and host against an allow-list; restrict CURLOPT_PROTOCOLS_STR to http/https.",
	},
	{
		ID: "c.ssrf.fetch-command", Title: "curl/wget command line built from input", CWE: 918, Category: CatSSRF,
		Severity: issue.SeverityCritical, Confidence: 0.75, Languages: LangC,
		Description: "A curl or wget command line is formatted with non-constant text and run through the shell: the URL and any shell metacharacters are controlled by whoever controls the text.",
		Suggestion:  "Use libcurl with a validated URL instead of a shell command; if a tool must run, exec it with an argument vector after checking scheme and host.",
	},
	{
		ID: "c.deserialize.untrusted", Title: "Deserialization of untrusted data", CWE: 502, Category: CatDeserialize,
		Severity: issue.SeverityHigh, Confidence: 0.6, Languages: LangC,
		Description: "An object deserializer (Boost.Serialization, cereal, msgpack) reads from a socket, stdin or a buffer filled from input.",
		Suggestion:  "Do not deserialize object graphs from untrusted sources; parse a schema-checked format (protobuf, JSON with validation) and bound sizes and depth.",
	},
	{
		ID: "c.xml.xxe", Title: "XML parser with external entities enabled", CWE: 611, Category: CatInjection,
		Severity: issue.SeverityHigh, Confidence: 0.8, Languages: LangC,
		Description: "libxml2 or expat is configured to substitute entities or load external DTDs (XML_PARSE_NOENT, XML_PARSE_DTDLOAD, XML_PARAM_ENTITY_PARSING_ALWAYS), so a document can read local files or reach the network.",
		Suggestion:  "Drop XML_PARSE_NOENT and XML_PARSE_DTDLOAD (add XML_PARSE_NONET); keep expat's parameter-entity parsing at XML_PARAM_ENTITY_PARSING_NEVER.",
	},
}
