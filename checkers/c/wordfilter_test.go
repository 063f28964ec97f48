package c

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/jsec/jsec/checkers"
	"github.com/jsec/jsec/checkers/syntax"
)

// TestWordFilterSameTriage holds the engine's pass over the identifiers
// the lexer marked (Lexed.MayBeWords) to its pass over every token: the
// same triage calls in the same order, the same findings and the same
// bytes parsed, for C and C++, on the fixtures and $JSEC_TRIAGE_CORPUS. A
// Lexed without its filter makes the engine look at every token.
func TestWordFilterSameTriage(t *testing.T) {
	dirs := []string{"testdata"}
	if d := os.Getenv("JSEC_TRIAGE_CORPUS"); d != "" {
		dirs = append(dirs, d)
	}
	var calls []string
	record := func(lang *checkers.Language) *checkers.Analyzer {
		var cs []*checkers.Checker
		for _, c := range lang.Checkers {
			w := *c
			if c.Triage != nil {
				name, tri := c.Name, c.Triage
				w.Triage = func(lx *checkers.Lexed, tok int) bool {
					keep := tri(lx, tok)
					calls = append(calls, fmt.Sprint(name, tok, keep))
					return keep
				}
			}
			cs = append(cs, &w)
		}
		l := *lang
		l.Checkers = cs
		return checkers.NewAnalyzer(&l, nil)
	}
	analyzers := map[bool]*checkers.Analyzer{false: record(C()), true: record(CPP())}
	parsers := map[bool]*syntax.Parser{false: syntax.NewParser(syntax.C), true: syntax.NewParser(syntax.CPP)}
	defer parsers[false].Close()
	defer parsers[true].Close()
	files, idents, marked, triaged := 0, 0, 0, 0
	for _, dir := range dirs {
		for _, path := range triageFiles(t, dir) {
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			for _, cpp := range []bool{false, true} {
				var out [2]string
				var got [2][]string
				for i, filtered := range []bool{true, false} {
					lx := LexC(src)
					if cpp {
						lx = LexCPP(src)
					}
					if i == 0 {
						for _, tk := range lx.Tokens {
							if tk.Kind == checkers.TokIdent {
								idents++
							}
						}
						marked += len(lx.MayBeWords)
					}
					if !filtered {
						lx.WordFilter = nil
					}
					f := checkers.NewFile(filepath.Base(path), map[bool]string{false: "c", true: "cpp"}[cpp], src)
					f.UseLexed(lx)
					calls = calls[:0]
					res, err := analyzers[cpp].Analyze(context.Background(), f, parsers[cpp])
					if err != nil {
						t.Fatal(err)
					}
					got[i] = slices.Clone(calls)
					out[i] = fmt.Sprint(res.Parsed, res.Findings, res.Problems)
				}
				if !slices.Equal(got[0], got[1]) || out[0] != out[1] {
					t.Fatalf("%s (C++ %v): with the filter %d triage calls, %s; without %d, %s", path, cpp, len(got[0]), out[0], len(got[1]), out[1])
				}
				triaged += len(got[0])
				files++
			}
		}
	}
	t.Logf("%d files (as C and C++): %d identifiers, %d marked (%.1f%%), %d triage calls", files, idents, marked, 100*float64(marked)/float64(idents), triaged)
	if marked == 0 || marked >= idents || triaged == 0 {
		t.Fatal("the filter marked nothing, or everything")
	}
}
