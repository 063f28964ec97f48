package html

import (
	"bytes"
	"fmt"
	"io"
	"testing"

	"github.com/jsec/jsec/issue"
	"github.com/jsec/jsec/report"
	"github.com/jsec/jsec/report/markdown"
)

// bigReport is a report of n issues over n/4 files and every severity,
// each with seven lines of context: the shape of a scan of a large
// package (curl gives 274 issues and a 150 KB Markdown report).
func bigReport(n int) *report.Report {
	rules := []string{"c.buffer.strcpy", "c.memory.use-after-free", "c.crypto.tls-no-verify", "c.api.strtok"}
	var is []issue.Issue
	for i := range n {
		lines := make([]string, 7)
		for k := range lines {
			lines[k] = fmt.Sprintf("\tif (len_%d > sizeof(buf)) return copy(buf, src_%d, %d); /* line %d */", i, k, k*3, k)
		}
		is = append(is, issue.Issue{
			ID: fmt.Sprintf("%016x", i), Rule: rules[i%len(rules)], Title: "Finding `title` " + rules[i%len(rules)],
			Language: "c", Category: "buffer_overflow", CWE: "CWE-120",
			File: fmt.Sprintf("src/dir%d/file_%d.c", i%7, i/4), Line: 10 + i, EndLine: 10 + i, Function: fmt.Sprintf("fn_%d", i),
			Severity: issue.Severity(1 + i%4), Confidence: 0.7,
			Description: "strcpy into buf of 64 bytes from src, whose length is not checked",
			Suggestion:  "Use a bounded copy (strlcpy, snprintf) and check the length.",
			Context:     &issue.Snippet{StartLine: 7 + i, Lines: lines},
		})
	}
	r := &report.Report{Tool: report.Tool{Name: "jsec", Version: "1.2.0", Root: "proj"}, Issues: is, Summary: report.Summarize(is)}
	r.Summary.FilesScanned = n / 4
	return r
}

// BenchmarkWrite is report.html of a 300-issue report.
func BenchmarkWrite(b *testing.B) {
	r := bigReport(300)
	for b.Loop() {
		if err := Write(io.Discard, r); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkGoldmark is the conversion of the same report's Markdown by
// goldmark, which report.html was before body.go.
func BenchmarkGoldmark(b *testing.B) {
	r := bigReport(300)
	var md bytes.Buffer
	if err := markdown.Write(&md, r); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if err := converter.Convert(md.Bytes(), io.Discard); err != nil {
			b.Fatal(err)
		}
	}
}
