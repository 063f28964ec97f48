// Package syntax parses C, C++ and Rust with tree-sitter and hands the
// result to Go as a flat, pre-order array of nodes.
//
// # Design
//
// The grammars come from github.com/smacker/go-tree-sitter (C's and C++'s
// compiled optimised by internal/grammars); the runtime is
// compiled here (runtime.c) from the same version's sources (tsrt/), under
// renamed symbols, with non-atomic reference counts: jsec never shares a
// tree between threads. Its Go API would cost a cgo call (and an
// allocation) per node visited, which doubles the cost of a parse, so this
// package walks the finished tree once, in C, reading tree-sitter's
// subtrees directly, and writes every visible node into a buffer that Go
// then reads as a slice: one cgo call per parse, no per-node allocation.
// A Parser may be restricted to byte ranges of the source (the top-level
// items that hold a rule's trigger) so that positions stay those of the
// whole file while only a fraction of it is parsed.
//
// Memory: during a parse every tree-sitter allocation on the parsing
// thread comes from an arena owned by the Parser (flatten.c), and the
// tree-sitter parser and tree are dropped by rewinding it, instead of a
// walk that frees subtree after subtree.
//
// A Tree borrows its Parser's buffer: it is valid until the next Parse or
// Close on that Parser. Keep byte offsets, not Nodes, beyond that point.
package syntax

/*
#cgo CFLAGS: -O2 -fvisibility=hidden
#include <stdlib.h>
#include <string.h>
#include "flatten.h"
const TSLanguage *tree_sitter_rust(void);

// jsec_names writes the n names that name(l, i) gives for i in [first,
// first+n) into buf, each followed by a NUL, and returns the bytes they
// take (all of them, even past cap, which then holds a prefix): one cgo
// call for a grammar's symbols or fields instead of one per name.
static size_t jsec_names(const TSLanguage *l, int fields, int first, int n, char *buf, size_t cap) {
	size_t used = 0;
	for (int i = first; i < first + n; i++) {
		const char *s = fields ? ts_language_field_name_for_id(l, (TSFieldId)i) : ts_language_symbol_name(l, (TSSymbol)i);
		size_t len = s ? strlen(s) : 0;
		if (used + len + 1 <= cap) {
			if (len) memcpy(buf + used, s, len);
			buf[used + len] = 0;
		}
		used += len + 1;
	}
	return used;
}
*/
import "C"

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"
	"unsafe"

	// The grammars are compiled by these packages (C and C++ by
	// grammars, optimised: see there); tree_sitter_rust, declared above,
	// resolves against the smacker package at link time. The runtime is
	// compiled here (runtime.c).
	tsgrammars "github.com/jsec/jsec/checkers/syntax/internal/grammars"
	"github.com/jsec/jsec/internal/hostmem"
	_ "github.com/smacker/go-tree-sitter/rust"
)

// Lang is a grammar.
type Lang int

// The grammars jsec parses.
const (
	C Lang = iota
	CPP
	Rust
)

func (l Lang) String() string {
	switch l {
	case C:
		return "c"
	case CPP:
		return "cpp"
	case Rust:
		return "rust"
	}
	return fmt.Sprintf("lang(%d)", int(l))
}

// ErrParse reports a parse that tree-sitter abandoned (timeout or memory).
var ErrParse = errors.New("syntax: parse failed")

// grammar holds the per-language tables read once from the C grammar.
type grammar struct {
	lang   *C.TSLanguage
	kinds  []string // by symbol
	fields []string // by field id
	field  map[string]uint16
	dense  sync.Once
	named  sync.Once
}

// loadNames reads the grammar's symbol and field names, on its first
// parser: a scan of C alone never reads C++'s or Rust's.
func (g *grammar) loadNames() {
	g.named.Do(func() {
		g.kinds = grammarNames(g.lang, false, 0, int(C.ts_language_symbol_count(g.lang)))
		nf := int(C.ts_language_field_count(g.lang))
		g.fields = append([]string{""}, grammarNames(g.lang, true, 1, nf)...)
		g.field = make(map[string]uint16, nf)
		for i := 1; i <= nf; i++ {
			g.field[g.fields[i]] = uint16(i)
		}
	})
}

var grammars [3]*grammar

func init() {
	// No huge pages for the parser where the host takes free memory back
	// (package hostmem): after a 3 s pause a scan of curl, git and redis
	// as one root took 0.89 and 0.99 of the wall time and 0.925 and 0.96
	// of the CPU time without them (two runs of 24 paired rounds; back to
	// back 1.00 and 1.01), the advice of the Go heap already off.
	advise := C.int(1)
	if hostmem.FreePageReporting() {
		advise = 0
	}
	C.jsec_init_allocator(advise)
	for l, ptr := range []*C.TSLanguage{(*C.TSLanguage)(tsgrammars.C()), (*C.TSLanguage)(tsgrammars.CPP()), C.tree_sitter_rust()} {
		grammars[l] = &grammar{lang: ptr}
	}
}

