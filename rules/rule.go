// Package rules is jsec's rule catalogue: one row per rule with everything
// a report needs to know about it (ID, title, CWE, category, default
// severity and confidence, languages, description, suggestion, and the
// longer documentation embedded from docs/<id>.md).
//
// Checkers refer to rules by ID and never restate these facts; the report
// joins them in by ID. IDs are stable and never reused: a retired ID stays
// in the retired list for ever.
package rules

import (
	"encoding/json"
	"fmt"

	"github.com/jsec/jsec/issue"
)

// Rule is one catalogue row.
type Rule struct {
	ID    string
	Title string
	CWE   int
	// Category groups rules for summaries ("buffer_overflow", "injection").
	Category string
	Severity issue.Severity
	// Confidence is the base confidence (0..1) of a finding before the
	// checker's context adjustments.
	Confidence float64
	// Languages the rule applies to: "c", "cpp", "rust".
	Languages   []string
	Description string
	Suggestion  string
	// Policy marks rules whose findings are a policy decision (hard-coded
	// secrets, weak crypto, insecure randomness) that a verifier model is
	// not allowed to dismiss by default.
	Policy bool
	// Doc is the long-form documentation, from docs/<ID>.md.
	Doc string
}

// CWEString returns "CWE-<n>".
func (r *Rule) CWEString() string { return fmt.Sprintf("CWE-%d", r.CWE) }

// MarshalJSON renders the row as `jsec rules --format json` prints it.
func (r *Rule) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		ID          string         `json:"id"`
		Title       string         `json:"title"`
		CWE         string         `json:"cwe"`
		Category    string         `json:"category"`
		Severity    issue.Severity `json:"severity"`
		Confidence  float64        `json:"confidence"`
		Languages   []string       `json:"languages"`
		Description string         `json:"description"`
		Suggestion  string         `json:"suggestion"`
		Policy      bool           `json:"policy,omitempty"`
		Doc         string         `json:"doc"`
	}{r.ID, r.Title, r.CWEString(), r.Category, r.Severity, r.Confidence, r.Languages, r.Description, r.Suggestion, r.Policy, r.Doc})
}

// AppliesTo reports whether the rule covers language lang.
func (r *Rule) AppliesTo(lang string) bool {
	for _, l := range r.Languages {
		if l == lang {
			return true
		}
	}
	return false
}

// Categories, the vocabulary of Rule.Category.
const (
	CatBuffer         = "buffer_overflow"
	CatFormat         = "format_string"
	CatMemory         = "memory"
	CatNull           = "null_pointer"
	CatUninit         = "uninitialized"
	CatErrors         = "error_handling"
	CatInjection      = "injection"
	CatPath           = "path_traversal"
	CatSSRF           = "ssrf"
	CatCrypto         = "crypto"
	CatRandom         = "random"
	CatSecrets        = "secrets"
	CatRace           = "race_condition"
	CatConcurrency    = "concurrency"
	CatSignal         = "signal_safety"
	CatArithmetic     = "arithmetic"
	CatTypes          = "type_safety"
	CatResource       = "resource"
	CatInput          = "input_validation"
	CatDeserialize    = "deserialization"
	CatPermissions    = "permissions"
	CatDangerousAPI   = "dangerous_api"
	CatUnsafe         = "unsafe_code"
	CatFFI            = "ffi"
	CatPanic          = "panic"
	CatLogic          = "logic_error"
	CatResourceExhaus = "resource_exhaustion"
)

// Categories lists every valid category.
var Categories = []string{
	CatBuffer, CatFormat, CatMemory, CatNull, CatUninit, CatErrors, CatInjection, CatPath,
	CatSSRF, CatCrypto, CatRandom, CatSecrets, CatRace, CatConcurrency, CatSignal,
	CatArithmetic, CatTypes, CatResource, CatInput, CatDeserialize, CatPermissions,
	CatDangerousAPI, CatUnsafe, CatFFI, CatPanic, CatLogic, CatResourceExhaus,
}

// Language sets used by catalogue rows.
var (
	LangC    = []string{"c", "cpp"}
	LangCPP  = []string{"cpp"}
	LangRust = []string{"rust"}
)
