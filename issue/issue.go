package issue

// Issue is one finding as it appears in report.json. Field names and JSON
// keys are a contract (see DESIGN.md, "report.json"): add fields, never rename.
type Issue struct {
	// ID is the stable fingerprint (see Fingerprint): it survives code moving.
	ID       string `json:"id"`
	Rule     string `json:"rule"`
	Title    string `json:"title"`
	Language string `json:"language"`
	Category string `json:"category"`
	CWE      string `json:"cwe"`
	// File is relative to the scanned root and '/'-separated.
	File string `json:"file"`
	// Line and Column are 1-based; Column counts Unicode code points.
	Line      int `json:"line"`
	Column    int `json:"column"`
	EndLine   int `json:"end_line"`
	EndColumn int `json:"end_column"`
	// Function is the enclosing function, when known.
	Function string `json:"function,omitempty"`
	// Evidence is the flagged source line, whitespace-trimmed.
	Evidence    string   `json:"evidence"`
	Description string   `json:"description"`
	Suggestion  string   `json:"suggestion"`
	Confidence  float64  `json:"confidence"`
	Severity    Severity `json:"severity"`
	// Context holds a few source lines around the finding.
	Context *Snippet `json:"context,omitempty"`
	// Verification is set when the verifier has looked at the issue.
	Verification *Verification `json:"verification,omitempty"`
}

// Snippet is a run of source lines starting at StartLine (1-based).
type Snippet struct {
	StartLine int      `json:"start_line"`
	Lines     []string `json:"lines"`
}

// Verdict is the verifier's conclusion about one issue.
type Verdict string

// Verdicts a model may give, and the statuses the verifier adds for
// candidates that got no verdict.
const (
	VerdictConfirmed     Verdict = "confirmed"
	VerdictFalsePositive Verdict = "false_positive"
	VerdictUncertain     Verdict = "uncertain"
	VerdictError         Verdict = "error"
	VerdictUnverified    Verdict = "unverified"
)

// Verification is the verifier's record for one issue.
type Verification struct {
	Verdict    Verdict  `json:"verdict"`
	Confidence float64  `json:"confidence"`
	Reason     string   `json:"reason"`
	Model      string   `json:"model,omitempty"`
	Evidence   []string `json:"evidence,omitempty"`
	Severity   string   `json:"severity,omitempty"`
	Fix        string   `json:"fix,omitempty"`
	Turns      int      `json:"turns,omitempty"`
	Tokens     int      `json:"tokens,omitempty"`
	Error      string   `json:"error,omitempty"`
}
