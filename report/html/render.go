package html

import (
	"bytes"
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"

	"github.com/jsec/jsec/report/html/internal/gfm"
)

// converter turns the Markdown report into the page body. GFM without
// Linkify: the Markdown report escapes its text, and bare URLs in issue
// descriptions stay text rather than becoming links. Raw HTML is dropped
// (no html.WithUnsafe).
var converter = goldmark.New(
	goldmark.WithExtensions(gfm.Table, gfm.Strikethrough, gfm.TaskList),
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
	// A piece of a larger document (see convert) starts from the state the
	// pieces before it left, and leaves its own.
	st, _ := pc.Get(classStateKey).(*classState)
	if st == nil {
		st = &classState{}
	}
	current := st.current
	var drop []ast.Node
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *ast.Heading:
			switch {
			case n.Level == 1 && len(drop) == 0 && !st.dropped:
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
	st.current, st.dropped = current, st.dropped || len(drop) > 0
}

// severityName returns the lower-case severity s names, or "".
func severityName(s string) string {
	switch l := strings.ToLower(strings.TrimSpace(s)); l {
	case "critical", "high", "medium", "low":
		return l
	}
	return ""
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
