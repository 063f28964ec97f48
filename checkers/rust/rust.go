// Package rust holds jsec's Rust checkers: the lexer that delimits items
// and finds triggers, the helpers rules share (calls, method calls, unsafe
// context, SAFETY comments, test context), and one file per rule family.
//
// # Design
//
// As for C: a file is lexed once, a trigger in code wakes the checkers
// that asked for it, and only the items that hold a trigger are parsed.
// Inline modules are split into their items, so a hit in one function of
// a large module parses that function, and #[cfg(test)] modules mark their
// items as test code.
package rust

import (
	"github.com/jsec/jsec/checkers"
	"github.com/jsec/jsec/checkers/syntax"
)

// families lists the checkers of every Rust rule family, one file each.
func families() [][]*checkers.Checker {
	return [][]*checkers.Checker{
		unsafeCheckers, memoryCheckers, ffiCheckers, errorsCheckers, arithCheckers,
		injectionCheckers, secretsCheckers, asyncCheckers,
	}
}

func allCheckers() []*checkers.Checker {
	var out []*checkers.Checker
	for _, fam := range families() {
		out = append(out, fam...)
	}
	return out
}

// Rust returns the Rust language with every Rust checker.
func Rust() *checkers.Language {
	return &checkers.Language{Name: "rust", Grammar: syntax.Rust, Lex: Lex, IdentByte: IdentByte, Checkers: allCheckers()}
}
