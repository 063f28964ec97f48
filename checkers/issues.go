package checkers

import (
	"math"
	"strings"

	"github.com/jsec/jsec/issue"
	"github.com/jsec/jsec/rules"
)

// TestPenalty is subtracted from the confidence of findings in test code.
const TestPenalty = 0.25

// maxEvidence caps the evidence line.
const maxEvidence = 240

// ToIssues turns one file's findings into report issues: it joins the
// catalogue row of each rule, computes confidence, positions, evidence and
// context, drops findings below minConfidence or of rules that do not
// apply to the file's language, and assigns stable ids.
func ToIssues(f *File, found []Located, contextLines int, minConfidence float64) []issue.Issue {
	return toIssues(f, found, contextLines, minConfidence, nil)
}

func toIssues(f *File, found []Located, contextLines int, minConfidence float64, lookup func(string) *rules.Rule) []issue.Issue {
	if len(found) == 0 {
		return nil
	}
	if lookup == nil {
		lookup = rules.Lookup
	}
	lines := f.Lines()
	var out []issue.Issue
	var codes []string
	for _, l := range found {
		r := lookup(l.Rule)
		if r == nil || !r.AppliesTo(f.Lang) {
			continue
		}
		conf := r.Confidence + l.Adjust
		if l.Test {
			conf -= TestPenalty
		}
		conf = math.Round(math.Min(0.99, math.Max(0.05, conf))*100) / 100
		if conf < minConfidence {
			continue
		}
		sev := r.Severity
		if l.Severity != 0 {
			sev = l.Severity
		}
		start, end := l.Span.Start, l.Span.End
		if end < start {
			end = start
		}
		line, col := lines.Position(f.Src, start)
		endLine, endCol := lines.Position(f.Src, end)
		desc := l.Message
		if desc == "" {
			desc = r.Description
		}
		out = append(out, issue.Issue{
			Rule: r.ID, Title: r.Title, Language: f.Lang, Category: r.Category, CWE: r.CWEString(),
			File: f.Path, Line: line, Column: col, EndLine: endLine, EndColumn: endCol,
			// Checkers' strings may share the source's bytes (Lexed.Text,
			// Node.Text): copy what the issue keeps, so that a report does
			// not hold every flagged file in memory.
			Function: strings.Clone(l.Function), Evidence: strings.Clone(evidence(lines.Text(f.Src, line))),
			Description: strings.Clone(desc), Suggestion: r.Suggestion, Confidence: conf, Severity: sev,
			Context: snippet(f, lines, line, endLine, contextLines),
		})
		codes = append(codes, string(f.Src[start:end]))
	}
	assignIDs(out, codes)
	return out
}

// assignIDs gives each issue its fingerprint; issues that share rule,
// function and code are numbered in source order.
func assignIDs(is []issue.Issue, codes []string) {
	seen := map[string]int{}
	for i := range is {
		key := is[i].Rule + "\x00" + is[i].Function + "\x00" + issue.NormalizeCode(codes[i])
		n := seen[key]
		seen[key] = n + 1
		is[i].ID = issue.Fingerprint(is[i].Rule, is[i].File, is[i].Function, codes[i], n)
	}
}

func evidence(line string) string {
	s := strings.TrimSpace(line)
	if len(s) > maxEvidence {
		cut := maxEvidence
		for cut > 0 && s[cut]&0xC0 == 0x80 {
			cut--
		}
		s = s[:cut] + "…"
	}
	return s
}

func snippet(f *File, lines Lines, first, last, n int) *issue.Snippet {
	if n < 0 {
		return nil
	}
	from := max(1, first-n)
	to := min(len(lines), last+n)
	if to-from > 40 {
		to = from + 40
	}
	s := &issue.Snippet{StartLine: from}
	for l := from; l <= to; l++ {
		s.Lines = append(s.Lines, lines.Text(f.Src, l))
	}
	return s
}