// grammarNames returns the n symbol (or field) names of a grammar from
// index first on, read in one cgo call into one string that the names
// share (reading them one call and one allocation each took 0.26-0.8 ms
// of every process's start for the three grammars).
func grammarNames(l *C.TSLanguage, fields bool, first, n int) []string {
	f := C.int(0)
	if fields {
		f = 1
	}
	buf := make([]byte, namesBufSize)
	for {
		used := int(C.jsec_names(l, f, C.int(first), C.int(n), (*C.char)(unsafe.Pointer(&buf[0])), C.size_t(len(buf))))
		if used <= len(buf) {
			all := string(buf[:used])
			names := make([]string, 0, n)
			for i := 0; i < n; i++ {
				j := strings.IndexByte(all, 0)
				names, all = append(names, all[:j]), all[j+1:]
			}
			return names
		}
		buf = make([]byte, used)
	}
}

// namesBufSize is grammarNames' first buffer: room for the C++ grammar's
// symbol names, the longest list.
var namesBufSize = 16 << 10

// namesOneByOne reads lang's symbol and field names one cgo call each, as
// the package once did (for the test that holds grammarNames to it).
func namesOneByOne(lang Lang) (kinds, fields []string) {
	ptr := grammars[lang].lang
	for i := range int(C.ts_language_symbol_count(ptr)) {
		kinds = append(kinds, C.GoString(C.ts_language_symbol_name(ptr, C.TSSymbol(i))))
	}
	fields = []string{""}
	for i := 1; i <= int(C.ts_language_field_count(ptr)); i++ {
		fields = append(fields, C.GoString(C.ts_language_field_name_for_id(ptr, C.TSFieldId(i))))
	}
	return kinds, fields
}

// hugeAdvice reports whether the parser's arena chunks and dense rows are
// advised for transparent huge pages.
func hugeAdvice() bool { return C.jsec_huge_advice() != 0 }

// cnode mirrors jsec_node in flatten.h.
type cnode struct {
	start, end                 uint32
	parent, child, next, after int32
	sym, field                 uint16
	flags                      uint32
}

const (
	flagNamed   = 1
	flagMissing = 2
	symError    = 0xFFFF
)

// Range is a half-open byte range of the source to parse.
type Range struct{ Start, End int }

// Parser parses one language. It is not safe for concurrent use.
type Parser struct {
	lang    Lang
	buf     C.jsec_buf
	tree    Tree
	closed  bool
	Timeout time.Duration // per parse; 0 means no limit
}

// NewParser returns a parser for lang. Call Close to free its C memory.
// (Each parse runs a fresh tree-sitter parser in the Parser's arena; see
// flatten.c.)
func NewParser(lang Lang) *Parser {
	grammars[lang].loadNames()
	grammars[lang].densify()
	return &Parser{lang: lang, Timeout: 10 * time.Second}
}

// densifyMu serialises jsec_densify, which fills one shared table.
var densifyMu sync.Mutex

// densify sets up, on a grammar's first parser, the dense copy of its parse
// table that makes every lookup one read (runtime.c); its rows fill as
// parses reach their states. Without it (out of
// memory) lookups search tree-sitter's own table: slower, same answers.
func (g *grammar) densify() {
	g.dense.Do(func() {
		densifyMu.Lock()
		defer densifyMu.Unlock()
		C.jsec_densify(g.lang)
	})
}

// denseMismatches counts the parse-table lookups of lang whose dense
// answer differs from tree-sitter's own search (-1: no dense table).
func denseMismatches(lang Lang) int {
	grammars[lang].densify()
	return int(C.jsec_dense_mismatches(grammars[lang].lang))
}

// chunksMade counts the 2 MB arena chunks allocated so far by the process.
func chunksMade() int { return int(C.jsec_chunks_made()) }

// arenaReused counts the arena allocations served by a freed block or by
// growing the last block in place, so far in the process.
func arenaReused() int { return int(C.jsec_arena_reused()) }

// denseRowsUsed is how far into lang's dense table its filled rows reach,
// in rows (-1: no dense table).
func denseRowsUsed(lang Lang) int {
	grammars[lang].densify()
	return int(C.jsec_dense_rows_used(grammars[lang].lang))
}

// denseFilled counts the small states of lang whose dense row is filled
// (-1: no dense table); with unfill it also marks them all unfilled.
func denseFilled(lang Lang, unfill bool) int {
	grammars[lang].densify()
	u := C.int(0)
	if unfill {
		u = 1
	}
	return int(C.jsec_dense_filled(grammars[lang].lang, u))
}

// SetArenaCap sets how much memory a parse may take from the Parser's
// arena (0: the default, 128 MB) before it is redone with ordinary
// allocation, whose frees bound the memory by what is live.
func (p *Parser) SetArenaCap(bytes int) { p.buf.arena_cap = C.size_t(bytes) }

