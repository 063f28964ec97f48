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

// TestBufferTriageDropsNothing checks the Triage contract of the buffer
// and format checkers: running a checker with its Triage must report
// exactly what it reports without it. It runs over the fixtures, and over
// -corpus when given.
func TestBufferTriageDropsNothing(t *testing.T) {
	dirs := []string{filepath.Join("testdata", "buffer"), filepath.Join("testdata", "format")}
	if *corpusDir != "" {
		dirs = append(dirs, *corpusDir)
	}
	var files []string
	for _, dir := range dirs {
		filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
			switch filepath.Ext(p) {
			case ".c", ".h", ".cc", ".cpp":
				if err == nil && !d.IsDir() {
					files = append(files, p)
				}
			}
			return nil
		})
	}
	for _, c := range append(append([]*checkers.Checker{}, bufferCheckers...), formatCheckers...) {
		if c.Triage == nil {
			continue
		}
		bare := *c
		bare.Triage = nil
		with, without := bufRunOne(t, c, files), bufRunOne(t, &bare, files)
		for k := range without {
			if !with[k] {
				t.Errorf("%s: Triage dropped %s", c.Name, k)
			}
		}
	}
}

// bufRunOne runs one checker over files and returns its findings.
func bufRunOne(t *testing.T, c *checkers.Checker, files []string) map[string]bool {
	out := map[string]bool{}
	for _, cpp := range []bool{false, true} {
		lang := &checkers.Language{Name: "c", Grammar: syntax.C, Lex: LexC, IdentByte: IdentByte, Checkers: []*checkers.Checker{c}}
		if cpp {
			lang = &checkers.Language{Name: "cpp", Grammar: syntax.CPP, Lex: LexCPP, IdentByte: IdentByte, Checkers: []*checkers.Checker{c}}
		}
		a := checkers.NewAnalyzer(lang, nil)
		parser := syntax.NewParser(lang.Grammar)
		for _, p := range files {
			ext := filepath.Ext(p)
			if cpp != (ext == ".cc" || ext == ".cpp") {
				continue
			}
			src, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			res, err := a.Analyze(context.Background(), checkers.NewFile(p, lang.Name, src), parser)
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range res.Findings {
				out[fmt.Sprintf("%s:%d %s", p, f.Span.Start, f.Rule)] = true
			}
		}
		parser.Close()
	}
	return out
}
