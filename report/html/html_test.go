package html

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	xhtml "golang.org/x/net/html"

	"github.com/jsec/jsec/issue"
	"github.com/jsec/jsec/report"
)

var update = flag.Bool("update", false, "rewrite testdata/golden/report.html")

func fixture() *report.Report {
	is := []issue.Issue{
		{ID: "1111", Rule: "c.buffer.gets", Title: "Use of gets", Language: "c", Category: "buffer_overflow", CWE: "CWE-242",
			File: "src/io.c", Line: 4, EndLine: 4, Function: "read_line", Severity: issue.SeverityCritical, Confidence: 0.95,
			Description: "gets() reads unbounded input into buf", Suggestion: "Use fgets(buf, sizeof buf, stdin).",
			Context:      &issue.Snippet{StartLine: 2, Lines: []string{"void read_line(void) {", "\tchar buf[8];", "\tgets(buf);", "}"}},
			Verification: &issue.Verification{Verdict: issue.VerdictConfirmed, Confidence: 0.9, Reason: "buf is 8 bytes"}},
		{ID: "2222", Rule: "rust.unsafe.transmute", Title: "transmute", Language: "rust", Category: "type_safety", CWE: "CWE-843",
			File: "lib.rs", Line: 9, EndLine: 9, Severity: issue.SeverityHigh, Confidence: 0.6, Description: "transmute from u32 to f32",
			Context: &issue.Snippet{StartLine: 8, Lines: []string{"fn f(b: u32) -> f32 {", "    unsafe { std::mem::transmute(b) }", "}"}}},
		{ID: "3333", Rule: "c.buffer.strcpy", Title: "Unbounded copy", Language: "c", Category: "buffer_overflow", CWE: "CWE-120",
			File: "src/io.c", Line: 12, EndLine: 12, Severity: issue.SeverityHigh, Confidence: 0.8, Description: "strcpy into name",
			Baselined: true},
		{ID: "4444", Rule: "c.crypto.rand", Title: "rand() for secrets", Language: "c", Category: "crypto", CWE: "CWE-338",
			File: "src/key.c", Line: 3, EndLine: 3, Severity: issue.SeverityLow, Confidence: 0.4, Description: "rand() seeds a key",
			Suppressed: &issue.Suppression{Kind: "inSource", Justification: "test key only"}},
	}
	r := &report.Report{Tool: report.Tool{Name: "jsec", Version: "1.2.0", Root: "proj"}, Issues: is, Summary: report.Summarize(is)}
	r.Summary.FilesScanned, r.Summary.BytesScanned, r.Summary.DurationMS = 12, 34567, 1250
	r.Errors = []report.Error{{File: "big.c", Reason: "file too large", Kind: "skipped"}}
	r.Summary.FilesSkipped = 1
	return r
}

// hostile puts markup, a URL and a fence into every text the report copies
// from the scanned code or the rules.
func hostile() *report.Report {
	r := fixture()
	is := &r.Issues[0]
	is.Title = "<b>bold</b> title"
	is.Description = `<script>alert(1)</script> <img src="https://evil.example/x.png"> see https://evil.example/doc ![x](https://evil.example/y.png)`
	is.Suggestion = `[click](https://evil.example/) <iframe src="https://evil.example/"></iframe>`
	is.File = `src/<i>x</i>.c`
	is.Function = "f</code><script>alert(2)</script>"
	is.Context.Lines[1] = "</code></pre><script>alert(3)</script> ``` <style>body{display:none}</style>"
	is.Verification.Reason = `<a href="https://evil.example/">reason</a>`
	r.Errors[0].Reason = "<object data=https://evil.example/></object>"
	return r
}

