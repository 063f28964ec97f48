package c

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/jsec/jsec/checkers"
	"github.com/jsec/jsec/checkers/syntax"
)

// TestMemoryParseShare prints, for each memory checker alone, the share
// of $MEMPERF's C bytes it makes the engine parse (a dev aid for triage).
func TestMemoryParseShare(t *testing.T) {
	dir := os.Getenv("MEMPERF")
	if dir == "" {
		t.Skip("no MEMPERF")
	}
	var files [][]byte
	total := 0
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && (filepath.Ext(p) == ".c" || filepath.Ext(p) == ".h") {
			if src, err := os.ReadFile(p); err == nil {
				files = append(files, src)
				total += len(src)
			}
		}
		return nil
	})
	parser := syntax.NewParser(syntax.C)
	defer parser.Close()
	for _, c := range memoryCheckers {
		lang := &checkers.Language{Name: "c", Grammar: syntax.C, Lex: LexC, IdentByte: IdentByte, Checkers: []*checkers.Checker{c}}
		a := checkers.NewAnalyzer(lang, nil)
		parsed := 0
		for _, src := range files {
			res, err := a.Analyze(context.Background(), checkers.NewFile("x.c", "c", src), parser)
			if err != nil {
				t.Fatal(err)
			}
			parsed += res.Parsed
		}
		t.Logf("%-22s parsed %5.1f%%", c.Name, 100*float64(parsed)/float64(total))
	}
}
