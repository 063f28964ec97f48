// Package cgrammar compiles tree-sitter's C grammar for package syntax:
// parser.c and parser.h as github.com/smacker/go-tree-sitter/c ships them
// (version v0.0.0-20240827094217-dd81d9e9be82; tree-sitter-c, MIT
// licence, see LICENSE), with three changes:
//
//   - the "#pragma GCC optimize ("O0")" block at the top is gone. The
//     tree-sitter generator adds it to keep the compile time of huge
//     grammars down; for this one -O2 takes about a second, and at -O0 its
//     lexer (ts_lex, and set_contains, which -O0 code calls instead of
//     inlining) was a fifth of every parse.
//   - set_contains (parser.h) looks ASCII lookaheads up from the front of
//     the sorted ranges before the binary search (TestSetContains holds it
//     to the search);
//   - the entry point is jsec_tree_sitter_c, so that it never clashes with
//     the smacker package's.
//
// Nothing else differs: TestVendoredGrammar compares both files with the
// module's copies.
package cgrammar

/*
#cgo CFLAGS: -O2 -w
const void *jsec_tree_sitter_c(void);
long jsec_cgrammar_check_sets(unsigned seed, int sets);
*/
import "C"

import "unsafe"

// Language returns the grammar's TSLanguage.
func Language() unsafe.Pointer { return unsafe.Pointer(C.jsec_tree_sitter_c()) }

// checkSets compares parser.h's set_contains with tree-sitter's binary
// search on random range sets (setcheck.c) and returns the disagreements.
// (cgo is not allowed in _test.go files.)
func checkSets(seed uint32, sets int) int64 {
	return int64(C.jsec_cgrammar_check_sets(C.unsigned(seed), C.int(sets)))
}
