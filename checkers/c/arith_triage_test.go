package c

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/jsec/jsec/checkers"
	"github.com/jsec/jsec/checkers/syntax"
)

// TestCryptoArithTriageSound checks the promise every Triage makes: it
// never drops an occurrence Check would report. The crypto and arith
// checkers run with and without their Triage over the family fixtures
// (and over JSEC_TRIAGE_CORPUS when set); the findings must be the same.
func TestCryptoArithTriageSound(t *testing.T) {
	files := triageFiles(t, filepath.Join("testdata", "crypto"), filepath.Join("testdata", "arith"))
	if dir := os.Getenv("JSEC_TRIAGE_CORPUS"); dir != "" {
		files = append(files, triageFiles(t, dir)...)
	}
	mine := append(append([]*checkers.Checker{}, cryptoCheckers...), arithCheckers...)
	var bare []*checkers.Checker
	for _, c := range mine {
		cc := *c
		cc.Triage = nil
		bare = append(bare, &cc)
	}
	for _, path := range files {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		cpp := strings.HasSuffix(path, ".cc") || strings.HasSuffix(path, ".cpp") || strings.HasSuffix(path, ".h") && IsCPPHeader(src)
		with, without := triageRun(t, path, src, cpp, mine), triageRun(t, path, src, cpp, bare)
		for _, f := range without {
			if !slices.Contains(with, f) {
				t.Errorf("%s: triage dropped %s", path, f)
			}
		}
	}
}

func triageFiles(t *testing.T, dirs ...string) []string {
	var out []string
	for _, dir := range dirs {
		filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() && slices.Contains([]string{".c", ".h", ".cc", ".cpp"}, filepath.Ext(p)) {
				out = append(out, p)
			}
			return nil
		})
	}
	if len(out) == 0 {
		t.Fatalf("no files under %v", dirs)
	}
	return out
}

// triageSources reads the fixtures and, when $JSEC_TRIAGE_CORPUS is set,
// the C and C++ files under it, then adds the given inline sources.
func triageSources(t *testing.T, inline ...string) [][]byte {
	files := triageFiles(t, "testdata")
	if dir := os.Getenv("JSEC_TRIAGE_CORPUS"); dir != "" {
		files = append(files, triageFiles(t, dir)...)
	}
	var srcs [][]byte
	for _, path := range files {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		srcs = append(srcs, src)
	}
	for _, s := range inline {
		srcs = append(srcs, []byte(s))
	}
	return srcs
}

// triageRun returns "rule@line" for every finding of the checkers.
func triageRun(t *testing.T, path string, src []byte, cpp bool, cs []*checkers.Checker) []string {
	lang := &checkers.Language{Name: "c", Grammar: syntax.C, Lex: LexC, IdentByte: IdentByte, Checkers: cs}
	if cpp {
		lang = &checkers.Language{Name: "cpp", Grammar: syntax.CPP, Lex: LexCPP, IdentByte: IdentByte, Checkers: cs}
	}
	parser := syntax.NewParser(lang.Grammar)
	defer parser.Close()
	f := checkers.NewFile(path, lang.Name, src)
	res, err := checkers.NewAnalyzer(lang, nil).Analyze(context.Background(), f, parser)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range res.Problems {
		t.Errorf("%s: %s", path, p)
	}
	var out []string
	for _, fd := range res.Findings {
		out = append(out, fmt.Sprintf("%s@%d", fd.Rule, f.Lines().Line(fd.Span.Start)))
	}
	return out
}
