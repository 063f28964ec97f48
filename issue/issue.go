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
	// Suppressed is set when a justified jsec:ignore directive covers the
	// issue; the issue stays in the report.
	Suppressed *Suppression `json:"suppressed,omitempty"`
	// Baselined is set when the issue already appears in the --baseline
	// report.
	Baselined bool `json:"baselined,omitempty"`
	// LineHash is GitHub's primaryLocationLineHash of the issue's line
	// (see HashLines), filled in by the scan while it had the file in
	// memory so that the SARIF writer need not read the file again. It is
	// not part of report.json.
	LineHash string `json:"-"`
}

// Suppression records why an issue is suppressed.
type Suppression struct {
	// Kind is "inSource" for a jsec:ignore comment (SARIF's vocabulary).
	Kind          string `json:"kind"`
	Justification string `json:"justification"`
}

// Dismissed reports whether the verifier rejected the issue in a way that
// takes it out of gating (a false positive on a rule that is not a
// policy rule).
func (is *Issue) Dismissed() bool { return is.Verification != nil && is.Verification.Dismissed }

// Gating reports whether the issue counts for --fail-on: it is not
// suppressed, not baselined and not dismissed by the verifier.
func (is *Issue) Gating() bool { return is.Suppressed == nil && !is.Baselined && !is.Dismissed() }

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
	DurationMS int64    `json:"duration_ms,omitempty"`
	Error      string   `json:"error,omitempty"`
	// Dismissed is set when the verdict is false_positive and the rule is
	// not a policy rule: the issue stays in the report, marked, but no
	// longer fails the build.
	Dismissed bool `json:"dismissed,omitempty"`
	// PolicyKept is set when the model called a policy rule's finding a
	// false positive: the verdict is recorded, the issue still counts.
	PolicyKept bool `json:"policy_kept,omitempty"`
}
