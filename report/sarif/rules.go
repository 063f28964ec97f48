package sarif

import (
	"regexp"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/jsec/jsec/issue"
	"github.com/jsec/jsec/report"
)

type rule struct {
	ID                   string        `json:"id"`
	Name                 string        `json:"name"`
	ShortDescription     message       `json:"shortDescription"`
	FullDescription      message       `json:"fullDescription"`
	Help                 message       `json:"help"`
	HelpURI              string        `json:"helpUri,omitempty"`
	DefaultConfiguration configuration `json:"defaultConfiguration"`
	Properties           ruleProps     `json:"properties"`
}

type configuration struct {
	Level string `json:"level"`
}

type ruleProps struct {
	Tags             []string `json:"tags"`
	SecuritySeverity string   `json:"security-severity"`
	Precision        string   `json:"precision"`
	ProblemSeverity  string   `json:"problem.severity"`
}

// GitHub's limits on rule text (longer values are cut, with an ellipsis).
const (
	maxDescription = 1024
	maxName        = 255
	maxTags        = 20
)

// SecuritySeverity maps a severity onto GitHub's numeric scale (critical
// ≥ 9.0, high 7.0–8.9, medium 4.0–6.9, low < 4.0), as the string GitHub
// wants.
func SecuritySeverity(s issue.Severity) string {
	switch severityOf(s) {
	case issue.SeverityCritical:
		return "9.5"
	case issue.SeverityHigh:
		return "8.0"
	case issue.SeverityMedium:
		return "5.5"
	}
	return "3.0"
}

// Level maps a severity onto a SARIF result level.
func Level(s issue.Severity) string {
	switch severityOf(s) {
	case issue.SeverityCritical, issue.SeverityHigh:
		return "error"
	case issue.SeverityMedium:
		return "warning"
	}
	return "note"
}

// Precision maps a confidence onto SARIF's precision vocabulary.
func Precision(c float64) string {
	switch {
	case c >= 0.9:
		return "very-high"
	case c >= 0.75:
		return "high"
	case c >= 0.5:
		return "medium"
	}
	return "low"
}

// ruleList builds driver.rules from r.Rules, adding an entry made from
// the issue for any rule r.Rules lacks, and returns each rule's index.
func ruleList(r *report.Report, helpURI func(string) string) ([]rule, map[string]int) {
	index := map[string]int{}
	out := []rule{}
	add := func(ri issue.RuleInfo) {
		if _, ok := index[ri.ID]; ok {
			return
		}
		index[ri.ID] = len(out)
		rl := toRule(ri)
		if helpURI != nil {
			rl.HelpURI = httpURL(helpURI(ri.ID))
		}
		out = append(out, rl)
	}
	for _, ri := range r.Rules {
		add(ri)
	}
	for _, is := range r.Issues {
		add(issue.RuleInfo{ID: is.Rule, Title: is.Title, CWE: is.CWE, Category: is.Category,
			Severity: is.Severity, Confidence: is.Confidence, Description: is.Description, Suggestion: is.Suggestion})
	}
	return out, index
}

func toRule(ri issue.RuleInfo) rule {
	text, markdown := help(ri)
	return rule{
		ID:                   ri.ID,
		Name:                 cut(name(ri.ID), maxName),
		ShortDescription:     message{Text: cut(firstLine(nonEmpty(ri.Title, ri.Description, ri.ID)), maxDescription)},
		FullDescription:      message{Text: cut(nonEmpty(ri.Description, ri.Title, ri.ID), maxDescription)},
		Help:                 message{Text: text, Markdown: markdown},
		DefaultConfiguration: configuration{Level: Level(ri.Severity)},
		Properties: ruleProps{
			Tags: tags(ri), SecuritySeverity: SecuritySeverity(ri.Severity),
			Precision: Precision(ri.Confidence), ProblemSeverity: problemSeverity(ri.Severity),
		},
	}
}

// help renders the rule's documentation as plain text and as Markdown:
// the long doc (or the description), the fix, and the CWE entries.
func help(ri issue.RuleInfo) (text, markdown string) {
	body := nonEmpty(ri.Doc, ri.Description, ri.Title, ri.ID)
	text, markdown = body, body
	if ri.Doc != "" && ri.Description != "" {
		text = ri.Description + "\n\n" + ri.Doc
		markdown = ri.Description + "\n\n" + ri.Doc
	}
	if ri.Suggestion != "" {
		text += "\n\nFix: " + ri.Suggestion
		markdown += "\n\n**Fix:** " + ri.Suggestion
	}
	if ids := cweIDs(ri.CWE); len(ids) > 0 {
		var links []string
		for _, id := range ids {
			links = append(links, "[CWE-"+id+"](https://cwe.mitre.org/data/definitions/"+id+".html)")
		}
		text += "\n\nCWE: CWE-" + strings.Join(ids, ", CWE-")
		markdown += "\n\n**References:** " + strings.Join(links, ", ")
	}
	return text, markdown
}

// tags are "security", one "external/cwe/cwe-N" per CWE, the category,
// and "policy" for rules whose findings a verifier cannot dismiss.
func tags(ri issue.RuleInfo) []string {
	out := []string{"security"}
	seen := map[string]bool{"security": true}
	add := func(t string) {
		if t != "" && !seen[t] && len(out) < maxTags {
			seen[t] = true
			out = append(out, t)
		}
	}
	for _, id := range cweIDs(ri.CWE) {
		add("external/cwe/cwe-" + id)
	}
	add(ri.Category)
	if ri.Policy {
		add("policy")
	}
	return out
}

var cweRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i)\bCWE-?(\d+)\b`) })

// cweIDs returns the CWE numbers in s ("CWE-120", "CWE-120, CWE-787").
func cweIDs(s string) []string {
	var out []string
	for _, m := range cweRE().FindAllStringSubmatch(s, -1) {
		out = append(out, m[1])
	}
	return out
}

func problemSeverity(s issue.Severity) string {
	if l := Level(s); l != "note" {
		return l
	}
	return "recommendation"
}

// name turns "c.buffer.strcpy" into "CBufferStrcpy", SARIF's rule name.
func name(id string) string {
	var b strings.Builder
	up := true
	for _, r := range id {
		if r == '.' || r == '-' || r == '_' {
			up = true
			continue
		}
		if up {
			b.WriteString(strings.ToUpper(string(r)))
			up = false
		} else {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// cut shortens s to at most n characters, ending it with an ellipsis.
func cut(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}
