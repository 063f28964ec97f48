package html

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"

	"github.com/jsec/jsec/issue"
	"github.com/jsec/jsec/report"
	"github.com/jsec/jsec/report/markdown"
)

// The reference the page body is held to: goldmark's conversion of the
// Markdown report, as report.html was made before body.go wrote it
// directly. GFM without Linkify: the Markdown report escapes its text,
// and bare URLs in issue descriptions stay text rather than becoming
// links. Raw HTML is dropped (no html.WithUnsafe).
var converter = goldmark.New(
	goldmark.WithExtensions(extension.Table, extension.Strikethrough, extension.TaskList),
	goldmark.WithParserOptions(
		parser.WithAutoHeadingID(),
		parser.WithASTTransformers(util.Prioritized(severityClasses{}, 100)),
	),
	goldmark.WithRendererOptions(
		renderer.WithNodeRenderers(util.Prioritized(pageRenderer{}, 100)),
	),
)

// severityClasses adds the classes the style sheet colours by: each
// severity section's heading ("Critical (3)") gets id "sev-critical" and
// class "sev-critical", the issue headings under it the same class, and
// table cells that hold just a severity name a badge. The report's own
// "# jsec report" heading is removed: the page header replaces it.
type severityClasses struct{}

func (severityClasses) Transform(doc *ast.Document, reader text.Reader, pc parser.Context) {
	src := reader.Source()
	current := ""
	var drop []ast.Node
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *ast.Heading:
			switch {
			case n.Level == 1 && len(drop) == 0:
				drop = append(drop, n)
			case n.Level == 2:
				current = severityName(strings.SplitN(plainText(n, src), " ", 2)[0])
				if current != "" {
					n.SetAttributeString("id", "sev-"+current)
					n.SetAttributeString("class", "sev-"+current)
				}
			case n.Level == 4 && current != "":
				n.SetAttributeString("class", "issue sev-"+current)
			}
		case *east.TableCell:
			if s := severityName(plainText(n, src)); s != "" {
				n.SetAttributeString("class", "sev sev-"+s)
			}
		}
		return ast.WalkContinue, nil
	})
	for _, n := range drop {
		n.Parent().RemoveChild(n.Parent(), n)
	}
}

// plainText concatenates the text under n.
func plainText(n ast.Node, src []byte) string {
	var b strings.Builder
	_ = ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch c := c.(type) {
		case *ast.Text:
			b.Write(c.Segment.Value(src))
		case *ast.String:
			b.Write(c.Value)
		}
		return ast.WalkContinue, nil
	})
	return b.String()
}

// pageRenderer overrides two renderers: fenced code blocks mark the
// flagged lines (the Markdown prefixes them with ">"), and images render
// as their text, so the page never fetches one.
type pageRenderer struct{}

func (pageRenderer) RegisterFuncs(reg renderer.NodeRendererFuncRegisterer) {
	reg.Register(ast.KindFencedCodeBlock, renderCode)
	reg.Register(ast.KindImage, renderImage)
}

func renderCode(w util.BufWriter, src []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkContinue, nil
	}
	n := node.(*ast.FencedCodeBlock)
	_, _ = w.WriteString(`<pre class="code"><code`)
	if lang := n.Language(src); len(lang) > 0 {
		_, _ = w.WriteString(` class="language-`)
		_, _ = w.Write(util.EscapeHTML(lang))
		_ = w.WriteByte('"')
	}
	_ = w.WriteByte('>')
	lines := n.Lines()
	for i := 0; i < lines.Len(); i++ {
		seg := lines.At(i)
		line := bytes.TrimRight(seg.Value(src), "\n")
		hit := bytes.HasPrefix(line, []byte(">"))
		if hit {
			_, _ = w.WriteString(`<mark class="hit">`)
		}
		_, _ = w.Write(util.EscapeHTML(line))
		if hit {
			_, _ = w.WriteString(`</mark>`)
		}
		_ = w.WriteByte('\n')
	}
	_, _ = w.WriteString("</code></pre>\n")
	return ast.WalkSkipChildren, nil
}

func renderImage(w util.BufWriter, src []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if entering {
		_, _ = w.Write(util.EscapeHTML([]byte(plainText(node, src))))
	}
	return ast.WalkSkipChildren, nil
}

// goldmarkBody is the reference body of r: report.md converted by
// goldmark.
func goldmarkBody(t testing.TB, r *report.Report) string {
	t.Helper()
	var md, out bytes.Buffer
	if err := markdown.Write(&md, r); err != nil {
		t.Fatal(err)
	}
	if err := converter.Convert(md.Bytes(), &out); err != nil {
		t.Fatal(err)
	}
	return out.String()
}

func directBody(r *report.Report) string {
	var b bytes.Buffer
	writeBody(&b, r)
	return b.String()
}

// checkBody fails when the body written from r is not goldmark's
// conversion of r's Markdown report, showing the first difference.
func checkBody(t testing.TB, r *report.Report) {
	t.Helper()
	want, got := goldmarkBody(t, r), directBody(r)
	if got == want {
		return
	}
	i := 0
	for i < len(got) && i < len(want) && got[i] == want[i] {
		i++
	}
	from := max(0, i-120)
	t.Fatalf("body differs from goldmark's at byte %d:\n got: %q\nwant: %q", i, got[from:min(len(got), i+120)], want[from:min(len(want), i+120)])
}

