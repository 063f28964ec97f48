package rules

import "github.com/jsec/jsec/issue"

// rustAsync is the async family (checkers/rust/async.go).
var rustAsync = []Rule{
	{
		ID: "rust.async.blocking-call", Title: "blocking call inside async code", CWE: 400, Category: CatConcurrency,
		Severity: issue.SeverityMedium, Confidence: 0.6, Languages: LangRust,
		Description: "std::thread::sleep, std::fs I/O, std::net connects, reading stdin, std::process output or reqwest::blocking run directly inside an async fn or async block; they block the executor's worker thread, so every other task scheduled on it stalls (a self-inflicted denial of service under load).",
		Suggestion:  "Use the runtime's async equivalents (tokio::time::sleep, tokio::fs, tokio::net, tokio::process) with .await, or move the blocking work into tokio::task::spawn_blocking / block_in_place.",
	},
}
