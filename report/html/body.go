package html

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"

	"github.com/jsec/jsec/issue"
	"github.com/jsec/jsec/report"
	"github.com/jsec/jsec/report/markdown"
)

// The page body is written straight from the report: the Markdown
// report's blocks (report/markdown) as goldmark, GitHub-flavoured, renders
// them, without the Markdown in between. goldmark took 4-5 ms of CPU on
// curl's 236 issues, the most of any report writer at the end of every
// scan; this takes a tenth of that. The output is goldmark's byte for
// byte wherever the report's text reads as plain text
// (TestBodyMatchesGoldmark, FuzzBodyMatchesGoldmark hold it to a
// conversion of report.md): the same elements, classes and heading ids,
// the ids generated as goldmark generates them from the Markdown heading
// lines. Where goldmark would have read Markdown into text the report
// escaped (an entity such as &amp;, ~strikethrough~, a description that
// opens with "1. " or four spaces) the body shows the text as it is.

// body renders the page body of r into b.
type body struct {
	b   *bytes.Buffer
	ids headingIDs
	sev string // the severity of the section being written, or ""
}

func writeBody(b *bytes.Buffer, r *report.Report) {
	w := &body{b: b, ids: headingIDs{values: map[string]bool{}, n: map[string]int{}}}
	// The Markdown's "# jsec report" heading is left out (the page header
	// replaces it), but it took its id.
	w.ids.generate("jsec report")
	w.header(r)
	w.summary(r)
	w.issues(r)
	w.skipped(r)
}

func (w *body) header(r *report.Report) {
	s := r.Summary
	w.b.WriteString("<p>Scanned ")
	w.code(markdown.Code(r.Tool.Root))
	w.b.WriteString(" with ")
	w.text(r.Tool.Name + " " + r.Tool.Version)
	fmt.Fprintf(w.b, ": %d files (%s) in %.1f s. ", s.FilesScanned, markdown.Size(s.BytesScanned), float64(s.DurationMS)/1000)
	fmt.Fprintf(w.b, "<strong>%d issues</strong>: %d critical, %d high, %d medium, %d low.", s.Total,
		s.BySeverity["critical"], s.BySeverity["high"], s.BySeverity["medium"], s.BySeverity["low"])
	if s.FilesSkipped > 0 {
		fmt.Fprintf(w.b, ` %d files skipped (see <a href="#skipped-files">Skipped files</a>).`, s.FilesSkipped)
	}
	w.b.WriteString("</p>\n")
}

func (w *body) summary(r *report.Report) {
	s := r.Summary
	w.heading(2, "Summary", func() { w.b.WriteString("Summary") })
	rows := make([][]string, 0, 4)
	for _, sev := range []string{"critical", "high", "medium", "low"} {
		rows = append(rows, []string{sev, strconv.Itoa(s.BySeverity[sev])})
	}
	w.countTable("Severity", rows)
	if v := s.Verification; v != nil {
		w.countTable("Verification ("+v.Model+")", [][]string{
			{"confirmed", strconv.Itoa(v.Confirmed)}, {"false positive", strconv.Itoa(v.FalsePositive)},
			{"uncertain", strconv.Itoa(v.Uncertain)}, {"error", strconv.Itoa(v.Error)}, {"unverified", strconv.Itoa(v.Unverified)}})
		fmt.Fprintf(w.b, "<p>%d candidates, %d tokens, %.1f s; %d verdicts reused from progress.jsonl.</p>\n",
			v.Candidates, v.Tokens, float64(v.DurationMS)/1000, v.Resumed)
	}
	for _, t := range []struct {
		title string
		m     map[string]int
	}{{"Language", s.ByLanguage}, {"Category", s.ByCategory}} {
		if len(t.m) == 0 {
			continue
		}
		var rows [][]string
		for _, k := range markdown.CountKeys(t.m) {
			rows = append(rows, []string{k, strconv.Itoa(t.m[k])})
		}
		w.countTable(t.title, rows)
	}
	if len(s.TopRiskFiles) > 0 {
		w.heading(3, "Top risk files", func() { w.b.WriteString("Top risk files") })
		w.b.WriteString("<table>\n<thead>\n<tr>\n<th>File</th>\n<th style=\"text-align:right\">Issues</th>\n<th style=\"text-align:right\">Score</th>\n</tr>\n</thead>\n<tbody>\n")
		for _, f := range s.TopRiskFiles {
			w.b.WriteString("<tr>\n")
			w.codeCell(f.File)
			fmt.Fprintf(w.b, "<td style=\"text-align:right\">%d</td>\n<td style=\"text-align:right\">%.2f</td>\n</tr>\n", f.Issues, f.Score)
		}
		w.b.WriteString("</tbody>\n</table>\n")
	}
}

