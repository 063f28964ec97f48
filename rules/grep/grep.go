// Package grep is jsec's line-oriented regular-expression search: Go's
// RE2 semantics with a literal prefilter, so that a search through a large
// tree costs a multi-literal scan plus a regexp run on the few lines that
// can match.
//
// # Design
//
// From the parsed expression Compile derives a set of literals at least
// one of which every match must contain (the required literals of a
// concatenation's most selective part, the union over an alternation's
// branches). The rules/lit automaton finds those literals in one pass;
// only the lines that hold one are handed to the regexp. An expression
// with no such literal (".*", "[a-z]+") falls back to a regexp run per
// line.
package grep

import (
	"bytes"
	"regexp"
	"regexp/syntax"

	"github.com/jsec/jsec/rules/lit"
)

// Pattern is a compiled search, safe for concurrent use.
type Pattern struct {
	re      *regexp.Regexp
	filter  *lit.Matcher // nil: no prefilter, test every line
	literal []string
}

// Compile compiles a Go regular expression (RE2 syntax).
func Compile(expr string) (*Pattern, error) {
	re, err := regexp.Compile(expr)
	if err != nil {
		return nil, err
	}
	p := &Pattern{re: re}
	tree, err := syntax.Parse(expr, syntax.Perl)
	if err != nil {
		return p, nil
	}
	lits, fold, ok := required(tree.Simplify())
	if ok && len(lits) > 0 && len(lits) <= 256 {
		p.literal = lits
		p.filter = lit.New(lits, lit.Options{FoldASCII: fold})
	}
	return p, nil
}

// Literals returns the prefilter literals, for tests and diagnostics.
func (p *Pattern) Literals() []string { return p.literal }

// Match is one matching line.
type Match struct {
	Line int    // 1-based
	Text []byte // the line without its newline
	// Start and End are the byte offsets in the searched source of the
	// first match on the line.
	Start, End int
}

// Search calls fn for each line of src that matches, in order, until fn
// returns false.
func (p *Pattern) Search(src []byte, fn func(Match) bool) {
	if p.filter == nil {
		line := 1
		for start := 0; start <= len(src); {
			end := bytes.IndexByte(src[start:], '\n')
			if end < 0 {
				end = len(src)
			} else {
				end += start
			}
			if start == len(src) && start > 0 {
				return
			}
			if loc := p.re.FindIndex(src[start:end]); loc != nil && !fn(Match{Line: line, Text: src[start:end], Start: start + loc[0], End: start + loc[1]}) {
				return
			}
			start = end + 1
			line++
		}
		return
	}
	lastLine := -1
	lineNo, lineStart := 1, 0 // running count up to lineStart
	p.filter.Scan(src, func(m lit.Match) bool {
		if m.Start < lastLine {
			return true // this line was already tested
		}
		// Advance the line counter to the line holding m.Start.
		s := bytes.LastIndexByte(src[:m.Start], '\n') + 1
		lineNo += bytes.Count(src[lineStart:s], []byte{'\n'})
		lineStart = s
		e := bytes.IndexByte(src[m.Start:], '\n')
		if e < 0 {
			e = len(src)
		} else {
			e += m.Start
		}
		lastLine = e + 1
		loc := p.re.FindIndex(src[s:e])
		return loc == nil || fn(Match{Line: lineNo, Text: src[s:e], Start: s + loc[0], End: s + loc[1]})
	})
}

// required returns literals one of which every match contains; fold is
// set when they must be matched case-insensitively; ok is false when no
// such set is known.
func required(re *syntax.Regexp) (lits []string, fold, ok bool) {
	switch re.Op {
	case syntax.OpLiteral:
		if len(re.Rune) == 0 {
			return nil, false, false
		}
		return []string{string(re.Rune)}, re.Flags&syntax.FoldCase != 0, true
	case syntax.OpCapture:
		return required(re.Sub[0])
	case syntax.OpPlus:
		return required(re.Sub[0])
	case syntax.OpRepeat:
		if re.Min >= 1 {
			return required(re.Sub[0])
		}
	case syntax.OpConcat:
		best, bestFold, found := []string(nil), false, false
		for _, sub := range re.Sub {
			l, f, ok := required(sub)
			if ok && (!found || score(l) > score(best)) {
				best, bestFold, found = l, f, true
			}
		}
		return best, bestFold, found
	case syntax.OpAlternate:
		var all []string
		anyFold := false
		for _, sub := range re.Sub {
			l, f, ok := required(sub)
			if !ok {
				return nil, false, false
			}
			all = append(all, l...)
			anyFold = anyFold || f
		}
		return all, anyFold, true
	}
	return nil, false, false
}

// score prefers literal sets whose shortest member is long (few false
// hits) and that have few members.
func score(lits []string) int {
	if len(lits) == 0 {
		return 0
	}
	shortest := len(lits[0])
	for _, l := range lits {
		shortest = min(shortest, len(l))
	}
	return shortest*16 - len(lits)
}
