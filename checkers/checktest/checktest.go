// Package checktest runs checkers over annotated fixture files, in the
// manner of golang.org/x/tools/go/analysis/analysistest.
//
// A fixture marks each line that must be flagged with a comment naming
// the rule, and may mark look-alike lines that must stay silent:
//
//	strcpy(buf, argv[1]);      // want "c.buffer.strcpy"
//	strcpy(buf, "ok");         // safe "c.buffer.strcpy"
//
// Run fails on every finding no "want" expects, every "want" no finding
// matches, every checker panic, and every fixture that tree-sitter cannot
// parse cleanly (a fixture that does not parse tests nothing), unless the
// file says "checktest:allow-parse-errors".
package checktest

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/jsec/jsec/checkers"
	"github.com/jsec/jsec/checkers/syntax"
)

var (
	annotRE = regexp.MustCompile(`\b(want|safe)((?:\s+"[^"]+")+)`)
	quoteRE = regexp.MustCompile(`"([^"]+)"`)
)

// Expect is one annotation.
type Expect struct {
	File string
	Line int
	Rule string
	Safe bool // a "safe" look-alike rather than a "want"
}

// Finding is a finding as checktest reports it.
type Finding struct {
	File string
	Line int
	checkers.Located
}

// Report is what Run saw, for extra assertions and for coverage.
type Report struct {
	Expects  []Expect
	Findings []Finding
}

// Extensions maps a language name to its fixture file extensions.
var Extensions = map[string][]string{
	"c":    {".c", ".h"},
	"cpp":  {".cc", ".cpp", ".cxx", ".hpp", ".hh"},
	"rust": {".rs"},
}

// Run checks every fixture of lang under dir (recursively).
func Run(t testing.TB, lang *checkers.Language, dir string) *Report {
	t.Helper()
	var files []string
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && slices.Contains(Extensions[lang.Name], filepath.Ext(p)) {
			files = append(files, p)
		}
		return nil
	})
	if err != nil {
		t.Fatalf("checktest: %v", err)
	}
	if len(files) == 0 {
		t.Fatalf("checktest: no %s fixtures under %s", lang.Name, dir)
	}
	sort.Strings(files)
	rep := &Report{}
	a := checkers.NewAnalyzer(lang, nil)
	parser := syntax.NewParser(lang.Grammar)
	defer parser.Close()
	for _, path := range files {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("checktest: %v", err)
		}
		checkFile(t, a, parser, path, src, rep)
	}
	return rep
}

func checkFile(t testing.TB, a *checkers.Analyzer, parser *syntax.Parser, path string, src []byte, rep *Report) {
	t.Helper()
	lang := a.Language()
	if !strings.Contains(string(src), "checktest:allow-parse-errors") {
		tree, err := parser.Parse(src, nil)
		if err != nil {
			t.Errorf("%s: %v", path, err)
			return
		}
		if line := firstError(tree, src); line > 0 {
			t.Errorf("%s:%d: fixture does not parse cleanly as %s (fix it, or add checktest:allow-parse-errors)", path, line, lang.Name)
		}
	}
	f := checkers.NewFile(filepath.ToSlash(path), lang.Name, src)
	f.Test = strings.Contains(string(src), "checktest:test-file")
	res, err := a.Analyze(context.Background(), f, parser)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	for _, p := range res.Problems {
		t.Errorf("%s: %s", path, p)
	}
	expects := parseExpects(path, src)
	rep.Expects = append(rep.Expects, expects...)
	want := map[string]int{} // "line rule" -> count
	for _, e := range expects {
		if !e.Safe {
			want[fmt.Sprintf("%d %s", e.Line, e.Rule)]++
		}
	}
	for _, fd := range res.Findings {
		line := f.Lines().Line(fd.Span.Start)
		rep.Findings = append(rep.Findings, Finding{File: path, Line: line, Located: fd})
		key := fmt.Sprintf("%d %s", line, fd.Rule)
		if want[key] > 0 {
			want[key]--
			continue
		}
		t.Errorf("%s:%d: unexpected %s: %s", path, line, fd.Rule, fd.Message)
	}
	var missing []string
	for k, n := range want {
		for range n {
			missing = append(missing, k)
		}
	}
	sort.Strings(missing)
	for _, k := range missing {
		line, rule, _ := strings.Cut(k, " ")
		t.Errorf("%s:%s: expected %s, got nothing", path, line, rule)
	}
}

func parseExpects(path string, src []byte) []Expect {
	var out []Expect
	for i, line := range strings.Split(string(src), "\n") {
		c := strings.Index(line, "//")
		if c < 0 {
			c = strings.Index(line, "/*")
		}
		if c < 0 {
			continue
		}
		for _, m := range annotRE.FindAllStringSubmatch(line[c:], -1) {
			for _, q := range quoteRE.FindAllStringSubmatch(m[2], -1) {
				out = append(out, Expect{File: path, Line: i + 1, Rule: q[1], Safe: m[1] == "safe"})
			}
		}
	}
	return out
}

// firstError returns the line of the first ERROR or missing node, or 0.
func firstError(tree *syntax.Tree, src []byte) int {
	for n := range tree.Root().Descendants() {
		if n.IsError() || n.IsMissing() {
			return checkers.NewLines(src).Line(n.Start())
		}
	}
	return 0
}

// Coverage fails unless every rule in ids has at least one "want" and one
// "safe" annotation among the reports.
func Coverage(t testing.TB, ids []string, reps ...*Report) {
	t.Helper()
	want, safe := map[string]int{}, map[string]int{}
	known := map[string]bool{}
	for _, id := range ids {
		known[id] = true
	}
	for _, r := range reps {
		for _, e := range r.Expects {
			if !known[e.Rule] {
				t.Errorf("%s:%d: annotation names unknown rule %q", e.File, e.Line, e.Rule)
			}
			if e.Safe {
				safe[e.Rule]++
			} else {
				want[e.Rule]++
			}
		}
	}
	for _, id := range ids {
		if want[id] == 0 {
			t.Errorf("rule %s has no positive fixture (// want %q)", id, id)
		}
		if safe[id] == 0 {
			t.Errorf("rule %s has no safe look-alike fixture (// safe %q)", id, id)
		}
	}
}
