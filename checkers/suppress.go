package checkers

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/jsec/jsec/issue"
)

// DirectiveMarker starts an inline suppression in a comment:
//
//	strcpy(dst, src); // jsec:ignore c.buffer.strcpy -- src is checked by the caller
//
// A directive on a line of its own applies to the next line. It names one
// or more rules (comma-separated; a trailing "*" matches a prefix) and
// must give a reason after "--": a directive without one suppresses
// nothing and is reported, and so is a directive that matched nothing.
const DirectiveMarker = "jsec:ignore"

// Directive is one parsed jsec:ignore comment.
type Directive struct {
	Line   int // the directive's own line
	Target int // the line it applies to
	Rules  []string
	Reason string
	used   bool
}

func (d *Directive) matches(rule string) bool {
	for _, r := range d.Rules {
		if r == rule || strings.HasSuffix(r, "*") && strings.HasPrefix(rule, strings.TrimSuffix(r, "*")) {
			return true
		}
	}
	return false
}

// Directives finds the jsec:ignore comments of a file. lex is the file's
// language lexer; it is only run when the marker occurs at all.
func Directives(f *File, lex func([]byte) *Lexed) []*Directive {
	if !bytes.Contains(f.Src, []byte(DirectiveMarker)) {
		return nil
	}
	lx := lex(f.Src)
	lines := f.Lines()
	var out []*Directive
	for _, c := range lx.Comments {
		text := string(f.Src[c.Start:c.End])
		i := strings.Index(text, DirectiveMarker)
		if i < 0 {
			continue
		}
		rest := strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(text[i+len(DirectiveMarker):]), "*/"))
		d := &Directive{Line: lines.Line(c.Start + i)}
		ruleText, reason, _ := strings.Cut(rest, "--")
		d.Reason = strings.TrimSpace(reason)
		for _, r := range strings.FieldsFunc(ruleText, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' }) {
			d.Rules = append(d.Rules, r)
		}
		d.Target = d.Line
		if len(bytes.TrimSpace(f.Src[lines[lines.Line(c.Start)-1]:c.Start])) == 0 {
			d.Target = lines.Line(c.End) + 1 // a comment on its own line covers the next one
		}
		out = append(out, d)
	}
	return out
}

// Suppress marks the issues that justified directives cover and returns a
// problem report for every directive without a reason and every directive
// that suppressed nothing.
func Suppress(path string, issues []issue.Issue, ds []*Directive) []Skip {
	var problems []Skip
	for _, d := range ds {
		if d.Reason == "" || len(d.Rules) == 0 {
			continue
		}
		for i := range issues {
			is := &issues[i]
			if is.Suppressed == nil && is.Line == d.Target && d.matches(is.Rule) {
				is.Suppressed = &issue.Suppression{Kind: "inSource", Justification: d.Reason}
				d.used = true
			}
		}
	}
	for _, d := range ds {
		var reason string
		switch {
		case len(d.Rules) == 0:
			reason = fmt.Sprintf("line %d: jsec:ignore names no rule; write '// jsec:ignore <rule-id> -- <reason>'", d.Line)
		case d.Reason == "":
			reason = fmt.Sprintf("line %d: jsec:ignore %s has no reason and suppresses nothing; add '-- <why this is safe>'", d.Line, strings.Join(d.Rules, ","))
		case !d.used:
			reason = fmt.Sprintf("line %d: unused jsec:ignore %s: no such finding on line %d; remove the directive", d.Line, strings.Join(d.Rules, ","), d.Target)
		default:
			continue
		}
		problems = append(problems, Skip{Path: path, Reason: reason, Kind: "suppression"})
	}
	return problems
}