// countTable writes a two-column table, a name and a right-aligned count.
func (w *body) countTable(title string, rows [][]string) {
	w.b.WriteString("<table>\n<thead>\n<tr>\n<th>")
	w.text(cellText(title))
	w.b.WriteString("</th>\n<th style=\"text-align:right\">Issues</th>\n</tr>\n</thead>\n<tbody>\n")
	for _, row := range rows {
		w.b.WriteString("<tr>\n")
		w.textCell(row[0])
		w.b.WriteString("<td style=\"text-align:right\">")
		w.b.WriteString(row[1])
		w.b.WriteString("</td>\n</tr>\n")
	}
	w.b.WriteString("</tbody>\n</table>\n")
}

func (w *body) issues(r *report.Report) {
	if len(r.Issues) == 0 {
		w.heading(2, "Issues", func() { w.b.WriteString("Issues") })
		w.b.WriteString("<p>No issues found.</p>\n")
		return
	}
	for _, sec := range markdown.Sections(r) {
		title := sec.Title()
		w.heading(2, title, func() { w.b.WriteString(title) })
		file := ""
		for _, is := range sec.Issues {
			if is.File != file {
				file = is.File
				c := markdown.Code(file)
				w.heading(3, "`"+c+"`", func() { w.code(c) })
			}
			w.issue(is)
		}
	}
}

func (w *body) issue(is *issue.Issue) {
	w.heading(4, markdown.Escape(is.Rule)+": "+markdown.Escape(is.Title), func() {
		w.text(strings.Trim(flat(is.Rule+": "+is.Title), " \t"))
	})
	w.b.WriteString("<p>")
	w.code(markdown.Code(is.File) + ":" + strconv.Itoa(is.Line))
	if is.Function != "" {
		w.b.WriteString(" in ")
		w.code(markdown.Code(is.Function))
	}
	w.b.WriteString(" · ")
	w.text(is.CWE)
	w.b.WriteString(" · ")
	w.text(is.Category)
	fmt.Fprintf(w.b, " · confidence %.2f · id ", is.Confidence)
	w.code(is.ID)
	w.b.WriteString("</p>\n")
	switch {
	case is.Suppressed != nil:
		w.para("<strong>Suppressed</strong> in source: ", is.Suppressed.Justification)
	case is.Baselined:
		w.b.WriteString("<p><strong>Baselined</strong>: already in the baseline report.</p>\n")
	case is.Dismissed():
		w.b.WriteString("<p><strong>Dismissed</strong> by the verifier (kept for the record; it does not fail the run).</p>\n")
	}
	if v := is.Verification; v != nil {
		lead := "<strong>Verification:</strong> "
		text := string(v.Verdict) + fmt.Sprintf(" (confidence %.2f)", v.Confidence)
		if v.Reason != "" {
			text += ": " + v.Reason
		}
		w.para(lead, text)
	}
	if d := strings.TrimLeft(flat(is.Description), " \t"); d != "" {
		w.para("", d)
	}
	if is.Context != nil && len(is.Context.Lines) > 0 {
		w.codeBlock(is)
	}
	if is.Suggestion != "" {
		w.para("<strong>Suggestion:</strong> ", is.Suggestion)
	}
}

