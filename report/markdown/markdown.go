// Package markdown renders a report as Markdown: summary tables, then the
// issues grouped by severity and file, each with the code around it and
// the suggested fix, then the files that were skipped.
package markdown

import (
	"fmt"
	"io"
	"sort"
	"strconv"
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
		s.FilesScanned, size(s.BytesScanned), float64(s.DurationMS)/1000)
	fmt.Fprintf(b, "**%d issues**: %d critical, %d high, %d medium, %d low.", s.Total,
		s.BySeverity["critical"], s.BySeverity["high"], s.BySeverity["medium"], s.BySeverity["low"])
	if s.FilesSkipped > 0 {
		fmt.Fprintf(b, " %d files skipped (see [Skipped files](#skipped-files)).", s.FilesSkipped)
	}
	b.WriteString("\n\n")
}

func size(n int64) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d bytes", n)
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
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if m[keys[i]] != m[keys[j]] {
			return m[keys[i]] > m[keys[j]]
		}
		return keys[i] < keys[j]
	})
	fmt.Fprintf(b, "\n| %s | Issues |\n|---|---:|\n", title)
	for _, k := range keys {
		fmt.Fprintf(b, "| %s | %d |\n", Escape(k), m[k])
	}
}

// verdictRank orders verified issues: confirmed first, false positives last.
func verdictRank(is *issue.Issue) int {
	if is.Verification == nil {
		return 2
	}
	switch is.Verification.Verdict {
	case issue.VerdictConfirmed:
		return 0
	case issue.VerdictUncertain:
		return 1
	case issue.VerdictFalsePositive:
		return 4
	}
	return 3
}

func issues(b *strings.Builder, r *report.Report) {
	if len(r.Issues) == 0 {
		b.WriteString("## Issues\n\nNo issues found.\n\n")
		return
	}
	for sev := issue.SeverityCritical; sev >= issue.SeverityLow; sev-- {
		var group []*issue.Issue
		for i := range r.Issues {
			if r.Issues[i].Severity == sev {
				group = append(group, &r.Issues[i])
			}
		}
		if len(group) == 0 {
			continue
		}
		sort.SliceStable(group, func(i, j int) bool {
			a, c := group[i], group[j]
			if ra, rc := verdictRank(a), verdictRank(c); ra != rc {
				return ra < rc
			}
			if a.File != c.File {
				return a.File < c.File
			}
			return a.Line < c.Line
		})
		fmt.Fprintf(b, "## %s (%d)\n\n", strings.ToUpper(sev.String()[:1])+sev.String()[1:], len(group))
		file := ""
		for _, is := range group {
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
	width := len(strconv.Itoa(is.Context.StartLine + len(is.Context.Lines)))
	var body strings.Builder
	var num [24]byte
	for i, l := range is.Context.Lines {
		n := is.Context.StartLine + i
		mark := byte(' ')
		if n >= is.Line && n <= max(is.Line, is.EndLine) {
			mark = '>'
		}
		// "%s %*d | %s\n", without fmt: this runs for every context line
		// of every issue, on the way to report.md and report.html.
		body.WriteByte(mark)
		body.WriteByte(' ')
		d := strconv.AppendInt(num[:0], int64(n), 10)
		for range width - len(d) {
			body.WriteByte(' ')
		}
		body.Write(d)
		body.WriteString(" | ")
		for {
			tab := strings.IndexByte(l, '\t')
			if tab < 0 {
				break
			}
			body.WriteString(l[:tab])
			body.WriteString("    ")
			l = l[tab+1:]
		}
		body.WriteString(l)
		body.WriteByte('\n')
	}
	fence := strings.Repeat("`", max(3, longestRun(body.String(), '`')+1))
	lang := is.Language
	if lang == "" {
		lang = "text"
	}
	return fence + lang + "\n" + body.String() + fence + "\n\n"
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
		reason := e.Reason
		if i := strings.IndexByte(reason, '\n'); i >= 0 {
			reason = reason[:i] // keep stack traces out of the table
		}
		fmt.Fprintf(b, "| `%s` | %s | %s |\n", cell(code(e.File)), Escape(e.Kind), Escape(reason))
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

var codeEscaper = strings.NewReplacer("`", "'", "\n", " ", "\r", " ")

// cell protects a code span in a table cell: a pipe would end the cell
// (GFM requires the escape even inside code spans).
func cell(s string) string {
	return strings.ReplaceAll(s, "|", `\|`)
}
