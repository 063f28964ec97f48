package c

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/jsec/jsec/checkers"
	"github.com/jsec/jsec/checkers/syntax"
)

// TestMemoryTriageSound runs the memory checkers over the C and C++ files
// under $MEMPERF with and without their triage and fails on any finding
// triage would hide (a dev aid: go test ./checkers/c -run
// TestMemoryTriageSound with MEMPERF=/work/corpus/curl-7.88.1).
func TestMemoryTriageSound(t *testing.T) {
	dir := os.Getenv("MEMPERF")
	if dir == "" {
		t.Skip("no MEMPERF")
	}
	var bare []*checkers.Checker
	for _, c := range memoryCheckers {
		cc := *c
		cc.Triage = nil
		bare = append(bare, &cc)
	}
	type side struct{ with, without *checkers.Analyzer }
	langs := map[string]side{}
	parsers := map[string]*syntax.Parser{"c": syntax.NewParser(syntax.C), "cpp": syntax.NewParser(syntax.CPP)}
	for name, l := range map[string]struct {
		g   syntax.Lang
		lex func([]byte) *checkers.Lexed
	}{"c": {syntax.C, LexC}, "cpp": {syntax.CPP, LexCPP}} {
		mk := func(cs []*checkers.Checker) *checkers.Analyzer {
			return checkers.NewAnalyzer(&checkers.Language{Name: name, Grammar: l.g, Lex: l.lex, IdentByte: IdentByte, Checkers: cs}, nil)
		}
		langs[name] = side{mk(memoryCheckers), mk(bare)}
	}
	total, parsed, missed := 0, 0, 0
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		lang := ""
		switch filepath.Ext(p) {
		case ".c", ".h":
			lang = "c"
		case ".cc", ".cpp", ".cxx":
			lang = "cpp"
		}
		if err != nil || d.IsDir() || lang == "" {
			return nil
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return nil
		}
		total += len(src)
		f := checkers.NewFile("x", lang, src)
		r1, _ := langs[lang].with.Analyze(context.Background(), f, parsers[lang])
		parsed += r1.Parsed
		keys := map[string]bool{}
		for _, fd := range r1.Findings {
			keys[fmt.Sprint(fd.Rule, fd.Span.Start)] = true
		}
		r2, _ := langs[lang].without.Analyze(context.Background(), f, parsers[lang])
		for _, fd := range r2.Findings {
			if !keys[fmt.Sprint(fd.Rule, fd.Span.Start)] {
				missed++
				t.Errorf("%s:%d: triage hides %s: %s", p, f.Lines().Line(fd.Span.Start), fd.Rule, fd.Message)
			}
		}
		return nil
	})
	t.Logf("with triage: parsed %.1f%% of %.1f MB; %d findings hidden", 100*float64(parsed)/float64(max(total, 1)), float64(total)/1e6, missed)
}