// para writes a paragraph: lead (markup) and text, whose line breaks are
// spaces and whose trailing blanks are dropped, as in the Markdown.
func (w *body) para(lead, text string) {
	text = strings.TrimRight(flat(text), " \t")
	if text == "" {
		lead = strings.TrimRight(lead, " ") // and the lead's own
	}
	w.b.WriteString("<p>")
	w.b.WriteString(lead)
	w.raw(text)
	w.b.WriteString("</p>\n")
}

// codeBlock writes the issue's context lines, the flagged ones marked.
func (w *body) codeBlock(is *issue.Issue) {
	lang := is.Language
	if lang == "" {
		lang = "text"
	}
	w.b.WriteString(`<pre class="code"><code class="language-`)
	w.text(lang)
	w.b.WriteString(`">`)
	lines := markdown.CodeLines(is)
	for len(lines) > 0 {
		nl := strings.IndexByte(lines, '\n')
		line := lines[:nl]
		lines = lines[nl+1:]
		hit := strings.HasPrefix(line, ">")
		if hit {
			w.b.WriteString(`<mark class="hit">`)
		}
		w.raw(line)
		if hit {
			w.b.WriteString(`</mark>`)
		}
		w.b.WriteByte('\n')
	}
	w.b.WriteString("</code></pre>\n")
}

func (w *body) skipped(r *report.Report) {
	if len(r.Errors) == 0 {
		return
	}
	w.heading(2, "Skipped files", func() { w.b.WriteString("Skipped files") })
	w.b.WriteString("<table>\n<thead>\n<tr>\n<th>File</th>\n<th>Kind</th>\n<th>Reason</th>\n</tr>\n</thead>\n<tbody>\n")
	for _, e := range r.Errors {
		w.b.WriteString("<tr>\n")
		w.codeCell(e.File)
		w.textCell(e.Kind)
		w.textCell(markdown.SkipReason(e.Reason))
		w.b.WriteString("</tr>\n")
	}
	w.b.WriteString("</tbody>\n</table>\n")
}

// heading writes a heading of the given level whose Markdown text is md
// (from which its id is generated) and whose content content writes. A
// level 2 heading opens a section: a severity's gets the id and class
// sev-<severity>, and the issue headings (level 4) in it the classes
// "issue sev-<severity>".
func (w *body) heading(level int, md string, content func()) {
	id := w.ids.generate(md)
	class := ""
	switch level {
	case 2:
		first, _, _ := strings.Cut(md, " ")
		w.sev = severityName(first)
		if w.sev != "" {
			id, class = "sev-"+w.sev, "sev-"+w.sev
		}
	case 4:
		if w.sev != "" {
			class = "issue sev-" + w.sev
		}
	}
	fmt.Fprintf(w.b, "<h%d id=\"%s\"", level, id)
	if class != "" {
		fmt.Fprintf(w.b, " class=\"%s\"", class)
	}
	w.b.WriteByte('>')
	content()
	fmt.Fprintf(w.b, "</h%d>\n", level)
}

// textCell writes a table cell of text; one that names a severity gets
// the badge classes.
func (w *body) textCell(s string) {
	s = cellText(s)
	w.b.WriteString("<td")
	if sev := severityName(s); sev != "" {
		w.b.WriteString(` class="sev sev-` + sev + `"`)
	}
	w.b.WriteByte('>')
	w.text(s)
	w.b.WriteString("</td>\n")
}

// codeCell writes a table cell holding s as code.
func (w *body) codeCell(s string) {
	c := markdown.Code(s)
	w.b.WriteString("<td")
	if sev := severityName(codeSpanText(c)); sev != "" {
		w.b.WriteString(` class="sev sev-` + sev + `"`)
	}
	w.b.WriteByte('>')
	w.code(c)
	w.b.WriteString("</td>\n")
}