func render(t *testing.T, r *report.Report) (string, *xhtml.Node) {
	t.Helper()
	var b bytes.Buffer
	if err := Write(&b, r); err != nil {
		t.Fatal(err)
	}
	doc, err := xhtml.Parse(bytes.NewReader(b.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	return b.String(), doc
}

// elements returns the elements named tag ("" for all) under n.
func elements(n *xhtml.Node, tag string) []*xhtml.Node {
	var out []*xhtml.Node
	var walk func(*xhtml.Node)
	walk = func(n *xhtml.Node) {
		if n.Type == xhtml.ElementNode && (tag == "" || n.Data == tag) {
			out = append(out, n)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(n)
	return out
}

func attr(n *xhtml.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}

func hasClass(n *xhtml.Node, class string) bool {
	for _, c := range strings.Fields(attr(n, "class")) {
		if c == class {
			return true
		}
	}
	return false
}

func textOf(n *xhtml.Node) string {
	var b strings.Builder
	var walk func(*xhtml.Node)
	walk = func(n *xhtml.Node) {
		if n.Type == xhtml.TextNode {
			b.WriteString(n.Data)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(n)
	return b.String()
}

func TestStructure(t *testing.T) {
	_, doc := render(t, fixture())
	if titles := elements(doc, "title"); len(titles) != 1 || textOf(titles[0]) != "jsec report — proj" {
		t.Errorf("title: %v", titles)
	}
	if h1 := elements(doc, "h1"); len(h1) != 1 || textOf(h1[0]) != "jsec report" {
		t.Errorf("want one h1, got %d", len(h1))
	}
	ids := map[string]*xhtml.Node{}
	for _, n := range elements(doc, "") {
		if id := attr(n, "id"); id != "" {
			if ids[id] != nil {
				t.Errorf("id %q used twice", id)
			}
			ids[id] = n
		}
	}
	for _, sev := range []string{"critical", "high", "low"} {
		h := ids["sev-"+sev]
		if h == nil || h.Data != "h2" || !hasClass(h, "sev-"+sev) {
			t.Errorf("no h2#sev-%s with its class", sev)
		}
	}
	if ids["sev-medium"] != nil {
		t.Error("a section for a severity without issues")
	}
	var issues []string
	for _, h := range elements(doc, "h4") {
		if hasClass(h, "issue") {
			issues = append(issues, attr(h, "class"))
		}
	}
	if len(issues) != 4 || issues[0] != "issue sev-critical" || issues[3] != "issue sev-low" {
		t.Errorf("issue headings: %q", issues)
	}
	if ids["skipped-files"] == nil {
		t.Error("no Skipped files section to link to")
	}
	tables := elements(doc, "table")
	if len(tables) < 5 {
		t.Errorf("%d tables, want summary, language, category, top files and skipped files", len(tables))
	}
	badges := 0
	for _, td := range elements(doc, "td") {
		if hasClass(td, "sev") {
			badges++
		}
	}
	if badges != 4 {
		t.Errorf("%d severity cells, want 4", badges)
	}
	pres := elements(doc, "pre")
	if len(pres) != 2 {
		t.Fatalf("%d code blocks, want 2", len(pres))
	}
	code := elements(pres[0], "code")
	marks := elements(pres[0], "mark")
	if len(code) != 1 || attr(code[0], "class") != "language-c" || len(marks) != 1 || !strings.Contains(textOf(marks[0]), "gets(buf);") {
		t.Errorf("first code block: class %q, marks %d", attr(code[0], "class"), len(marks))
	}
	header := elements(doc, "header")
	if len(header) != 1 || !strings.Contains(textOf(header[0]), "4 issues") || !strings.Contains(textOf(header[0]), "1 critical") ||
		!strings.Contains(textOf(header[0]), "2 open · 2 suppressed, baselined or dismissed") {
		t.Errorf("summary header: %q", textOf(header[0]))
	}
}

// The page must read offline: nothing it would fetch, nothing it would
// run, and only links inside the page.
func TestSelfContained(t *testing.T) {
	for name, r := range map[string]*report.Report{"fixture": fixture(), "hostile": hostile()} {
		t.Run(name, func(t *testing.T) {
			out, doc := render(t, r)
			ids := map[string]bool{}
			for _, n := range elements(doc, "") {
				ids[attr(n, "id")] = true
			}
			for _, n := range elements(doc, "") {
				switch n.Data {
				case "script", "link", "img", "iframe", "object", "embed", "video", "audio", "source", "base", "form":
					t.Errorf("<%s> in the page", n.Data)
				}
				for _, a := range n.Attr {
					if a.Key == "src" || a.Key == "srcset" || a.Key == "data" || strings.HasPrefix(a.Key, "on") {
						t.Errorf("<%s %s=%q>", n.Data, a.Key, a.Val)
					}
					if strings.Contains(a.Val, "://") || strings.Contains(strings.ToLower(a.Val), "javascript:") {
						t.Errorf("<%s %s=%q> holds a URL", n.Data, a.Key, a.Val)
					}
				}
				if n.Data == "a" {
					href := attr(n, "href")
					if !strings.HasPrefix(href, "#") || !ids[href[1:]] {
						t.Errorf("link %q does not point inside the page", href)
					}
				}
			}
			styles := elements(doc, "style")
			if len(styles) != 1 || strings.Contains(textOf(styles[0]), "url(") || strings.Contains(textOf(styles[0]), "@import") {
				t.Errorf("want one inline style sheet without url() or @import, got %d", len(styles))
			}
			if !strings.Contains(out, `content="default-src 'none'; style-src 'unsafe-inline'"`) {
				t.Error("no Content-Security-Policy forbidding fetches")
			}
		})
	}
}

func TestRawHTMLDoesNotPassThrough(t *testing.T) {
	out, doc := render(t, hostile())
	main := elements(doc, "main")[0]
	for _, tag := range []string{"b", "i", "a", "iframe", "script", "object"} {
		for _, n := range elements(main, tag) {
			if tag != "a" || !strings.HasPrefix(attr(n, "href"), "#") {
				t.Errorf("<%s> from the report's text became markup: %q", tag, textOf(n))
			}
		}
	}
	if len(elements(doc, "style")) != 1 {
		t.Error("a <style> from the code became markup")
	}
	// The text is shown, escaped.
	body := textOf(main)
	for _, want := range []string{"<script>alert(1)</script>", "<b>bold</b> title", "https://evil.example/doc", "</code></pre><script>alert(3)</script>"} {
		if !strings.Contains(body, want) {
			t.Errorf("text %q is not shown", want)
		}
	}
	if strings.Contains(out, "<script>") {
		t.Error("an unescaped <script> in the output")
	}
}

func TestNoIssues(t *testing.T) {
	r := &report.Report{Tool: report.Tool{Name: "jsec", Version: "1.2.0"}, Summary: report.Summarize(nil)}
	_, doc := render(t, r)
	if body := textOf(elements(doc, "main")[0]); !strings.Contains(body, "No issues found.") {
		t.Errorf("body: %q", body)
	}
	for _, li := range elements(doc, "li") {
		if hasClass(li, "sev") && (!hasClass(li, "zero") || len(elements(li, "a")) != 0) {
			t.Errorf("a zero count links to a missing section: %q", textOf(li))
		}
	}
}

func TestGolden(t *testing.T) {
	got, _ := render(t, fixture())
	path := filepath.Join("testdata", "golden", FileName)
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs from the output; run go test ./report/html -update and review the diff", path)
	}
}
