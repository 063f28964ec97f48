package c

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jsec/jsec/checkers"
	"github.com/jsec/jsec/checkers/syntax"
)

// TestMemBoundedIndexMatchesWalk asks memBounded, with and without its
// index of the body's paths (memMentionIndexMin lowered to 0), about
// every call of every function of the C/C++ fixtures (and of
// $JSEC_TRIAGE_CORPUS when set) with the call's arguments as operands:
// the answers must be the same.
func TestMemBoundedIndexMatchesWalk(t *testing.T) {
	defer func(v int) { memMentionIndexMin = v }(memMentionIndexMin)
	asked, yes := 0, 0
	eachFunction(t, func(path string, p *checkers.Pass, fn syntax.Node) {
		for use := range fn.Field("body").Descendants() {
			if use.Kind() != "call_expression" || EnclosingFunction(use) != fn {
				continue
			}
			operands := Args(use)
			memMentionIndexMin = 1 << 40
			walk := memBounded(p, fn, operands, use)
			memMentionIndexMin = 0
			if index := memBounded(p, fn, operands, use); index != walk {
				t.Fatalf("%s: %s at %d: %v with the index, %v with the walk", path, use.Text(), use.Start(), index, walk)
			}
			asked++
			if walk {
				yes++
			}
		}
	})
	if asked < 100 || yes == 0 {
		t.Fatalf("%d calls asked, %d bounded: the fixtures no longer exercise both answers", asked, yes)
	}
	t.Logf("%d calls asked, %d bounded", asked, yes)
}

// eachFunction parses the C/C++ fixtures (and $JSEC_TRIAGE_CORPUS when
// set) and hands each function definition with a body to f, with a Pass
// over its file.
func eachFunction(t *testing.T, f func(path string, p *checkers.Pass, fn syntax.Node)) {
	dirs := []string{"testdata"}
	if dir := os.Getenv("JSEC_TRIAGE_CORPUS"); dir != "" {
		dirs = append(dirs, dir)
	}
	parsers := map[bool]*syntax.Parser{false: syntax.NewParser(syntax.C), true: syntax.NewParser(syntax.CPP)}
	for _, p := range parsers {
		defer p.Close()
	}
	for _, path := range triageFiles(t, dirs...) {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		cpp := strings.HasSuffix(path, ".cc") || strings.HasSuffix(path, ".cpp")
		tree, err := parsers[cpp].Parse(src, nil)
		if err != nil {
			continue
		}
		p := &checkers.Pass{File: checkers.NewFile(filepath.Base(path), "c", src), Lex: Lex(src, cpp), Tree: tree}
		for fn := range tree.Root().Descendants() {
			if fn.Kind() == "function_definition" && fn.Field("body").Valid() {
				f(path, p, fn)
			}
		}
	}
}
