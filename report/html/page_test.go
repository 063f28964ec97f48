package html

import (
	"bytes"
	"html/template"
	"testing"
)

// reference is the html/template the page used to be; render must write
// the same bytes for any report (text/template is kept out of the binary:
// see pageHead).
var reference = template.Must(template.New("page").Parse(`<!DOCTYPE html>
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

func referencePage(t *testing.T, d *pageData) []byte {
	t.Helper()
	var b bytes.Buffer
	err := reference.Execute(&b, struct {
		Title, Root, Tool, Duration string
		Style                       template.CSS
		Files, Total, Open, Closed  int
		Severities                  []sevCount
		Body                        template.HTML
	}{d.Title, d.Root, d.Tool, d.Duration, template.CSS(style), d.Files, d.Total, d.Open, d.Closed, d.Severities, template.HTML(d.Body)})
	if err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestPageMatchesTemplate(t *testing.T) {
	sevs := []sevCount{{"critical", 0}, {"high", 3}, {"medium", 12}, {"low", 0}}
	for _, d := range []pageData{
		{Title: "jsec report", Tool: "jsec 1.0", Duration: "0.0 s", Severities: sevs},
		{Title: "jsec report — /src/<a & b>", Root: "/src/<a & b>", Tool: "jsec v1+dirty", Duration: "12.3 s",
			Files: 2219, Total: 15, Open: 9, Closed: 6, Severities: sevs, Body: []byte("<h2 id=\"x\">Body &amp; more</h2>\n")},
		{Title: "t'\"\x00é", Root: "it's \"quoted\"\x00 + 日本", Tool: "<script>alert(1)</script>", Duration: "1 s",
			Files: 1, Total: 1, Open: 0, Closed: 1, Severities: []sevCount{{"high", 1}}, Body: []byte("<p>x</p>")},
	} {
		var got bytes.Buffer
		if err := d.render(&got); err != nil {
			t.Fatal(err)
		}
		if want := referencePage(t, &d); !bytes.Equal(got.Bytes(), want) {
			t.Errorf("page differs from the template's for %+v\ngot:\n%s\nwant:\n%s", d, got.Bytes(), want)
		}
	}
}

func FuzzEscapeText(f *testing.F) {
	f.Add("/src/<a & b>", "jsec 1.0+x")
	f.Add("it's \"q\"\x00", "")
	f.Fuzz(func(t *testing.T, root, tool string) {
		d := pageData{Title: "jsec report — " + root, Root: root, Tool: tool, Duration: "1.0 s",
			Severities: []sevCount{{"critical", 1}, {"low", 0}}, Total: 1, Open: 1}
		var got bytes.Buffer
		if err := d.render(&got); err != nil {
			t.Fatal(err)
		}
		if want := referencePage(t, &d); !bytes.Equal(got.Bytes(), want) {
			t.Fatalf("page differs from the template's for root %q tool %q", root, tool)
		}
	})
}
