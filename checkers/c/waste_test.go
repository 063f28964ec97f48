package c

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/jsec/jsec/checkers"
	"github.com/jsec/jsec/checkers/syntax"
)

// TestParseWaste is a development aid, skipped unless -corpus is given:
// for each checker named by -triage (default: the memory family), it
// prints how many of the items its triage sends to the parser yield none
// of its findings. With WASTE_LINES=1 it lists the triggers kept in those
// items (file:line), the cases to study for a sharper triage.
//
//	WASTE_LINES=1 go test ./checkers/c -run TestParseWaste -corpus DIR -triage c/null -v
func TestParseWaste(t *testing.T) {
	if *corpusDir == "" {
		t.Skip("no -corpus")
	}
	type src struct {
		path string
		b    []byte
		cpp  bool
	}
	var files []src
	total := 0
	filepath.WalkDir(*corpusDir, func(p string, d os.DirEntry, err error) error {
		ext := filepath.Ext(p)
		cppExt := ext == ".cc" || ext == ".cpp" || ext == ".cxx" || ext == ".hh" || ext == ".hpp"
		if err == nil && !d.IsDir() && (ext == ".c" || ext == ".h" || cppExt) {
			if b, err := os.ReadFile(p); err == nil {
				files = append(files, src{p, b, cppExt || ext == ".h" && IsCPPHeader(b)})
				total += len(b)
			}
		}
		return nil
	})
	parsers := map[bool]*syntax.Parser{false: syntax.NewParser(syntax.C), true: syntax.NewParser(syntax.CPP)}
	defer parsers[false].Close()
	defer parsers[true].Close()
	for _, c := range allCheckers() {
		if !selected(c.Name, *triageSet) || (*triageSet == "" && c.Name[:4] != "c/me" && c.Name != "c/null/deref") {
			continue
		}
		type span struct{ s, e int }
		kept, useful, items, usefulItems := 0, 0, 0, 0
		for _, f := range files {
			seen := map[span]bool{}
			var trig []int
			wrapped := *c
			if c.Triage != nil {
				wrapped.Triage = func(lx *checkers.Lexed, tok int) bool {
					k := c.Triage(lx, tok)
					if k {
						trig = append(trig, int(lx.Tokens[tok].Start))
					}
					return k
				}
			}
			wrapped.Check = func(p *checkers.Pass, h checkers.Hit) {
				seen[span{p.Item.Start, p.Item.End}] = true
				c.Check(p, h)
			}
			lang := &checkers.Language{Name: "c", Grammar: syntax.C, Lex: LexC, IdentByte: IdentByte, Checkers: []*checkers.Checker{&wrapped}}
			if f.cpp {
				lang = &checkers.Language{Name: "cpp", Grammar: syntax.CPP, Lex: LexCPP, IdentByte: IdentByte, Checkers: []*checkers.Checker{&wrapped}}
			}
			a := checkers.NewAnalyzer(lang, nil)
			res, err := a.Analyze(context.Background(), checkers.NewFile("x."+lang.Name, lang.Name, f.b), parsers[f.cpp])
			if err != nil {
				t.Fatal(err)
			}
			for sp := range seen {
				items++
				kept += sp.e - sp.s
				hit := false
				for _, fd := range res.Findings {
					if fd.Span.Start >= sp.s && fd.Span.Start < sp.e {
						hit = true
					}
				}
				if hit {
					usefulItems++
					useful += sp.e - sp.s
				} else {
					for _, o := range trig {
						if o >= sp.s && o < sp.e && os.Getenv("WASTE_LINES") != "" {
							t.Logf("  %s:%d", f.path, 1+bytes.Count(f.b[:o], []byte("\n")))
						}
					}
				}
			}
		}
		t.Logf("%-22s kept %6d items %8d B (%.2f%%); with findings %5d items %8d B", c.Name, items, kept, 100*float64(kept)/float64(total), usefulItems, useful)
	}
}
