// Package sarif renders a report as SARIF 2.1.0, the format GitHub code
// scanning and most CI dashboards ingest. Only the subset of the schema
// jsec fills is modelled here.
package sarif

import (
	"encoding/json"
	"io"
	"net/url"
	"strings"

	"github.com/jsec/jsec/issue"
	"github.com/jsec/jsec/report"
)

// Schema and version of the documents Write produces.
const (
	SchemaURI = "https://json.schemastore.org/sarif-2.1.0.json"
	Version   = "2.1.0"
)

type log struct {
	Schema  string `json:"$schema"`
	Version string `json:"version"`
	Runs    []run  `json:"runs"`
}

type run struct {
	Tool               tool                   `json:"tool"`
	Results            []result               `json:"results"`
	ColumnKind         string                 `json:"columnKind"`
	OriginalURIBaseIDs map[string]artifactLoc `json:"originalUriBaseIds,omitempty"`
}

type tool struct {
	Driver driver `json:"driver"`
}

type driver struct {
	Name           string `json:"name"`
	Version        string `json:"version,omitempty"`
	SemanticVer    string `json:"semanticVersion,omitempty"`
	InformationURI string `json:"informationUri,omitempty"`
	Rules          []rule `json:"rules"`
}

type message struct {
	Text     string `json:"text"`
	Markdown string `json:"markdown,omitempty"`
}

type rule struct {
	ID                   string         `json:"id"`
	Name                 string         `json:"name"`
	ShortDescription     message        `json:"shortDescription"`
	FullDescription      message        `json:"fullDescription"`
	Help                 message        `json:"help"`
	HelpURI              string         `json:"helpUri,omitempty"`
	DefaultConfiguration map[string]any `json:"defaultConfiguration"`
	Properties           ruleProps      `json:"properties"`
}

type ruleProps struct {
	Tags             []string `json:"tags"`
	SecuritySeverity string   `json:"security-severity"`
	Precision        string   `json:"precision"`
	ProblemSeverity  string   `json:"problem.severity"`
}

type result struct {
	RuleID              string            `json:"ruleId"`
	RuleIndex           int               `json:"ruleIndex"`
	Level               string            `json:"level"`
	Message             message           `json:"message"`
	Locations           []location        `json:"locations"`
	PartialFingerprints map[string]string `json:"partialFingerprints"`
	Properties          map[string]any    `json:"properties,omitempty"`
}

type location struct {
	PhysicalLocation physicalLocation `json:"physicalLocation"`
}

type physicalLocation struct {
	ArtifactLocation artifactLoc `json:"artifactLocation"`
	Region           region      `json:"region"`
}

type artifactLoc struct {
	URI       string `json:"uri"`
	URIBaseID string `json:"uriBaseId,omitempty"`
}

type region struct {
	StartLine   int      `json:"startLine"`
	StartColumn int      `json:"startColumn"`
	EndLine     int      `json:"endLine,omitempty"`
	EndColumn   int      `json:"endColumn,omitempty"`
	Snippet     *message `json:"snippet,omitempty"`
}

