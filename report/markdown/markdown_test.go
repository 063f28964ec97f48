package markdown

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/text"

	"github.com/jsec/jsec/issue"
	"github.com/jsec/jsec/report"
)

func sampleReport() *report.Report {
	is := []issue.Issue{
		{ID: "1111", Rule: "c.buffer.gets", Title: "Use of gets", Language: "c", Category: "buffer_overflow", CWE: "CWE-242",
			File: "src/io|pipe.c", Line: 4, EndLine: 4, Function: "read_line", Severity: issue.SeverityCritical, Confidence: 0.95,
			Description: "gets() reads *unbounded* input into `buf` <b>", Suggestion: "Use fgets(buf, sizeof buf, stdin).",
			Context: &issue.Snippet{StartLine: 2, Lines: []string{"void read_line(void) {", "\tchar buf[8]; /* ``` fence */", "\tgets(buf);", "}"}}},
		{ID: "2222", Rule: "rust.unsafe.transmute", Title: "transmute", Language: "rust", Category: "type_safety", CWE: "CWE-843",
			File: "lib.rs", Line: 9, EndLine: 9, Severity: issue.SeverityHigh, Confidence: 0.6, Description: "transmute from u32 to f32",
			Verification: &issue.Verification{Verdict: issue.VerdictConfirmed, Confidence: 0.9, Reason: "bits come from the network"}},
		{ID: "3333", Rule: "rust.unsafe.transmute", Title: "transmute", Language: "rust", Category: "type_safety", CWE: "CWE-843",
			File: "lib.rs", Line: 3, EndLine: 3, Severity: issue.SeverityHigh, Confidence: 0.6, Description: "transmute from u8 to bool",
			Verification: &issue.Verification{Verdict: issue.VerdictFalsePositive, Confidence: 0.8, Reason: "value checked", Dismissed: true}},
	}
	r := &report.Report{Tool: report.Tool{Name: "jsec", Version: "test", Root: "proj"}, Issues: is, Summary: report.Summarize(is)}
	r.Errors = []report.Error{{File: "big.c", Reason: "file too large (a|b)\nstack", Kind: "skipped"}}
	r.Summary.FilesSkipped = 1
	return r
}

func TestMarkdownParsesAndHasStructure(t *testing.T) {
	var b bytes.Buffer
	if err := Write(&b, sampleReport()); err != nil {
		t.Fatal(err)
	}
	src := b.Bytes()
	md := goldmark.New(goldmark.WithExtensions(extension.GFM))
	doc := md.Parser().Parse(text.NewReader(src))
	var headings []string
	var codeBlocks []string
	tables := 0
	ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *ast.Heading:
			headings = append(headings, strings.Repeat("#", n.Level)+" "+string(n.Lines().Value(src)))
		case *ast.FencedCodeBlock:
			codeBlocks = append(codeBlocks, string(n.Language(src))+":"+string(n.Lines().Value(src)))
		}
		if n.Kind().String() == "Table" {
			tables++
		}
		return ast.WalkContinue, nil
	})
	joined := strings.Join(headings, "\n")
	for _, want := range []string{"# jsec report", "## Summary", "## Critical (1)", "## High (2)", "## Skipped files"} {
		if !strings.Contains(joined, want) {
			t.Errorf("missing heading %q in:\n%s", want, joined)
		}
	}
	if len(codeBlocks) != 1 || !strings.HasPrefix(codeBlocks[0], "c:") || !strings.Contains(codeBlocks[0], ">  4 | \tgets(buf);") && !strings.Contains(codeBlocks[0], "> 4 |     gets(buf);") {
		t.Errorf("code block with the marked line missing: %q", codeBlocks)
	}
	if !strings.Contains(codeBlocks[0], "``` fence") {
		t.Errorf("a backtick run inside the snippet broke the fence: %q", codeBlocks)
	}
	if tables < 4 {
		t.Errorf("want summary, language, category, top-files and errors tables; got %d", tables)
	}
	// The confirmed issue comes before the false positive within a severity.
	if strings.Index(b.String(), "transmute from u32") > strings.Index(b.String(), "transmute from u8") {
		t.Error("confirmed issue not listed first")
	}
	if strings.Contains(b.String(), "stack") {
		t.Error("multi-line reasons leak into the table")
	}
	if !strings.Contains(b.String(), "**Dismissed** by the verifier") {
		t.Error("a dismissed finding is not marked")
	}
	if strings.Contains(b.String(), "<b>") {
		t.Error("raw HTML from a description reached the output")
	}
}

func TestEmptyReport(t *testing.T) {
	var b bytes.Buffer
	r := &report.Report{Tool: report.Tool{Name: "jsec"}, Summary: report.Summarize(nil)}
	if err := Write(&b, r); err != nil || !strings.Contains(b.String(), "No issues found.") {
		t.Fatalf("%v %s", err, b.String())
	}
}

// codeBlockFmt is codeBlock as it was written with fmt, the reference
// for TestCodeBlockMatchesFmt.
func codeBlockFmt(is *issue.Issue) string {
	width := len(fmt.Sprint(is.Context.StartLine + len(is.Context.Lines)))
	var body strings.Builder
	for i, l := range is.Context.Lines {
		n := is.Context.StartLine + i
		mark := " "
		if n >= is.Line && n <= max(is.Line, is.EndLine) {
			mark = ">"
		}
		fmt.Fprintf(&body, "%s %*d | %s\n", mark, width, n, strings.ReplaceAll(l, "\t", "    "))
	}
	fence := strings.Repeat("`", max(3, longestRun(body.String(), '`')+1))
	lang := is.Language
	if lang == "" {
		lang = "text"
	}
	return fence + lang + "\n" + body.String() + fence + "\n\n"
}

// TestCodeBlockMatchesFmt holds codeBlock to its fmt version on line
// numbers around powers of ten (the width changes), flagged ranges, tabs,
// backticks and empty lines.
func TestCodeBlockMatchesFmt(t *testing.T) {
	lines := []string{"", "\t", "a\tb\t\tc", "```", "x := `y`", "plain", "\t\t", " trailing "}
	n := 0
	for _, start := range []int{-3, 0, 1, 5, 8, 9, 10, 95, 98, 99, 100, 997, 9999, 123456} {
		for count := 1; count <= len(lines); count++ {
			for _, line := range []int{start, start + count/2, start + count + 3} {
				for _, end := range []int{0, line, line + 2} {
					is := &issue.Issue{Line: line, EndLine: end, Language: []string{"", "c"}[n%2],
						Context: &issue.Snippet{StartLine: start, Lines: lines[len(lines)-count:]}}
					if got, want := codeBlock(is), codeBlockFmt(is); got != want {
						t.Fatalf("start %d, %d lines, line %d-%d:\n%q\nwant\n%q", start, count, line, end, got, want)
					}
					n++
				}
			}
		}
	}
}
