package checkers

import (
	"slices"

	"github.com/jsec/jsec/rules/grep"
)

// CustomRule is a user's regex rule (from .jsec.yml): a pattern matched
// line by line in the code of the given languages. Matches that start in a
// comment, a string or dead preprocessor code do not count.
type CustomRule struct {
	ID        string
	Languages []string
	Pattern   *grep.Pattern
}

// customFindings runs the custom rules of lang over a file. The lexer runs
// only when a pattern matched somewhere.
func customFindings(f *File, lang *Language, custom []CustomRule) []Located {
	var out []Located
	var lx *Lexed
	for _, cr := range custom {
		if !slices.Contains(cr.Languages, f.Lang) {
			continue
		}
		cr.Pattern.Search(f.Src, func(m grep.Match) bool {
			if lx == nil {
				lx = lang.Lex(f.Src)
			}
			if inCode(lx, m.Start) {
				item := lx.ItemAt(m.Start)
				out = append(out, Located{
					Finding: Finding{Rule: cr.ID, Span: Span{m.Start, m.End}},
					Test:    f.Test || item >= 0 && lx.Items[item].Test,
				})
			}
			return true
		})
	}
	return out
}

// inCode reports whether off lies in a code token (not in a comment, a
// string, a character literal, a preprocessor line or skipped dead code).
func inCode(lx *Lexed, off int) bool {
	toks := lx.Tokens
	lo, hi := 0, len(toks)
	for lo < hi {
		m := (lo + hi) / 2
		if int(toks[m].End) <= off {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo == len(toks) || int(toks[lo].Start) > off {
		return false // white space or a comment
	}
	switch toks[lo].Kind {
	case TokString, TokChar, TokPreproc:
		return false
	}
	return true
}