// SecuritySeverity maps a severity onto GitHub's numeric scale (critical
// ≥ 9.0, high 7.0–8.9, medium 4.0–6.9, low < 4.0).
func SecuritySeverity(s issue.Severity) string {
	switch s {
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
	switch s {
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

// Write renders r as SARIF 2.1.0.
func Write(w io.Writer, r *report.Report) error {
	rules, index := ruleList(r)
	out := log{Schema: SchemaURI, Version: Version}
	rn := run{
		Tool: tool{Driver: driver{
			Name: r.Tool.Name, Version: r.Tool.Version, InformationURI: httpURL(r.Tool.InformationURI), Rules: rules,
		}},
		Results:    []result{},
		ColumnKind: "unicodeCodePoints",
	}
	for _, is := range r.Issues {
		rn.Results = append(rn.Results, toResult(is, index[is.Rule]))
	}
	out.Runs = []run{rn}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(out)
}

// ruleList builds driver.rules from r.Rules, adding a bare entry for any
// issue whose rule is missing, and returns each rule's index.
func ruleList(r *report.Report) ([]rule, map[string]int) {
	index := map[string]int{}
	var out []rule
	add := func(ri issue.RuleInfo) {
		if _, ok := index[ri.ID]; ok {
			return
		}
		index[ri.ID] = len(out)
		out = append(out, toRule(ri))
	}
	for _, ri := range r.Rules {
		add(ri)
	}
	for _, is := range r.Issues {
		add(issue.RuleInfo{ID: is.Rule, Title: is.Title, CWE: is.CWE, Category: is.Category,
			Severity: is.Severity, Confidence: is.Confidence, Description: is.Description, Suggestion: is.Suggestion})
	}
	if out == nil {
		out = []rule{}
	}
	return out, index
}

func toRule(ri issue.RuleInfo) rule {
	tags := []string{"security"}
	if ri.CWE != "" {
		tags = append(tags, "external/cwe/"+strings.ToLower(ri.CWE))
	}
	if ri.Category != "" {
		tags = append(tags, ri.Category)
	}
	help := ri.Description
	if ri.Doc != "" {
		help = ri.Doc
	}
	if ri.Suggestion != "" {
		help += "\n\n**Fix:** " + ri.Suggestion
	}
	return rule{
		ID: ri.ID, Name: name(ri.ID),
		ShortDescription:     message{Text: nonEmpty(ri.Title, ri.ID)},
		FullDescription:      message{Text: nonEmpty(ri.Description, ri.Title, ri.ID)},
		Help:                 message{Text: nonEmpty(help, ri.ID), Markdown: nonEmpty(help, ri.ID)},
		DefaultConfiguration: map[string]any{"level": Level(ri.Severity)},
		Properties: ruleProps{
			Tags: tags, SecuritySeverity: SecuritySeverity(ri.Severity),
			Precision: Precision(ri.Confidence), ProblemSeverity: problemSeverity(ri.Severity),
		},
	}
}

func problemSeverity(s issue.Severity) string {
	switch Level(s) {
	case "error":
		return "error"
	case "warning":
		return "warning"
	}
	return "recommendation"
}

func toResult(is issue.Issue, ruleIndex int) result {
	msg := is.Description
	if is.Suggestion != "" {
		msg += " Suggestion: " + is.Suggestion
	}
	reg := region{StartLine: max(1, is.Line), StartColumn: max(1, is.Column)}
	if is.EndLine >= reg.StartLine {
		reg.EndLine = is.EndLine
		if is.EndLine > reg.StartLine || is.EndColumn > reg.StartColumn {
			reg.EndColumn = max(1, is.EndColumn)
		}
	}
	if is.Evidence != "" {
		reg.Snippet = &message{Text: is.Evidence}
	}
	res := result{
		RuleID: is.Rule, RuleIndex: ruleIndex, Level: Level(is.Severity),
		Message: message{Text: nonEmpty(msg, is.Title, is.Rule)},
		Locations: []location{{PhysicalLocation: physicalLocation{
			ArtifactLocation: artifactLoc{URI: URI(is.File)},
			Region:           reg,
		}}},
		PartialFingerprints: map[string]string{"jsecId/v1": is.ID},
		Properties: map[string]any{
			"confidence": is.Confidence, "severity": is.Severity.String(),
		},
	}
	if is.Function != "" {
		res.Properties["function"] = is.Function
	}
	return res
}

// URI turns a root-relative path into a relative URI reference: forward
// slashes, no leading "./", percent-encoded where needed.
func URI(rel string) string {
	rel = strings.TrimPrefix(strings.ReplaceAll(rel, "\\", "/"), "./")
	parts := strings.Split(rel, "/")
	for i, p := range parts {
		parts[i] = url.PathEscape(p)
	}
	return strings.Join(parts, "/")
}

// httpURL returns u when it is an absolute http(s) URL, else "".
func httpURL(u string) string {
	p, err := url.Parse(u)
	if err != nil || (p.Scheme != "http" && p.Scheme != "https") || p.Host == "" {
		return ""
	}
	return u
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

func nonEmpty(s ...string) string {
	for _, x := range s {
		if strings.TrimSpace(x) != "" {
			return x
		}
	}
	return "(none)"
}
