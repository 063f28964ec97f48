package c

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jsec/jsec/checkers"
	"github.com/jsec/jsec/checkers/syntax"
)

func TestMarginalShare(t *testing.T) {
	if *corpusDir == "" {
		t.Skip()
	}
	var files [][]byte
	total := 0
	filepath.WalkDir(*corpusDir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && (filepath.Ext(p) == ".c" || filepath.Ext(p) == ".h") {
			if src, err := os.ReadFile(p); err == nil {
				files = append(files, src)
				total += len(src)
			}
		}
		return nil
	})
	parser := syntax.NewParser(syntax.C)
	share := func(skip string) float64 {
		var cs []*checkers.Checker
		for _, c := range allCheckers() {
			if !selected(c.Name, skip) || skip == "" {
				cs = append(cs, c)
			}
		}
		a := checkers.NewAnalyzer(&checkers.Language{Name: "c", Grammar: syntax.C, Lex: LexC, IdentByte: IdentByte, Checkers: cs}, nil)
		parsed := 0
		for _, src := range files {
			res, _ := a.Analyze(context.Background(), checkers.NewFile("x.c", "c", src), parser)
			parsed += res.Parsed
		}
		return 100 * float64(parsed) / float64(total)
	}
	all := share("")
	t.Logf("all: %.1f%%", all)
	names := []string{"c/null/deref", "c/memory/alloc", "c/memory/uninit", "c/memory/free", "c/memory/maybe-null", "c/input/external", "c/buffer/strcpy"}
	if *triageSet != "" {
		names = strings.Split(*triageSet, ",")
	}
	for _, n := range names {
		t.Logf("without %-24s %.1f%% (marginal %.1f)", n, share(n), all-share(n))
	}
}
