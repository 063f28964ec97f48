package config

import (
	"fmt"
	"strings"
)

// Problem is one thing wrong with a config file: where it is, what it is
// and how to fix it. Load returns its problems joined with errors.Join;
// errors.As finds the first.
type Problem struct {
	File string
	// Line is 1-based; 0 when the problem has no line (an unreadable file).
	Line int
	Msg  string
	Fix  string
	// Err is the underlying error, if any (fs.ErrNotExist for a missing
	// file), for errors.Is.
	Err error
}

// Error renders "<file>:<line>: <problem>; <fix>".
func (p *Problem) Error() string {
	var b strings.Builder
	b.WriteString(p.File)
	if p.Line > 0 {
		fmt.Fprintf(&b, ":%d", p.Line)
	}
	b.WriteString(": ")
	b.WriteString(p.Msg)
	if p.Fix != "" {
		b.WriteString("; ")
		b.WriteString(p.Fix)
	}
	return b.String()
}

// Unwrap returns the underlying error.
func (p *Problem) Unwrap() error { return p.Err }
