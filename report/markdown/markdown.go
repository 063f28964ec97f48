// Package markdown renders a report as Markdown: summary tables, then the
// issues grouped by severity and file, each with the code around it and
// the suggested fix, then the files that were skipped.
package markdown

import (
	"fmt"
	"io"
	"strings"

	"github.com/jsec/jsec/issue"
	"github.com/jsec/jsec/report"
)

// Write renders r.
func Write(w io.Writer, r *report.Report) error {
	b := &strings.Builder{}
	b.Grow(4096 + 1024*len(r.Issues)) // about 800 bytes per issue on curl, git, redis
	header(b, r)
	summary(b, r)
	issues(b, r)
	errorsSection(b, r)
	_, err := io.WriteString(w, b.String())
	return err
}

func header(b *strings.Builder, r *report.Report) {
	s := r.Summary
	fmt.Fprintf(b, "# jsec report\n\n")
	fmt.Fprintf(b, "Scanned `%s` with %s %s: %d files (%s) in %.1f s. ", code(r.Tool.Root), r.Tool.Name, Escape(r.Tool.Version),
		s.FilesScanned, Size(s.BytesScanned), float64(s.DurationMS)/1000)
	fmt.Fprintf(b, "**%d issues**: %d critical, %d high, %d medium, %d low.", s.Total,
		s.BySeverity["critical"], s.BySeverity["high"], s.BySeverity["medium"], s.BySeverity["low"])
	if s.FilesSkipped > 0 {
		fmt.Fprintf(b, " %d files skipped (see [Skipped files](#skipped-files)).", s.FilesSkipped)
	}
	b.WriteString("\n\n")
}

func summary(b *strings.Builder, r *report.Report) {
	s := r.Summary
	b.WriteString("## Summary\n\n| Severity | Issues |\n|---|---:|\n")
	for _, sev := range []string{"critical", "high", "medium", "low"} {
		fmt.Fprintf(b, "| %s | %d |\n", sev, s.BySeverity[sev])
	}
	if v := s.Verification; v != nil {
		fmt.Fprintf(b, "\n| Verification (%s) | Issues |\n|---|---:|\n", Escape(v.Model))
		for _, row := range []struct {
			name string
			n    int
		}{{"confirmed", v.Confirmed}, {"false positive", v.FalsePositive}, {"uncertain", v.Uncertain}, {"error", v.Error}, {"unverified", v.Unverified}} {
			fmt.Fprintf(b, "| %s | %d |\n", row.name, row.n)
		}
		fmt.Fprintf(b, "\n%d candidates, %d tokens, %.1f s; %d verdicts reused from progress.jsonl.\n", v.Candidates, v.Tokens, float64(v.DurationMS)/1000, v.Resumed)
	}
	table(b, "Language", s.ByLanguage)
	table(b, "Category", s.ByCategory)
	if len(s.TopRiskFiles) > 0 {
		b.WriteString("\n### Top risk files\n\n| File | Issues | Score |\n|---|---:|---:|\n")
		for _, f := range s.TopRiskFiles {
			fmt.Fprintf(b, "| `%s` | %d | %.2f |\n", cell(code(f.File)), f.Issues, f.Score)
		}
	}
	b.WriteString("\n")
}

// table renders a count map sorted by count, then name.
func table(b *strings.Builder, title string, m map[string]int) {
	if len(m) == 0 {
		return
	}
	fmt.Fprintf(b, "\n| %s | Issues |\n|---|---:|\n", title)
	for _, k := range CountKeys(m) {
		fmt.Fprintf(b, "| %s | %d |\n", Escape(k), m[k])
	}
}

func issues(b *strings.Builder, r *report.Report) {
	if len(r.Issues) == 0 {
		b.WriteString("## Issues\n\nNo issues found.\n\n")
		return
	}
	for _, sec := range Sections(r) {
		fmt.Fprintf(b, "## %s\n\n", sec.Title())
		file := ""
		for _, is := range sec.Issues {
			if is.File != file {
				file = is.File
				fmt.Fprintf(b, "### `%s`\n\n", code(file))
			}
			issueBlock(b, is)
		}
	}
}

