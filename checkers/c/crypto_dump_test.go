package c

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/jsec/jsec/checkers"
	"github.com/jsec/jsec/checkers/syntax"
)

// TestCryptoDumpTree prints the syntax tree of the file named by
// JSEC_DUMP (a development aid for the crypto and arith families).
func TestCryptoDumpTree(t *testing.T) {
	path := os.Getenv("JSEC_DUMP")
	if path == "" {
		t.Skip("JSEC_DUMP not set")
	}
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lang := syntax.C
	if os.Getenv("JSEC_CPP") != "" {
		lang = syntax.CPP
	}
	tree, err := syntax.NewParser(lang).Parse(src, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Log(tree.Root().String())
}

// TestCryptoDumpFindings prints every finding, with its confidence
// adjustment and severity override, for the files named by JSEC_FINDINGS
// (space-separated; a development aid).
func TestCryptoDumpFindings(t *testing.T) {
	paths := os.Getenv("JSEC_FINDINGS")
	if paths == "" {
		t.Skip("JSEC_FINDINGS not set")
	}
	for _, path := range strings.Fields(paths) {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		lang, g := C(), syntax.C
		if strings.HasSuffix(path, ".cc") {
			lang, g = CPP(), syntax.CPP
		}
		parser := syntax.NewParser(g)
		f := checkers.NewFile(path, lang.Name, src)
		res, err := checkers.NewAnalyzer(lang, nil).Analyze(context.Background(), f, parser)
		if err != nil {
			t.Fatal(err)
		}
		for _, fd := range res.Findings {
			t.Logf("%s:%d %s [%+.2f %v] %s", path, f.Lines().Line(fd.Span.Start), fd.Rule, fd.Adjust, fd.Severity, fd.Message)
		}
		for _, p := range res.Problems {
			t.Errorf("%s: %s", path, p)
		}
	}
}

// TestCryptoParseShare prints, per rule of the crypto and arith families,
// the share of the corpus JSEC_PARSE_CORPUS that the rule alone makes the
// engine parse (a development aid for triggers and triage).
func TestCryptoParseShare(t *testing.T) {
	dir := os.Getenv("JSEC_PARSE_CORPUS")
	if dir == "" {
		t.Skip("JSEC_PARSE_CORPUS not set")
	}
	var files []string
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && (strings.HasSuffix(p, ".c") || strings.HasSuffix(p, ".h")) {
			files = append(files, p)
		}
		return nil
	})
	srcs := make([][]byte, len(files))
	total := 0
	for i, f := range files {
		srcs[i], _ = os.ReadFile(f)
		total += len(srcs[i])
	}
	parser := syntax.NewParser(syntax.C)
	mine := []string{ruleWeakCipher, ruleWeakHash, ruleTLSNoVerify, ruleRandom, ruleSecret, ruleDivZero, ruleSignedSize, rulePtrDiff, ruleAssignCond}
	for _, rule := range append(mine, "crypto", "arith", "crypto+arith", "all") {
		a := checkers.NewAnalyzer(C(), func(r string) bool {
			return r == rule || rule == "all" || rule == "crypto+arith" && slices.Contains(mine, r) ||
				rule == "crypto" && slices.Contains(mine[:5], r) || rule == "arith" && slices.Contains(mine[5:], r)
		})
		parsed := 0
		start := time.Now()
		type fileShare struct {
			name string
			n    int
		}
		var top []fileShare
		for i, f := range files {
			res, err := a.Analyze(context.Background(), checkers.NewFile(f, "c", srcs[i]), parser)
			if err != nil {
				t.Fatal(err)
			}
			parsed += res.Parsed
			if res.Parsed > 0 {
				top = append(top, fileShare{f, res.Parsed})
			}
		}
		el := time.Since(start)
		t.Logf("%-26s parsed %5.2f%% of %.1f MB in %v (%.0f MB/s on one core)", rule, 100*float64(parsed)/float64(total), float64(total)/1e6, el.Round(time.Millisecond), float64(total)/1e6/el.Seconds())
		if os.Getenv("JSEC_PARSE_TOP") != "" {
			sort.Slice(top, func(i, j int) bool { return top[i].n > top[j].n })
			for _, fs := range top[:min(len(top), 6)] {
				t.Logf("    %7d %s", fs.n, fs.name)
			}
		}
	}
}

// TestCryptoItems prints the items of JSEC_ITEMS larger than 8 kB (a
// development aid: one large item makes every trigger in it expensive).
func TestCryptoItems(t *testing.T) {
	path := os.Getenv("JSEC_ITEMS")
	if path == "" {
		t.Skip("JSEC_ITEMS not set")
	}
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lx := LexC(src)
	lines := checkers.NewLines(src)
	for _, it := range lx.Items {
		if it.End-it.Start > 8000 {
			t.Logf("%6d bytes, lines %d-%d", it.End-it.Start, lines.Line(it.Start), lines.Line(it.End))
		}
	}
}

// TestCryptoTriage prints the trigger occurrences of the crypto and arith
// checkers that pass triage in the file JSEC_TRIAGE (a development aid).
func TestCryptoTriage(t *testing.T) {
	path := os.Getenv("JSEC_TRIAGE")
	if path == "" {
		t.Skip("JSEC_TRIAGE not set")
	}
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lx := LexC(src)
	lines := checkers.NewLines(src)
	for _, c := range append(append([]*checkers.Checker{}, cryptoCheckers...), arithCheckers...) {
		words := map[string]bool{}
		for _, w := range c.Triggers {
			words[w] = true
		}
		for i, tok := range lx.Tokens {
			if tok.Kind != checkers.TokIdent || !words[lx.Text(i)] || lx.ItemOf(i) < 0 {
				continue
			}
			if c.Triage == nil || c.Triage(lx, i) {
				t.Logf("%s:%d %s %s", c.Name, lines.Line(int(tok.Start)), lx.Text(i), strings.TrimSpace(lines.Text(src, lines.Line(int(tok.Start)))))
			}
		}
	}
}
