package c

import (
	"context"
	"os"
	"path/filepath"
	"sort"
	"testing"
	"time"

	"github.com/jsec/jsec/checkers"
	"github.com/jsec/jsec/checkers/syntax"
)

// TestParseShare is a development aid for speed, skipped unless -corpus is
// given: for every C/C++ checker alone it prints the share of the corpus
// it makes the engine parse and the time its Triage and Check take.
//
//	go test ./checkers/c -run TestParseShare -corpus /work/corpus/curl-7.88.1 -v
func TestParseShare(t *testing.T) {
	if *corpusDir == "" {
		t.Skip("no -corpus")
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
	type row struct {
		name          string
		parsed        int
		triage, check time.Duration
	}
	var rows []row
	parser := syntax.NewParser(syntax.C)
	defer parser.Close()
	for _, c := range allCheckers() {
		r := row{name: c.Name}
		timed := *c
		if c.Triage != nil {
			timed.Triage = func(lx *checkers.Lexed, tok int) bool {
				s := time.Now()
				defer func() { r.triage += time.Since(s) }()
				return c.Triage(lx, tok)
			}
		}
		timed.Check = func(p *checkers.Pass, h checkers.Hit) {
			s := time.Now()
			defer func() { r.check += time.Since(s) }()
			c.Check(p, h)
		}
		a := checkers.NewAnalyzer(&checkers.Language{Name: "c", Grammar: syntax.C, Lex: LexC, IdentByte: IdentByte, Checkers: []*checkers.Checker{&timed}}, nil)
		for _, src := range files {
			res, err := a.Analyze(context.Background(), checkers.NewFile("x.c", "c", src), parser)
			if err != nil {
				t.Fatal(err)
			}
			r.parsed += res.Parsed
		}
		rows = append(rows, r)
	}
	sort.Slice(rows, func(i, j int) bool { return rows[i].parsed > rows[j].parsed })
	for _, r := range rows {
		t.Logf("%-36s parsed %5.1f%%  triage %8s  check %8s", r.name, 100*float64(r.parsed)/float64(total), r.triage.Round(time.Millisecond), r.check.Round(time.Millisecond))
	}
}