// cellText is s as a table cell shows it: one line, without the blanks
// around it.
func cellText(s string) string { return strings.Trim(flat(s), " \t") }

// code writes a code span holding c (markdown.Code's text): as goldmark
// does, one space is dropped from each end when both ends have one and c
// is not all blanks (spaces and tabs); an empty span is its two backticks
// as text.
func (w *body) code(c string) {
	if c == "" {
		w.b.WriteString("``")
		return
	}
	w.b.WriteString("<code>")
	w.raw(codeSpanText(c))
	w.b.WriteString("</code>")
}

func codeSpanText(c string) string {
	if len(c) >= 2 && c[0] == ' ' && c[len(c)-1] == ' ' && strings.Trim(c, " \t") != "" {
		return c[1 : len(c)-1]
	}
	return c
}

// text writes s as text, line breaks as spaces.
func (w *body) text(s string) { w.raw(flat(s)) }

// flat turns line breaks into spaces, as the Markdown does.
func flat(s string) string {
	if strings.ContainsAny(s, "\n\r") {
		return strings.NewReplacer("\n", " ", "\r", " ").Replace(s)
	}
	return s
}

// raw writes s escaped as goldmark escapes text: & < > " as character
// references, NUL as U+FFFD.
func (w *body) raw(s string) {
	last := 0
	for i := 0; i < len(s); i++ {
		var r string
		switch s[i] {
		case '&':
			r = "&amp;"
		case '<':
			r = "&lt;"
		case '>':
			r = "&gt;"
		case '"':
			r = "&quot;"
		case 0:
			r = "\uFFFD"
		default:
			continue
		}
		w.b.WriteString(s[last:i])
		w.b.WriteString(r)
		last = i + 1
	}
	w.b.WriteString(s[last:])
}

// headingIDs generates heading ids as goldmark's parser.WithAutoHeadingID
// does from a heading's Markdown text: its ASCII letters and digits
// lower-cased, blanks, '-' and '_' as '-', everything else dropped
// ("heading" when nothing is left), and a repeated id numbered "-1",
// "-2", ... through the document.
type headingIDs struct {
	values map[string]bool
	n      map[string]int
}

func (h *headingIDs) generate(md string) string {
	md = strings.Trim(md, " \t\n\r")
	var b strings.Builder
	for i := 0; i < len(md); {
		c := md[i]
		l := utf8Len(c)
		i += l
		if l != 1 {
			continue
		}
		switch {
		case c >= 'a' && c <= 'z' || c >= '0' && c <= '9':
			b.WriteByte(c)
		case c >= 'A' && c <= 'Z':
			b.WriteByte(c + 'a' - 'A')
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '-' || c == '_':
			b.WriteByte('-')
		}
	}
	id := b.String()
	if id == "" {
		id = "heading"
	}
	if !h.values[id] {
		h.values[id] = true
		return id
	}
	for i := h.n[id] + 1; ; i++ {
		next := id + "-" + strconv.Itoa(i)
		if !h.values[next] {
			h.values[next] = true
			h.n[id] = i
			return next
		}
	}
}

// utf8Len is goldmark's util.UTF8Len: the length of the UTF-8 sequence a
// byte starts, and 99 for a byte that starts none (the generator then
// skips 99 bytes, as goldmark's does).
func utf8Len(c byte) int {
	switch {
	case c < 0x80:
		return 1
	case c >= 0xc0 && c < 0xe0:
		return 2
	case c >= 0xe0 && c < 0xf0:
		return 3
	case c >= 0xf0 && c < 0xf8:
		return 4
	}
	return 99
}

// severityName returns the lower-case severity s names, or "".
func severityName(s string) string {
	switch l := strings.ToLower(strings.TrimSpace(s)); l {
	case "critical", "high", "medium", "low":
		return l
	}
	return ""
}