func issueBlock(b *strings.Builder, is *issue.Issue) {
	fmt.Fprintf(b, "#### %s: %s\n\n", Escape(is.Rule), Escape(is.Title))
	where := fmt.Sprintf("`%s:%d`", code(is.File), is.Line)
	if is.Function != "" {
		where += fmt.Sprintf(" in `%s`", code(is.Function))
	}
	fmt.Fprintf(b, "%s · %s · %s · confidence %.2f · id `%s`\n\n", where, Escape(is.CWE), Escape(is.Category), is.Confidence, is.ID)
	switch {
	case is.Suppressed != nil:
		fmt.Fprintf(b, "**Suppressed** in source: %s\n\n", Escape(is.Suppressed.Justification))
	case is.Baselined:
		b.WriteString("**Baselined**: already in the baseline report.\n\n")
	case is.Dismissed():
		b.WriteString("**Dismissed** by the verifier (kept for the record; it does not fail the run).\n\n")
	}
	if v := is.Verification; v != nil {
		fmt.Fprintf(b, "**Verification:** %s (confidence %.2f)", Escape(string(v.Verdict)), v.Confidence)
		if v.Reason != "" {
			fmt.Fprintf(b, ": %s", Escape(v.Reason))
		}
		b.WriteString("\n\n")
	}
	fmt.Fprintf(b, "%s\n\n", Escape(is.Description))
	if is.Context != nil && len(is.Context.Lines) > 0 {
		b.WriteString(codeBlock(is))
	}
	if is.Suggestion != "" {
		fmt.Fprintf(b, "**Suggestion:** %s\n\n", Escape(is.Suggestion))
	}
}

// codeBlock renders the context lines with numbers, marking the flagged
// ones, in a fence longer than any backtick run inside.
func codeBlock(is *issue.Issue) string {
	body := CodeLines(is)
	fence := strings.Repeat("`", max(3, longestRun(body, '`')+1))
	lang := is.Language
	if lang == "" {
		lang = "text"
	}
	return fence + lang + "\n" + body + fence + "\n\n"
}

func longestRun(s string, c byte) int {
	best, cur := 0, 0
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			cur++
			best = max(best, cur)
		} else {
			cur = 0
		}
	}
	return best
}

func errorsSection(b *strings.Builder, r *report.Report) {
	if len(r.Errors) == 0 {
		return
	}
	fmt.Fprintf(b, "## Skipped files\n\n| File | Kind | Reason |\n|---|---|---|\n")
	for _, e := range r.Errors {
		fmt.Fprintf(b, "| `%s` | %s | %s |\n", cell(code(e.File)), Escape(e.Kind), Escape(SkipReason(e.Reason)))
	}
	b.WriteString("\n")
}

var mdEscaper = strings.NewReplacer(
	`\`, `\\`, "`", "\\`", "*", `\*`, "_", `\_`, "{", `\{`, "}", `\}`, "[", `\[`, "]", `\]`,
	"<", `\<`, ">", `\>`, "#", `\#`, "|", `\|`, "!", `\!`, "\n", " ", "\r", " ",
)

// Escape makes text safe to embed in a Markdown paragraph or heading.
func Escape(s string) string { return mdEscaper.Replace(s) }

// code makes text safe inside a single-backtick code span.
func code(s string) string { return codeEscaper.Replace(s) }

// Code is what a single-backtick code span of the report holds for s:
// backticks become ', line breaks spaces.
func Code(s string) string { return code(s) }

var codeEscaper = strings.NewReplacer("`", "'", "\n", " ", "\r", " ")

// cell protects a code span in a table cell: a pipe would end the cell
// (GFM requires the escape even inside code spans).
func cell(s string) string {
	return strings.ReplaceAll(s, "|", `\|`)
}
