package rust

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/jsec/jsec/checkers"
	"github.com/jsec/jsec/checkers/syntax"
)

// TestLogicFamiliesOnTruncatedInput runs the errors, arith, injection,
// secrets and async checkers over every prefix (in steps) of their
// fixtures: half-written code must neither panic (Triage panics are not
// recovered by the engine) nor make a checker report a problem.
func TestLogicFamiliesOnTruncatedInput(t *testing.T) {
	var cs []*checkers.Checker
	for _, fam := range [][]*checkers.Checker{errorsCheckers, arithCheckers, injectionCheckers, secretsCheckers, asyncCheckers} {
		cs = append(cs, fam...)
	}
	lang := &checkers.Language{Name: "rust", Grammar: syntax.Rust, Lex: Lex, IdentByte: IdentByte, Checkers: cs}
	a := checkers.NewAnalyzer(lang, nil)
	parser := syntax.NewParser(syntax.Rust)
	defer parser.Close()
	for _, fam := range []string{"errors", "arith", "injection", "secrets", "async"} {
		files, _ := filepath.Glob(filepath.Join("testdata", fam, "*.rs"))
		for _, path := range files {
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			for cut := 1; cut < len(src); cut += 97 {
				f := checkers.NewFile(path, "rust", src[:cut])
				res, err := a.Analyze(context.Background(), f, parser)
				if err != nil {
					t.Fatalf("%s[:%d]: %v", path, cut, err)
				}
				for _, p := range res.Problems {
					t.Errorf("%s[:%d]: %s", path, cut, p)
				}
			}
		}
	}
}
