// Package html renders a report as one self-contained HTML page,
// report.html: the Markdown report (report/markdown) converted with
// goldmark, GitHub-flavoured tables and fenced code included, inside a
// page with inline CSS, a title, a summary header and severity colours.
//
// The page loads nothing from elsewhere and reads the same offline: no
// scripts, no fonts, no images, and a Content-Security-Policy that forbids
// any fetch should something slip in. Raw HTML in the Markdown is dropped
// (goldmark's safe default), so text taken from scanned code cannot add
// markup.
package html

import (
	"bytes"
	_ "embed"
	"fmt"
	"html/template"
	"io"

	"github.com/jsec/jsec/issue"
	"github.com/jsec/jsec/report"
	"github.com/jsec/jsec/report/markdown"
)

// FileName is the name 'jsec scan' gives the page in its output directory.
const FileName = "report.html"

//go:embed style.css
var style string

var page = template.Must(template.New("page").Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<meta name="referrer" content="no-referrer">
<title>{{.Title}}</title>
<style>
{{.Style}}</style>
</head>
<body>
<header class="summary"><div class="wrap">
<h1>jsec report</h1>
<p class="meta">{{if .Root}}<code>{{.Root}}</code> · {{end}}{{.Tool}} · {{.Files}} files · {{.Duration}}</p>
<ul class="counts">
<li class="total"><b>{{.Total}}</b> issues</li>
{{- range .Severities}}
<li class="sev sev-{{.Name}}{{if not .Count}} zero{{end}}">{{if .Count}}<a href="#sev-{{.Name}}">{{end}}<b>{{.Count}}</b> {{.Name}}{{if .Count}}</a>{{end}}</li>
{{- end}}
<li class="open" title="not suppressed, baselined or dismissed by the verifier: these count for --fail-on"><b>{{.Open}}</b> open{{if .Closed}} · {{.Closed}} suppressed, baselined or dismissed{{end}}</li>
</ul>
</div></header>
<main class="wrap">
{{.Body}}</main>
</body>
</html>
`))

type pageData struct {
	Title, Root, Tool, Duration string
	Style                       template.CSS
	Files, Total, Open, Closed  int
	Severities                  []sevCount
	Body                        template.HTML
}

type sevCount struct {
	Name  string
	Count int
}

// Write renders r as a self-contained HTML page.
func Write(w io.Writer, r *report.Report) error {
	var md bytes.Buffer
	if err := markdown.Write(&md, r); err != nil {
		return err
	}
	var body bytes.Buffer
	if err := converter.Convert(md.Bytes(), &body); err != nil {
		return fmt.Errorf("render markdown: %w", err)
	}
	d := pageData{
		Title:    "jsec report",
		Style:    template.CSS(style),
		Root:     r.Tool.Root,
		Tool:     nonEmpty(r.Tool.Name, "jsec") + " " + r.Tool.Version,
		Duration: fmt.Sprintf("%.1f s", float64(r.Summary.DurationMS)/1000),
		Files:    r.Summary.FilesScanned,
		Total:    len(r.Issues),
		// The Markdown was rendered by goldmark without raw HTML.
		Body: template.HTML(body.String()),
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
	return page.Execute(w, d)
}

func nonEmpty(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