// libcCap is the most live memory a parse may hold (see flatten.h).
func (p *Parser) libcCap() int {
	c := int(p.buf.arena_cap)
	if c == 0 {
		c = C.JSEC_ARENA_CAP
	}
	return c * C.JSEC_LIBC_FACTOR
}

func megabytes(n int) string {
	if n < 1<<20 {
		return fmt.Sprintf("%d KB", n>>10)
	}
	return fmt.Sprintf("%d MB", n>>20)
}

// useCursor makes the parser flatten trees with tree-sitter's cursor API,
// the reference the tests hold the direct walk to.
func (p *Parser) useCursor() { p.buf.cursor = 1 }

// useLibc makes p parse with libc allocation, without the arena (tests).
func (p *Parser) useLibc() { p.buf.libc = 1 }

// useBalance makes the parser balance its finished trees, as tree-sitter
// does and jsec does not (runtime.c): the reference the tests hold
// jsec's trees to.
func (p *Parser) useBalance() { p.buf.balance = 1 }

// useTreeSitterOnly makes the parser run tree-sitter's own code where
// runtime.c has a shortcut (the lexer's advance over ASCII, popping a
// reduction's children, pushing): the reference the tests hold the
// shortcuts to.
func (p *Parser) useTreeSitterOnly() { p.buf.ts_only = 1 }

// Lang returns the parser's language.
func (p *Parser) Lang() Lang { return p.lang }

// Close frees the parser. Trees it returned become invalid.
func (p *Parser) Close() {
	if p.closed {
		return
	}
	C.jsec_buf_free(&p.buf)
	p.closed = true
	p.tree = Tree{}
}

// Parse parses src, or only the given ranges of it (sorted, non-overlapping)
// when ranges is not empty. The returned tree is valid until the next call.
func (p *Parser) Parse(src []byte, ranges []Range) (*Tree, error) {
	if p.closed {
		return nil, errors.New("syntax: parser is closed")
	}
	var cr *C.TSRange
	if len(ranges) > 0 {
		cr = (*C.TSRange)(C.malloc(C.size_t(len(ranges)) * C.size_t(unsafe.Sizeof(C.TSRange{}))))
		defer C.free(unsafe.Pointer(cr))
		rs := unsafe.Slice(cr, len(ranges))
		// Each range needs its true point (row and column): the lexer
		// counts rows as it advances and measures the gap to the next
		// range as a point difference. Points that ignore the rows (an
		// earlier shortcut) made that difference negative, and some gaps
		// then sent a parse into runaway allocation (20 GB in 10 s on a
		// 5 KB header cut into two ranges).
		var pt pointer
		for i, r := range ranges {
			rs[i] = C.TSRange{
				start_point: pt.at(src, r.Start),
				end_point:   pt.at(src, r.End),
				start_byte:  C.uint32_t(r.Start),
				end_byte:    C.uint32_t(r.End),
			}
		}
	}
	var srcPtr *C.char
	if len(src) > 0 {
		// src holds no Go pointers, so passing it for the duration of the
		// call is permitted; tree-sitter does not retain it after parsing.
		srcPtr = (*C.char)(unsafe.Pointer(&src[0]))
	}
	rc := C.jsec_parse(grammars[p.lang].lang, &p.buf, srcPtr, C.uint32_t(len(src)), cr, C.uint32_t(len(ranges)), C.uint64_t(p.Timeout.Microseconds()))
	switch rc {
	case 0:
	case -1:
		return nil, fmt.Errorf("%w: timed out after %v", ErrParse, p.Timeout)
	case -3:
		return nil, fmt.Errorf("%w: needed more than %s of memory", ErrParse, megabytes(p.libcCap()))
	default:
		return nil, fmt.Errorf("%w (code %d)", ErrParse, int(rc))
	}
	p.tree = Tree{src: src, g: grammars[p.lang], lang: p.lang}
	if p.buf.count > 0 {
		p.tree.nodes = unsafe.Slice((*cnode)(unsafe.Pointer(p.buf.nodes)), int(p.buf.count))
	}
	return &p.tree, nil
}

// pointer computes tree-sitter points (row, byte column) of increasing
// offsets in one pass over the source.
type pointer struct{ off, row, lineStart int }

var newline = []byte{'\n'}

func (p *pointer) at(src []byte, off int) C.TSPoint {
	off = min(off, len(src))
	if p.off < off {
		gap := src[p.off:off]
		if n := bytes.Count(gap, newline); n > 0 {
			p.row += n
			p.lineStart = p.off + bytes.LastIndexByte(gap, '\n') + 1
		}
		p.off = off
	}
	return C.TSPoint{row: C.uint32_t(p.row), column: C.uint32_t(off - p.lineStart)}
}

// assertsCompiled reports whether the C code was compiled with its
// assert() checks (for TestAssertsFollowTag: cgo is not allowed in tests).
func assertsCompiled() bool { return C.jsec_asserts_compiled() != 0 }
