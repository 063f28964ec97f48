package markdown

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/jsec/jsec/issue"
	"github.com/jsec/jsec/report"
)

// The report's layout, shared with report/html, which renders the same
// page from the same report without going through the Markdown.

// Section is one severity's issues in the order the report lists them:
// confirmed by the verifier first, false positives last, then by file
// and line.
type Section struct {
	Severity issue.Severity
	Issues   []*issue.Issue
}

// Title is the section's heading: "High (12)".
func (s Section) Title() string {
	name := s.Severity.String()
	return strings.ToUpper(name[:1]) + name[1:] + " (" + strconv.Itoa(len(s.Issues)) + ")"
}

// Sections groups r's issues by severity, most severe first; severities
// without issues have no section.
func Sections(r *report.Report) []Section {
	var out []Section
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
		out = append(out, Section{Severity: sev, Issues: group})
	}
	return out
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

// CountKeys returns the keys of a count map by count, then name: the rows
// of the language and category tables.
func CountKeys(m map[string]int) []string {
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
	return keys
}

// Size formats a byte count as the header does: "1.2 MB", "3.4 KB", "12 bytes".
func Size(n int64) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d bytes", n)
}

// SkipReason is the first line of a skip's reason (stack traces stay out
// of the table).
func SkipReason(reason string) string {
	if i := strings.IndexByte(reason, '\n'); i >= 0 {
		return reason[:i]
	}
	return reason
}

// CodeLines renders an issue's context lines as its code block shows
// them, each ending in a newline: a mark (">" on the flagged lines, " "
// elsewhere), the line number right-aligned, " | " and the line with tabs
// expanded to four spaces.
func CodeLines(is *issue.Issue) string {
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
	return body.String()
}
