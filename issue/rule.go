package issue

// RuleInfo is what a report needs to know about a rule: the catalogue row
// as plain data, so that report writers depend on this package only.
type RuleInfo struct {
	ID          string   `json:"id"`
	Title       string   `json:"title"`
	CWE         string   `json:"cwe"`
	Category    string   `json:"category"`
	Severity    Severity `json:"severity"`
	Confidence  float64  `json:"confidence"`
	Languages   []string `json:"languages"`
	Description string   `json:"description"`
	Suggestion  string   `json:"suggestion"`
	Doc         string   `json:"doc,omitempty"`
	Policy      bool     `json:"policy,omitempty"`
}
