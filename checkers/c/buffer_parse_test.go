package c

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/jsec/jsec/checkers"
	"github.com/jsec/jsec/checkers/syntax"
)

// TestBufferParseShare is a development aid, skipped unless -corpus is
// given: it prints the share of bytes each buffer and format checker alone
// makes the engine parse.
func TestBufferParseShare(t *testing.T) {
	if *corpusDir == "" {
		t.Skip("no -corpus")
	}
	var srcs [][]byte
	total := 0
	filepath.WalkDir(*corpusDir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && (filepath.Ext(p) == ".c" || filepath.Ext(p) == ".h") {
			if src, err := os.ReadFile(p); err == nil && !IsCPPHeader(src) {
				srcs = append(srcs, src)
				total += len(src)
			}
		}
		return nil
	})
	parser := syntax.NewParser(syntax.C)
	share := func(cs []*checkers.Checker) float64 {
		lang := &checkers.Language{Name: "c", Grammar: syntax.C, Lex: LexC, IdentByte: IdentByte, Checkers: cs}
		a := checkers.NewAnalyzer(lang, nil)
		parsed := 0
		for _, src := range srcs {
			res, err := a.Analyze(context.Background(), checkers.NewFile("x.c", "c", src), parser)
			if err != nil {
				t.Fatal(err)
			}
			parsed += res.Parsed
		}
		return 100 * float64(parsed) / float64(total)
	}
	all := append(append([]*checkers.Checker{}, bufferCheckers...), formatCheckers...)
	for _, c := range all {
		t.Logf("%-28s parsed %5.2f%%", c.Name, share([]*checkers.Checker{c}))
	}
	t.Logf("%-28s parsed %5.2f%%", "all", share(all))
	t.Logf("%-28s parsed %5.2f%%", "all but strcpy and gets", share(all[2:]))
}
