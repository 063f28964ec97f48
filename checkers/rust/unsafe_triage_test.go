package rust

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/jsec/jsec/checkers"
	"github.com/jsec/jsec/checkers/syntax"
)

// TestUnsafeTriageKeepsFindings checks the Triage contract of the unsafe,
// memory and ffi checkers: with Triage switched off they find exactly what
// they find with it, on the fixtures (and on $UNSAFESTATS when set).
func TestUnsafeTriageKeepsFindings(t *testing.T) {
	var fams []*checkers.Checker
	fams = append(fams, unsafeCheckers...)
	fams = append(fams, memoryCheckers...)
	fams = append(fams, ffiCheckers...)
	var bare []*checkers.Checker
	for _, c := range fams {
		cc := *c
		cc.Triage = nil
		bare = append(bare, &cc)
	}
	lang := func(cs []*checkers.Checker) *checkers.Analyzer {
		return checkers.NewAnalyzer(&checkers.Language{Name: "rust", Grammar: syntax.Rust, Lex: Lex, IdentByte: IdentByte, Checkers: cs}, nil)
	}
	with, without := lang(fams), lang(bare)
	parser := syntax.NewParser(syntax.Rust)
	defer parser.Close()
	dirs := []string{"testdata/unsafe", "testdata/memory", "testdata/ffi"}
	if d := os.Getenv("UNSAFESTATS"); d != "" {
		dirs = append(dirs, d)
	}
	for _, dir := range dirs {
		filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() || filepath.Ext(p) != ".rs" {
				return nil
			}
			src, err := os.ReadFile(p)
			if err != nil {
				return nil
			}
			a, b := findingSet(t, with, parser, p, src), findingSet(t, without, parser, p, src)
			for k := range b {
				if !a[k] {
					t.Errorf("%s: Triage dropped %s", p, k)
				}
			}
			return nil
		})
	}
}

func findingSet(t *testing.T, a *checkers.Analyzer, parser *syntax.Parser, path string, src []byte) map[string]bool {
	res, err := a.Analyze(context.Background(), checkers.NewFile(path, "rust", src), parser)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]bool{}
	for _, f := range res.Findings {
		out[fmt.Sprintf("%s@%d", f.Rule, f.Span.Start)] = true
	}
	return out
}
