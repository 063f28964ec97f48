package verify

import (
	"context"
	"fmt"
	"math"
	"strings"
	"sync"

	"github.com/jsec/jsec/agent/tool"
	"github.com/jsec/jsec/issue"
)

// VerdictArgs are submit_verdict's parameters.
type VerdictArgs struct {
	Verdict    string   `json:"verdict" enum:"confirmed,false_positive,uncertain" desc:"your conclusion"`
	Confidence float64  `json:"confidence" desc:"confidence in the verdict, 0 to 1"`
	Reason     string   `json:"reason" desc:"preconditions, trigger path and impact, or why it cannot happen"`
	Evidence   []string `json:"evidence,omitempty" desc:"short quotes copied verbatim from the code you read"`
	Severity   string   `json:"severity,omitempty" enum:"critical,high,medium,low" desc:"your severity, if it differs from the analyzer's"`
	Fix        string   `json:"fix,omitempty" desc:"the smallest correct change"`
}

// slot holds the verdict a candidate's agent submitted.
type slot struct {
	mu sync.Mutex
	v  *VerdictArgs
}

func (s *slot) get() *VerdictArgs {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.v
}

// verdictTool records the verdict after checking it against the schema's
// constraints; a bad verdict goes back to the model to repair.
func verdictTool(s *slot) tool.ReadOnlyTool {
	return tool.NewReadOnly("submit_verdict",
		"Submit your verdict on the finding. Call it exactly once, when you have decided; the conversation ends with it.",
		func(ctx context.Context, in VerdictArgs) (tool.Result, error) {
			if problem := validate(&in); problem != "" {
				return tool.Errorf("invalid verdict: %s. Call submit_verdict again with corrected arguments.", problem), nil
			}
			s.mu.Lock()
			defer s.mu.Unlock()
			if s.v != nil {
				return tool.Errorf("a verdict was already submitted"), nil
			}
			s.v = &in
			return tool.Text("verdict recorded"), nil
		})
}

func validate(v *VerdictArgs) string {
	switch v.Verdict {
	case "confirmed", "false_positive", "uncertain":
	default:
		return fmt.Sprintf("verdict %q must be confirmed, false_positive or uncertain", v.Verdict)
	}
	if math.IsNaN(v.Confidence) || v.Confidence < 0 || v.Confidence > 1 {
		return fmt.Sprintf("confidence %v must be between 0 and 1", v.Confidence)
	}
	v.Reason = strings.TrimSpace(v.Reason)
	if v.Reason == "" {
		return "reason is empty"
	}
	if len(v.Reason) > 4000 {
		v.Reason = v.Reason[:4000] + "…"
	}
	if v.Severity != "" {
		if _, err := issue.ParseSeverity(v.Severity); err != nil {
			return err.Error()
		}
	}
	if len(v.Evidence) > 10 {
		return "at most 10 evidence quotes"
	}
	for _, e := range v.Evidence {
		if len(e) > 1000 {
			return "an evidence quote is longer than 1000 bytes; quote less"
		}
	}
	return ""
}

// squash collapses white space so that quoting survives re-indentation.
func squash(s string) string { return strings.Join(strings.Fields(s), " ") }

// missingQuotes returns the evidence quotes found in none of the texts.
func missingQuotes(quotes []string, texts []string) []string {
	var sq []string
	for _, t := range texts {
		sq = append(sq, squash(t))
	}
	var missing []string
	for _, q := range quotes {
		q = squash(strings.Trim(strings.TrimSpace(q), "`"))
		if q == "" {
			continue
		}
		found := false
		for _, t := range sq {
			if strings.Contains(t, q) {
				found = true
				break
			}
		}
		if !found {
			missing = append(missing, q)
		}
	}
	return missing
}
