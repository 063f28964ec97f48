package issue

import (
	"fmt"
	"strings"
)

// Severity ranks how bad a finding is if it is real. The zero value is
// "unset" and never appears in a report.
type Severity int

// Severities, lowest first, so that comparisons read naturally:
// s >= SeverityHigh means "high or critical".
const (
	SeverityLow Severity = iota + 1
	SeverityMedium
	SeverityHigh
	SeverityCritical
)

var severityNames = [...]string{"", "low", "medium", "high", "critical"}

// String returns the lower-case name used in reports and flags.
func (s Severity) String() string {
	if s < SeverityLow || s > SeverityCritical {
		return fmt.Sprintf("severity(%d)", int(s))
	}
	return severityNames[s]
}

// ParseSeverity parses a severity name (case-insensitive).
func ParseSeverity(name string) (Severity, error) {
	n := strings.ToLower(strings.TrimSpace(name))
	for i := SeverityLow; i <= SeverityCritical; i++ {
		if severityNames[i] == n {
			return i, nil
		}
	}
	return 0, fmt.Errorf("unknown severity %q (want critical, high, medium or low)", name)
}

// MarshalText implements encoding.TextMarshaler.
func (s Severity) MarshalText() ([]byte, error) {
	if s < SeverityLow || s > SeverityCritical {
		return nil, fmt.Errorf("invalid severity %d", int(s))
	}
	return []byte(severityNames[s]), nil
}

// UnmarshalText implements encoding.TextUnmarshaler.
func (s *Severity) UnmarshalText(b []byte) error {
	v, err := ParseSeverity(string(b))
	if err != nil {
		return err
	}
	*s = v
	return nil
}
