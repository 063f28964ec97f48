package syntax

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	tsgrammars "github.com/jsec/jsec/checkers/syntax/internal/grammars"
)

// TestShortcutsMatchTreeSitter holds runtime.c's shortcuts (the lexer's
// advance over ASCII, popping a reduction's children along one path,
// pushing with vector stores) and
// the grammars' ADVANCE_MAP table to tree-sitter's own code: the same
// flattened nodes
// (every field of every node) for every fixture of the C, C++ and Rust
// checkers and of the e2e project, error-heavy input, a long file and
// input that takes every slow case (a byte-order mark, multi-byte and
// invalid UTF-8, NUL bytes, CR and CRLF line ends, a missing final
// newline), each whole, in line-sized ranges and in ranges that cut
// tokens and characters; on $JSEC_FLATTEN_CORPUS too when set.
func TestShortcutsMatchTreeSitter(t *testing.T) {
	fast := map[Lang]*Parser{C: NewParser(C), CPP: NewParser(CPP), Rust: NewParser(Rust)}
	full := map[Lang]*Parser{C: NewParser(C), CPP: NewParser(CPP), Rust: NewParser(Rust)}
	for _, p := range full {
		p.useTreeSitterOnly()
	}
	defer func() {
		for _, m := range []map[Lang]*Parser{fast, full} {
			for _, p := range m {
				p.Close()
			}
		}
	}()
	srcs := append(fixtureSources(t), source{"long", C, longFile(3000)})
	for _, lang := range []Lang{C, CPP, Rust} {
		srcs = append(srcs, source{"unusual " + lang.String(), lang, unusualBytes()})
	}
	walk := func(root string) {
		filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			lang, ok := flattenLangs[filepath.Ext(path)]
			if err != nil || !ok || !d.Type().IsRegular() || strings.HasPrefix(path, "../c/testdata") {
				return nil // the C and C++ fixtures are in already
			}
			if b, err := os.ReadFile(path); err == nil && len(b) <= 4<<20 {
				srcs = append(srcs, source{path, lang, b})
			}
			return nil
		})
	}
	walk("../rust/testdata")
	walk("../../testdata")
	if dir := os.Getenv("JSEC_FLATTEN_CORPUS"); dir != "" {
		walk(dir)
	}
	shortcut := 0
	for _, s := range srcs {
		for _, ranges := range [][]Range{nil, halves(s.b), cuts(s.b)} {
			a, err := fast[s.lang].Parse(s.b, ranges)
			if err != nil {
				t.Fatalf("%s: %v", s.name, err)
			}
			got := slices.Clone(a.nodes)
			b, err := treeSitterParse(full[s.lang], s.b, ranges)
			if err != nil {
				t.Fatalf("%s (tree-sitter only): %v", s.name, err)
			}
			if !slices.Equal(got, b.nodes) {
				t.Errorf("%s (%d ranges): %d nodes with the shortcuts, %d without, or fields differ", s.name, len(ranges), len(got), len(b.nodes))
			}
		}
		shortcut++
	}
	t.Logf("%d sources, each whole and in two kinds of ranges", shortcut)
}

// treeSitterParse parses with p, which must have been set up with
// useTreeSitterOnly, and with the grammars' ADVANCE_MAP searching its
// pairs: tree-sitter's own code throughout.
func treeSitterParse(p *Parser, src []byte, ranges []Range) (*Tree, error) {
	tsgrammars.SetLinearMaps(true)
	defer tsgrammars.SetLinearMaps(false)
	return p.Parse(src, ranges)
}

// unusualBytes is C-like text with every case the advance shortcut
// leaves to tree-sitter.
func unusualBytes() []byte {
	var b strings.Builder
	b.WriteString("\uFEFF/* byte-order mark first */\n")
	b.WriteString("int café = 1; // é, 中文, 🙂 in a comment\r\n")
	b.WriteString("char *s = \"naïve \xff\xfe bytes \xe2\x82 cut\";\r")
	b.WriteString("int \x00 nul;\n")
	b.WriteString("void f(void) {\n\tif (café) { s[0] = '\xc3'; }\n\treturn;\n}\n")
	b.WriteString("fn main() { let x = \"ü\"; }\n")
	b.WriteString("int tail = 2;") // no final newline
	return []byte(b.String())
}

// cuts splits src into ranges that start and end anywhere: inside
// tokens, inside multi-byte characters, next to each other and apart.
func cuts(src []byte) []Range {
	var rs []Range
	for start := 0; start < len(src); start += 53 {
		rs = append(rs, Range{start, min(start+37, len(src))})
	}
	for i := 1; i < len(rs); i += 5 {
		rs[i-1].End = rs[i].Start // some adjacent
	}
	return rs
}
