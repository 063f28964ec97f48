// Package c holds jsec's C and C++ checkers: the lexer that delimits items
// and finds triggers, the helpers rules share (calls, literals, scopes,
// definitions, where a value comes from), and one file per rule family.
//
// # Design
//
// A file is lexed once; a trigger (an API name, a keyword) in code wakes
// the checkers that asked for it, and only the items holding a trigger are
// parsed, by tree-sitter, restricted to their byte ranges. Rules then read
// the syntax tree around the trigger: the call's arguments, the
// declarations in scope, the definitions that reach a use. All analysis is
// intra-procedural and flow-insensitive beyond straight-line order: it is
// built to separate the flawed line from its fixed twin, not to prove
// programs correct.
package c

import (
	"bytes"
	"maps"
	"slices"

	"github.com/jsec/jsec/checkers"
	"github.com/jsec/jsec/checkers/syntax"
)

// families lists the checkers of every C/C++ rule family, one file each.
func families() [][]*checkers.Checker {
	return [][]*checkers.Checker{
		bufferCheckers, formatCheckers, memoryCheckers, errorsCheckers, execCheckers,
		cryptoCheckers, filesCheckers, concurrencyCheckers, arithCheckers, inputCheckers, cppCheckers,
	}
}

func allCheckers() []*checkers.Checker {
	var out []*checkers.Checker
	for _, fam := range families() {
		out = append(out, fam...)
	}
	return out
}

// C returns the C language: the C grammar and every C/C++ checker.
func C() *checkers.Language {
	return &checkers.Language{Name: "c", Grammar: syntax.C, Lex: LexC, IdentByte: IdentByte, Checkers: allCheckers()}
}

// CPP returns the C++ language.
func CPP() *checkers.Language {
	return &checkers.Language{Name: "cpp", Grammar: syntax.CPP, Lex: LexCPP, IdentByte: IdentByte, Checkers: allCheckers()}
}

// cppMarkers are identifiers that only C++ code uses outside comments and
// strings.
var cppMarkers = map[string]bool{
	"namespace": true, "template": true, "typename": true, "virtual": true, "nullptr": true,
	"constexpr": true, "decltype": true, "noexcept": true, "static_cast": true, "dynamic_cast": true,
	"reinterpret_cast": true, "const_cast": true, "operator": true, "explicit": true, "mutable": true,
}

// cppWords are the words isCPP looks for.
var cppWords = checkers.NewWordSet(slices.Collect(maps.Keys(cppMarkers)), []string{"public", "private", "protected", "class"})

// IsCPPHeader decides whether a .h file is C++: it looks for C++-only
// keywords, access specifiers, "::" and C++ standard headers in code.
func IsCPPHeader(src []byte) bool {
	cpp, _ := ClassifyHeader(src)
	return cpp
}

// ClassifyHeader is IsCPPHeader that also returns the C tokens it lexed
// the file into, for checkers.Options.ClassifyHeader.
func ClassifyHeader(src []byte) (cpp bool, asC *checkers.Lexed) {
	lx := Lex(src, false)
	return isCPP(lx), lx
}

func isCPP(lx *checkers.Lexed) bool {
	for i, t := range lx.Tokens {
		switch t.Kind {
		case checkers.TokIdent:
			if !cppWords.MayHave(lx, i) {
				continue // no word below: most identifiers
			}
			w := lx.Text(i)
			if cppMarkers[w] {
				return true
			}
			if (w == "public" || w == "private" || w == "protected") && lx.Is(i+1, ":") {
				return true
			}
			if w == "class" && lx.Kind(i+1) == checkers.TokIdent && (lx.Is(i+2, "{") || lx.Is(i+2, ":")) {
				return true
			}
		case checkers.TokPunct:
			if t.End-t.Start == 2 && lx.Is(i, "::") {
				return true
			}
		case checkers.TokPreproc:
			d := lx.Src[t.Start:t.End]
			if bytes.Contains(d, []byte("include")) && (bytes.Contains(d, []byte("<iostream>")) || bytes.Contains(d, []byte("<string>")) ||
				bytes.Contains(d, []byte("<vector>")) || bytes.Contains(d, []byte("<memory>")) || bytes.Contains(d, []byte("<map>"))) {
				return true
			}
		}
	}
	return false
}
