package c

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jsec/jsec/checkers"
	"github.com/jsec/jsec/checkers/syntax"
)

// TestTriageSound holds every Triage to its contract: for the checkers
// named by -triage (name prefixes, comma-separated; default all) it runs
// each checker with and without its Triage over the fixtures (or over
// -corpus) and fails on every finding the Triage hides. With -v it
// prints the share of bytes each side parsed.
//
//	go test ./checkers/c -run TestTriageSound -corpus DIR -triage c/input/external -v
func TestTriageSound(t *testing.T) {
	dir := *corpusDir
	if dir == "" {
		dir = "testdata" // every checker's fixtures, in make test
	}
	for _, c := range allCheckers() {
		if c.Triage == nil || !selected(c.Name, *triageSet) {
			continue
		}
		sound := newTriageSoundness(c)
		total, parsedWith, parsedWithout, found, missed := 0, 0, 0, 0, 0
		filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
			lang := map[string]string{".c": "c", ".h": "c", ".cc": "cpp", ".cpp": "cpp", ".cxx": "cpp", ".hpp": "cpp"}[filepath.Ext(p)]
			if err != nil || d.IsDir() || lang == "" {
				return nil
			}
			src, err := os.ReadFile(p)
			if err != nil {
				return nil
			}
			if filepath.Ext(p) == ".h" && IsCPPHeader(src) {
				lang = "cpp" // as the scan decides
			}
			total += len(src)
			r := sound.compare(lang, src)
			parsedWith += r.parsedWith
			parsedWithout += r.parsedWithout
			found += r.found
			for _, h := range r.hidden {
				missed++
				t.Errorf("%s:%d: %s's triage hides %s: %s", p, h.line, c.Name, h.rule, h.message)
			}
			return nil
		})
		pct := func(n int) float64 { return 100 * float64(n) / float64(max(total, 1)) }
		if testing.Verbose() {
			t.Logf("%-28s parsed %5.2f%% with triage, %5.1f%% without; %d findings, %d hidden", c.Name, pct(parsedWith), pct(parsedWithout), found, missed)
		}
	}
}

// triageSoundness runs one checker with and without its Triage.
type triageSoundness struct {
	with, without map[string]*checkers.Analyzer
	parsers       map[string]*syntax.Parser
}

func newTriageSoundness(c *checkers.Checker) *triageSoundness {
	bare := *c
	bare.Triage = nil
	mk := func(cs ...*checkers.Checker) map[string]*checkers.Analyzer {
		return map[string]*checkers.Analyzer{
			"c":   checkers.NewAnalyzer(&checkers.Language{Name: "c", Grammar: syntax.C, Lex: LexC, IdentByte: IdentByte, Checkers: cs}, nil),
			"cpp": checkers.NewAnalyzer(&checkers.Language{Name: "cpp", Grammar: syntax.CPP, Lex: LexCPP, IdentByte: IdentByte, Checkers: cs}, nil),
		}
	}
	return &triageSoundness{with: mk(c), without: mk(&bare),
		parsers: map[string]*syntax.Parser{"c": syntax.NewParser(syntax.C), "cpp": syntax.NewParser(syntax.CPP)}}
}

type hiddenFinding struct {
	line          int
	rule, message string
}

type soundResult struct {
	parsedWith, parsedWithout, found int
	hidden                           []hiddenFinding
}

// compare analyzes src (lang "c" or "cpp") both ways and returns the
// findings the Triage hid.
func (s *triageSoundness) compare(lang string, src []byte) soundResult {
	f := checkers.NewFile("x", lang, src)
	r1, _ := s.with[lang].Analyze(context.Background(), f, s.parsers[lang])
	r2, _ := s.without[lang].Analyze(context.Background(), f, s.parsers[lang])
	res := soundResult{parsedWith: r1.Parsed, parsedWithout: r2.Parsed, found: len(r1.Findings)}
	keys := map[string]bool{}
	for _, fd := range r1.Findings {
		keys[fmt.Sprint(fd.Rule, fd.Span.Start)] = true
	}
	for _, fd := range r2.Findings {
		if !keys[fmt.Sprint(fd.Rule, fd.Span.Start)] {
			res.hidden = append(res.hidden, hiddenFinding{f.Lines().Line(fd.Span.Start), fd.Rule, fd.Message})
		}
	}
	return res
}

func selected(name, set string) bool {
	if set == "" {
		return true
	}
	for _, p := range strings.Split(set, ",") {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	return false
}

// TestTriageShapesSound holds every triage to its contract on shapes that
// real code holds too rarely for TestTriageSound -corpus to meet them (each
// was once hidden): pointers reached through another one, stores inside
// expressions, allocations in conditions that are no NULL test, a global
// receiving the allocation.
func TestTriageShapesSound(t *testing.T) {
	const head = "#include <stdlib.h>\n#include <string.h>\nstruct item { struct item *next; int value; char *key; };\nchar *g;\n"
	bodies := []string{
		"void f(char **pp) { free(*pp); (*pp)[0] = 1; }",
		"void f(char **pp) { free(*pp); free(*pp); }",
		"void f(char **pp) { *pp = malloc(10); (*pp)[0] = 1; }",
		"int f(struct item **pp) { (*pp)->next = NULL; return (*pp)->next->value; }",
		"int f(int **pp) { *pp = NULL; return **pp; }",
		"int f(int ***ppp) { **ppp = NULL; return ***ppp; }",
		"int f(int **pp, int c) { if (c) *pp = NULL; else return 0; return **pp; }",
		"int f(int **pp, int c) { if (c) return 0; else *pp = NULL; return **pp; }",
		"int f(int n) { int (*cb)(int) = NULL; return cb(n); }",
		"int f(int i, int (*y)(void)) { return i % (y = NULL) % y(); }",
		"void f(int n) { if ((g = malloc(n)) > 0) g[0] = 1; }",
		"void f(int n) { while ((g = malloc(n)) + 1) g[0] = 1; }",
		"void f(int n) { char *p; (p = malloc(n))[0] = 1; }",
		"void f(void) { char *buf = calloc(1, 4); ((buf)); }",
		"int f(int (*cb)(int)) { if (!cb) return cb(0); return 1; }",
		"int f(int (*cb)(int)) { if (cb == NULL) { cb(1); } return 1; }",
		"int f(void) { int n, x; x = (n); return x; }",
		"int f(int c) { int n; if (c) (n); return 0; }",
	}
	for _, c := range allCheckers() {
		if c.Triage == nil {
			continue
		}
		s := newTriageSoundness(c)
		for _, b := range bodies {
			for _, lang := range []string{"c", "cpp"} {
				for _, h := range s.compare(lang, []byte(head+b+"\n")).hidden {
					t.Errorf("%s (%s): %s's triage hides %s: %s", b, lang, c.Name, h.rule, h.message)
				}
			}
		}
	}
}