func TestBodyMatchesGoldmark(t *testing.T) {
	verified := fixture()
	verified.Summary.Verification = &report.VerificationSummary{Model: "qwen_2.5 [local]", Candidates: 4, Confirmed: 1, FalsePositive: 1, Uncertain: 1, Unverified: 1, Tokens: 1234, DurationMS: 4321, Resumed: 2}
	verified.Issues[1].Verification = &issue.Verification{Verdict: issue.VerdictFalsePositive, Confidence: 0.8, Reason: "b is a float's bits"}
	// The same file in two sections and headings that repeat: numbered ids.
	repeats := fixture()
	repeats.Issues = append(repeats.Issues, repeats.Issues[0], repeats.Issues[1])
	repeats.Issues[4].Severity = issue.SeverityLow
	repeats.Summary = report.Summarize(repeats.Issues)
	odd := fixture()
	odd.Issues[0].File = "a dir/we|rd `name` é.c"
	odd.Issues[0].Function = " spaced "
	odd.Issues[1].File = "low"
	odd.Issues[1].Category = "High"
	odd.Issues[2].Description = "   "
	odd.Issues[2].Title = "trailing\tblanks  \t"
	odd.Issues[3].Suggestion = "line one\nline two\r\nand \\ a backslash, a *star* and _under_ {x} [y] <z> #h !b |p 'q' \"r\""
	odd.Issues[0].Context.Lines[1] = "\t``` & ~~x~~ <b> `` a"
	odd.Summary = report.Summarize(odd.Issues)
	odd.Errors = append(odd.Errors, report.Error{File: "x|y.c", Kind: "error", Reason: "panic: boom\ngoroutine 1 [running]:"}, report.Error{File: "z.c", Kind: "skipped"})
	empty := &report.Report{Tool: report.Tool{Name: "jsec", Version: "1.2.0"}, Summary: report.Summarize(nil)}
	for name, r := range map[string]*report.Report{
		"fixture": fixture(), "hostile": hostile(), "big": bigReport(300), "verified": verified,
		"repeats": repeats, "odd": odd, "empty": empty,
	} {
		t.Run(name, func(t *testing.T) { checkBody(t, r) })
	}
}

// The end-to-end project's report, as 'jsec scan' writes it.
func TestBodyMatchesGoldmarkE2E(t *testing.T) {
	r, err := report.ReadJSON(filepath.Join("..", "..", "testdata", "e2e", "golden", "report.json"))
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Issues) < 10 {
		t.Fatalf("%d issues in the e2e report", len(r.Issues))
	}
	checkBody(t, r)
}

// plain is the alphabet of the fuzzed texts: what the report's texts hold
// (letters, digits, blanks, line breaks, the punctuation the Markdown
// escapes, quotes, a two-byte letter) without what goldmark reads as
// Markdown through the escaping: & (entities) and ~ (strikethrough).
const plain = "abcXYZ019 \t\n.,:;/()-+=?@$%^'\"\\`*_{}[]<>#!|é"

// fuzzText maps b onto plain; lead keeps a paragraph from opening with
// what would start another block (a list marker, an indent).
func fuzzText(b []byte, lead bool) string {
	var s strings.Builder
	if lead {
		s.WriteString("T")
	}
	for _, c := range b {
		s.WriteString(string([]rune(plain)[int(c)%len([]rune(plain))]))
	}
	return s.String()
}

func FuzzBodyMatchesGoldmark(f *testing.F) {
	f.Add([]byte("gets() reads\xffinto buf\xffsrc/io.c\xffmain\xff\tgets(buf);\xff& ~ <"), uint8(3))
	f.Add([]byte("a|b\xff`x`\xff\\\xff#\xff   \xff\n"), uint8(200))
	f.Fuzz(func(t *testing.T, data []byte, seed uint8) {
		parts := bytes.Split(data, []byte{0xff})
		part := func(i int) []byte {
			if len(parts) == 0 {
				return nil
			}
			return parts[i%len(parts)]
		}
		r := fixture()
		for i := range r.Issues {
			is := &r.Issues[i]
			k := i * 7
			is.Title = fuzzText(part(k), false)
			is.Description = fuzzText(part(k+1), true)
			is.File = fuzzText(part(k+2), false)
			is.Function = fuzzText(part(k+3), false)
			is.Suggestion = fuzzText(part(k+4), false)
			is.Category = fuzzText(part(k+5), false)
			if is.Context != nil {
				// Code keeps &, ~ and all: a code block takes its lines as
				// they are. Not a carriage return: Markdown ends a line there.
				is.Context.Lines[1] = strings.NewReplacer("\r", "", "\n", "", "\x00", "").Replace(string(part(k + 6)))
			}
			if seed&(1<<i) != 0 {
				is.File = r.Issues[0].File // files in more than one section
			}
		}
		r.Issues[0].Verification.Reason = fuzzText(part(30), false)
		r.Issues[3].Suppressed.Justification = fuzzText(part(31), false)
		r.Errors[0].Reason = fuzzText(part(32), false)
		r.Errors[0].File = fuzzText(part(33), false)
		r.Tool.Root = fuzzText(part(34), false)
		r.Tool.Version = fuzzText(part(35), false)
		r.Summary = report.Summarize(r.Issues)
		r.Summary.FilesSkipped = 1
		checkBody(t, r)
	})
}
