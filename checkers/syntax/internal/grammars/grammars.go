// Package grammars compiles tree-sitter's C and C++ grammars for package
// syntax. The files are those github.com/smacker/go-tree-sitter ships (the
// version in go.mod; tree-sitter-c and tree-sitter-cpp, MIT licence, see
// LICENSE): c/parser.c as c_parser.c, cpp/parser.c as cpp_parser.c,
// cpp/scanner.c as cpp_scanner.c, parser.h and alloc.h, with these
// changes:
//
//   - the "#pragma GCC optimize ("O0")" block at the top of both parser.c
//     files is gone. The tree-sitter generator adds it to keep the compile
//     time of huge grammars down; at -O2 these take about 1 and 5 seconds,
//     and at -O0 their lexers (ts_lex, and set_contains, which -O0 code
//     calls instead of inlining) were a sixth of every parse.
//   - set_contains (parser.h) looks ASCII lookaheads up from the front of
//     the sorted ranges before the binary search (TestSetContains holds it
//     to the search).
//   - ADVANCE_MAP (parser.h) looks ASCII lookaheads up in a table it builds
//     on first use instead of searching its pairs (TestAdvanceMap holds it
//     to the search; SetLinearMaps turns it off for the tests of package
//     syntax, which compare whole trees).
//   - the exported symbols are prefixed with jsec_ (jsec_tree_sitter_c,
//     jsec_tree_sitter_cpp and the C++ external scanner's functions), so
//     that they never clash with the smacker packages', and the scanner
//     includes alloc.h from here.
//
// Nothing else differs: TestVendoredGrammars compares every file with the
// module's copy. The Rust grammar is compiled optimised by its smacker
// package already.
package grammars

/*
#cgo CFLAGS: -O2 -w
const void *jsec_tree_sitter_c(void);
const void *jsec_tree_sitter_cpp(void);
long jsec_grammars_check_sets(unsigned seed, int sets);
long jsec_grammars_check_maps(unsigned seed, int maps);
long jsec_grammars_check_site(void);
extern int jsec_linear_maps;
*/
import "C"

import (
	"unsafe"

	// The C++ scanner allocates with ts_current_calloc and frees with
	// ts_current_free, which the smacker root package (tree-sitter's
	// runtime, alloc.c) defines.
	_ "github.com/smacker/go-tree-sitter"
)

// C returns the C grammar's TSLanguage.
func C() unsafe.Pointer { return unsafe.Pointer(C.jsec_tree_sitter_c()) }

// CPP returns the C++ grammar's TSLanguage.
func CPP() unsafe.Pointer { return unsafe.Pointer(C.jsec_tree_sitter_cpp()) }

// SetLinearMaps makes every lexer's ADVANCE_MAP search its pairs as
// tree-sitter's generated code does (on) or use its ASCII table (off, the
// default). For tests only: no parse may run meanwhile.
func SetLinearMaps(on bool) {
	C.jsec_linear_maps = 0
	if on {
		C.jsec_linear_maps = 1
	}
}

// checkMaps compares ADVANCE_MAP's ASCII table with the pairs' search on
// random maps (maps.c) and returns the disagreements.
func checkMaps(seed uint32, maps int) int64 {
	return int64(C.jsec_grammars_check_maps(C.unsigned(seed), C.int(maps)))
}

// checkSite compares one ADVANCE_MAP, as the lexers expand it, with the
// search of its pairs (maps.c) and returns the disagreements.
func checkSite() int64 { return int64(C.jsec_grammars_check_site()) }

// checkSets compares parser.h's set_contains with tree-sitter's binary
// search on random range sets (setcheck.c) and returns the disagreements.
// (cgo is not allowed in _test.go files.)
func checkSets(seed uint32, sets int) int64 {
	return int64(C.jsec_grammars_check_sets(C.unsigned(seed), C.int(sets)))
}
