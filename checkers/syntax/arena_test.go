package syntax

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jsec/jsec/internal/hostmem"
)

// shapeOf lists a tree's nodes (kind, range, fields by parent) in
// pre-order.
func shapeOf(tree *Tree) string {
	var b strings.Builder
	for n := range tree.Root().Descendants() {
		fmt.Fprintf(&b, "%s %d %d %s %v\n", n.Kind(), n.Start(), n.End(), n.FieldName(), n.IsNamed())
	}
	return b.String()
}

// soup is tokens in an order that keeps tree-sitter's error recovery
// busy: the parse allocates, frees and reallocates without end.
func soup(size int) []byte {
	var b strings.Builder
	b.WriteString("void f(void) {\n")
	words := []string{"if", "(", ")", "{", "x", "->", "[", "*", "=", ";", "int", "}", "goto", ":", ","}
	for i := 0; b.Len() < size; i++ {
		b.WriteString(words[(i*7+i/3)%len(words)])
		b.WriteByte(' ')
	}
	b.WriteString("}\n")
	return []byte(b.String())
}

// source is a file to parse in the tests that compare two ways of
// parsing.
type source struct {
	name string
	lang Lang
	b    []byte
}

// fixtureSources returns token soup and every fixture of the C and C++
// checkers.
func fixtureSources(t *testing.T) []source {
	t.Helper()
	srcs := []source{{"soup", C, soup(60_000)}, {"soup-cpp", CPP, soup(30_000)}}
	filepath.WalkDir("../c/testdata", func(path string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return nil
		}
		lang := C
		switch filepath.Ext(path) {
		case ".c", ".h":
		case ".cc", ".cpp", ".hpp":
			lang = CPP
		default:
			return nil
		}
		if b, err := os.ReadFile(path); err == nil {
			srcs = append(srcs, source{path, lang, b})
		}
		return nil
	})
	if len(srcs) < 50 {
		t.Fatalf("%d sources: the fixtures are missing", len(srcs))
	}
	return srcs
}

// TestArenaMatchesLibc holds the arena, whose freed small blocks are
// reused and whose last block grows in place, to the trees tree-sitter
// builds with libc allocation: the same nodes for every fixture of the C
// and C++ checkers and for error-heavy input, parsed one after another
// with the same parsers (so freed blocks of one parse cannot leak into
// the next).
func TestArenaMatchesLibc(t *testing.T) {
	srcs := fixtureSources(t)
	arena := map[Lang]*Parser{C: NewParser(C), CPP: NewParser(CPP)}
	libc := map[Lang]*Parser{C: NewParser(C), CPP: NewParser(CPP)}
	for _, p := range libc {
		p.useLibc()
	}
	defer func() {
		for _, m := range []map[Lang]*Parser{arena, libc} {
			for _, p := range m {
				p.Close()
			}
		}
	}()
	reused := arenaReused()
	for _, s := range srcs {
		a, err := arena[s.lang].Parse(s.b, nil)
		if err != nil {
			t.Fatalf("%s: %v", s.name, err)
		}
		got := shapeOf(a)
		l, err := libc[s.lang].Parse(s.b, nil)
		if err != nil {
			t.Fatalf("%s (libc): %v", s.name, err)
		}
		if want := shapeOf(l); got != want {
			t.Fatalf("%s: the arena's tree differs from libc's (%d vs %d bytes of shape)", s.name, len(got), len(want))
		}
	}
	if arenaReused() == reused {
		t.Fatal("no arena allocation reused a freed block or grew in place")
	}
}

// TestArenaReusesOnSoup: error-heavy input frees and reallocates without
// end, and the arena serves most of it from freed blocks.
func TestArenaReusesOnSoup(t *testing.T) {
	p := NewParser(C)
	defer p.Close()
	src := soup(100_000)
	reused := arenaReused()
	if _, err := p.Parse(src, nil); err != nil {
		t.Fatal(err)
	}
	n := arenaReused() - reused
	if n < 10_000 {
		t.Errorf("%d allocations reused on %d bytes of token soup, want tens of thousands", n, len(src))
	}
	t.Logf("%d allocations reused; arena %d MB", n, p.buf.arena_bytes>>20)
}

// TestHugeAdviceFollowsHost holds the init to its choice: the parser's
// memory is advised for huge pages unless a memory balloon reports free
// pages to the host (hostmem), where a huge page touched after a pause
// costs the host's backing of all of it.
func TestHugeAdviceFollowsHost(t *testing.T) {
	if got, want := hugeAdvice(), !hostmem.FreePageReporting(); got != want {
		t.Errorf("huge-page advice %v; want %v (free page reporting: %v)", got, want, hostmem.FreePageReporting())
	}
}
