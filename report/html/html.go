// Package html renders a report as one self-contained HTML page,
// report.html: the Markdown report's content (report/markdown) as
// goldmark renders it, GitHub-flavoured tables and fenced code included
// (body.go writes it straight from the report), inside a page with inline
// CSS, a title, a summary header and severity colours.
//
// The page loads nothing from elsewhere and reads the same offline: no
// scripts, no fonts, no images, and a Content-Security-Policy that forbids
// any fetch should something slip in. Every text taken from the report is
// escaped, so text taken from scanned code cannot add markup.
package html

import (
	"bytes"
	_ "embed"
	"fmt"
	"io"

	"github.com/jsec/jsec/issue"
	"github.com/jsec/jsec/report"
)

// FileName is the name 'jsec scan' gives the page in its output directory.
const FileName = "report.html"

//go:embed style.css
var style string

// The page around the body. It was an html/template; it is written
// directly because text/template's reflective method calls make the Go
// linker keep every exported method of every type in the binary (the LLM
// SDKs' thousands among them): 75 MB and 25 ms more start-up per command.
// escapeText escapes exactly as html/template did in these places.
const (
	pageHead = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<meta name="referrer" content="no-referrer">
<title>`
	pageStyle = `</title>
<style>
`
	pageHeader = `</style>
</head>
<body>
<header class="summary"><div class="wrap">
<h1>jsec report</h1>
<p class="meta">`
	pageTail = `</main>
</body>
</html>
`
)

type pageData struct {
	Title, Root, Tool, Duration string
	Files, Total, Open, Closed  int
	Severities                  []sevCount
	Body                        []byte // trusted HTML: writeBody's
}

type sevCount struct {
	Name  string
	Count int
}

// render writes the page; every string from the report goes through
// escapeText.
func (d *pageData) render(w io.Writer) error {
	var b bytes.Buffer
	b.Grow(len(style) + 2048)
	b.WriteString(pageHead)
	escapeText(&b, d.Title)
	b.WriteString(pageStyle)
	b.WriteString(style)
	b.WriteString(pageHeader)
	if d.Root != "" {
		b.WriteString("<code>")
		escapeText(&b, d.Root)
		b.WriteString("</code> · ")
	}
	escapeText(&b, d.Tool)
	fmt.Fprintf(&b, " · %d files · ", d.Files)
	escapeText(&b, d.Duration)
	fmt.Fprintf(&b, "</p>\n<ul class=\"counts\">\n<li class=\"total\"><b>%d</b> issues</li>", d.Total)
	for _, s := range d.Severities {
		b.WriteString("\n<li class=\"sev sev-")
		escapeText(&b, s.Name)
		if s.Count == 0 {
			b.WriteString(" zero\"><b>0</b> ")
			escapeText(&b, s.Name)
			b.WriteString("</li>")
			continue
		}
		b.WriteString("\"><a href=\"#sev-")
		escapeText(&b, s.Name)
		fmt.Fprintf(&b, "\"><b>%d</b> ", s.Count)
		escapeText(&b, s.Name)
		b.WriteString("</a></li>")
	}
	fmt.Fprintf(&b, "\n<li class=\"open\" title=\"not suppressed, baselined or dismissed by the verifier: these count for --fail-on\"><b>%d</b> open", d.Open)
	if d.Closed != 0 {
		fmt.Fprintf(&b, " · %d suppressed, baselined or dismissed", d.Closed)
	}
	b.WriteString("</li>\n</ul>\n</div></header>\n<main class=\"wrap\">\n")
	// The body, the largest part, goes to w as it is rather than copied.
	for _, part := range [][]byte{b.Bytes(), d.Body, []byte(pageTail)} {
		if _, err := w.Write(part); err != nil {
			return err
		}
	}
	return nil
}

// escapeText writes s escaped for HTML text and quoted attribute values,
// with html/template's table: NUL becomes U+FFFD, and " & ' + < > become
// character references.
func escapeText(b *bytes.Buffer, s string) {
	last := 0
	for i := 0; i < len(s); i++ {
		var r string
		switch s[i] {
		case 0:
			r = "\uFFFD"
		case '"':
			r = "&#34;"
		case '&':
			r = "&amp;"
		case '\'':
			r = "&#39;"
		case '+':
			r = "&#43;"
		case '<':
			r = "&lt;"
		case '>':
			r = "&gt;"
		default:
			continue
		}
		b.WriteString(s[last:i])
		b.WriteString(r)
		last = i + 1
	}
	b.WriteString(s[last:])
}

// Write renders r as a self-contained HTML page.
func Write(w io.Writer, r *report.Report) error {
	var body bytes.Buffer
	body.Grow(4096 + 1024*len(r.Issues))
	writeBody(&body, r)
	d := pageData{
		Title:    "jsec report",
		Root:     r.Tool.Root,
		Tool:     nonEmpty(r.Tool.Name, "jsec") + " " + r.Tool.Version,
		Duration: fmt.Sprintf("%.1f s", float64(r.Summary.DurationMS)/1000),
		Files:    r.Summary.FilesScanned,
		Total:    len(r.Issues),
		Body:     body.Bytes(),
	}
	if r.Tool.Root != "" {
		d.Title += " — " + r.Tool.Root
	}
	counts := map[issue.Severity]int{}
	for i := range r.Issues {
		counts[r.Issues[i].Severity]++
		if r.Issues[i].Gating() {
			d.Open++
		}
	}
	d.Closed = d.Total - d.Open
	for s := issue.SeverityCritical; s >= issue.SeverityLow; s-- {
		d.Severities = append(d.Severities, sevCount{Name: s.String(), Count: counts[s]})
	}
	return d.render(w)
}

func nonEmpty(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
