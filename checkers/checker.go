package checkers

import (
	"sort"

	"github.com/jsec/jsec/checkers/syntax"
	"github.com/jsec/jsec/issue"
)

// Checker detects one family of flaws. It names the rules it may report
// and the identifiers that wake it; the engine calls Check once per
// occurrence of a trigger in code (never in comments, strings or #if 0),
// with the AST of the enclosing item parsed.
type Checker struct {
	// Name identifies the checker in diagnostics ("c/buffer").
	Name string
	// Rules lists every rule ID Check may report.
	Rules []string
	// Triggers are identifiers (function names, keywords, macros). A file
	// is parsed only where one occurs.
	Triggers []string
	// Triage, when set, looks at the tokens around a trigger and returns
	// false when the occurrence is certainly harmless, so that its item
	// need not be parsed. It must never drop an occurrence Check would
	// report: when in doubt, return true.
	Triage func(lx *Lexed, tok int) bool
	// Check inspects one occurrence and reports findings through p.
	Check func(p *Pass, h Hit)
}

// Hit is one occurrence of a trigger.
type Hit struct {
	Word string      // the trigger that matched
	Tok  int         // its token index in Pass.Lex
	Node syntax.Node // the leaf node at the token; zero if the parse lost it
}

// Finding is what a checker reports: a rule and a span of code, plus what
// it knows beyond the catalogue's defaults.
type Finding struct {
	Rule string
	Span Span
	// Message says what is wrong here; the rule's description is used
	// when it is empty.
	Message string
	// Adjust is added to the rule's base confidence (bounds evidence,
	// SAFETY comments and the like lower it; tainted input raises it).
	Adjust float64
	// Severity overrides the rule's default when set.
	Severity issue.Severity
	// Function names the enclosing function when the checker knows it
	// better than the engine (a tree it parsed itself); usually empty.
	Function string
}

// NodeSpan returns the byte span of n.
func NodeSpan(n syntax.Node) Span { return Span{n.Start(), n.End()} }

// Pass carries everything a checker may look at for one file.
type Pass struct {
	File *File
	Lex  *Lexed
	Tree *syntax.Tree
	// Item is the item that holds the current hit.
	Item *Item

	checker  *Checker
	findings []Finding
	memo     map[any]any
}

// Report records a finding. Reporting a rule the checker did not declare
// is a programming error and panics (the engine turns the panic into a
// file error, and the catalogue tests catch it first).
func (p *Pass) Report(f Finding) {
	declared := false
	for _, r := range p.checker.Rules {
		if r == f.Rule {
			declared = true
			break
		}
	}
	if !declared {
		panic("checker " + p.checker.Name + " reported undeclared rule " + f.Rule)
	}
	p.findings = append(p.findings, f)
}

// InTest reports whether the current item is test code: a test file, a
// Rust #[test] function or #[cfg(test)] module.
func (p *Pass) InTest() bool {
	if p.File.Test {
		return true
	}
	return p.Item != nil && p.Item.Test
}

// Memo returns the value cached under key for this file, computing it with
// f the first time. Checkers use it for per-function facts that several
// hits share.
func Memo[T any](p *Pass, key any, f func() T) T {
	if v, ok := p.memo[key]; ok {
		return v.(T)
	}
	if p.memo == nil {
		p.memo = map[any]any{}
	}
	v := f()
	p.memo[key] = v
	return v
}

// CommentBefore returns the text of the comments that end within maxLines
// lines before byte offset off, nearest last, for checks such as Rust's
// "// SAFETY:" convention.
func (p *Pass) CommentBefore(off, maxLines int) []string {
	lines := p.File.Lines()
	line := lines.Line(off)
	cs := p.Lex.Comments
	end := sort.Search(len(cs), func(i int) bool { return cs[i].End > off })
	start := end
	for start > 0 && line-lines.Line(cs[start-1].End) <= maxLines {
		start--
	}
	out := make([]string, 0, end-start)
	for _, c := range cs[start:end] {
		out = append(out, string(p.Lex.Src[c.Start:c.End]))
	}
	return out
}
