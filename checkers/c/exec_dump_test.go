package c

import (
	"context"
	"strings"

	"github.com/jsec/jsec/checkers"
	"os"
	"path/filepath"
	"testing"

	"github.com/jsec/jsec/checkers/syntax"
)

// TestExecDumpTree prints the syntax tree of $JSEC_DUMP (a development aid).
func TestExecDumpTree(t *testing.T) {
	path := os.Getenv("JSEC_DUMP")
	if path == "" {
		t.Skip("JSEC_DUMP not set")
	}
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	g := syntax.C
	if len(path) > 3 && path[len(path)-3:] == ".cc" {
		g = syntax.CPP
	}
	tree, err := syntax.NewParser(g).Parse(src, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Log(tree.Root().String())
}

// TestExecShowFindings prints every finding on $JSEC_SHOW (a development aid).
func TestExecShowFindings(t *testing.T) {
	path := os.Getenv("JSEC_SHOW")
	if path == "" {
		t.Skip("JSEC_SHOW not set")
	}
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lang, g := C(), syntax.C
	if strings.HasSuffix(path, ".cc") {
		lang, g = CPP(), syntax.CPP
	}
	f := checkers.NewFile(path, lang.Name, src)
	res, err := checkers.NewAnalyzer(lang, nil).Analyze(context.Background(), f, syntax.NewParser(g))
	if err != nil {
		t.Fatal(err)
	}
	for _, fd := range res.Findings {
		t.Logf("%d: %s [%+.2f %v] %s", f.Lines().Line(fd.Span.Start), fd.Rule, fd.Adjust, fd.Severity, fd.Message)
	}
	for _, pr := range res.Problems {
		t.Log(pr)
	}
}

// TestExecParseShare prints, per exec/files checker alone, the share of
// $JSEC_CORPUS that it makes the engine parse (a development aid).
func TestExecParseShare(t *testing.T) {
	dir := os.Getenv("JSEC_CORPUS")
	if dir == "" {
		t.Skip("JSEC_CORPUS not set")
	}
	var files [][]byte
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && (strings.HasSuffix(p, ".c") || strings.HasSuffix(p, ".h") || strings.HasSuffix(p, ".cc")) {
			if src, err := os.ReadFile(p); err == nil {
				files = append(files, src)
			}
		}
		return nil
	})
	parser := syntax.NewParser(syntax.C)
	for _, c := range append(append([]*checkers.Checker{}, execCheckers...), filesCheckers...) {
		lang := &checkers.Language{Name: "c", Grammar: syntax.C, Lex: LexC, IdentByte: IdentByte, Checkers: []*checkers.Checker{c}}
		a := checkers.NewAnalyzer(lang, nil)
		var total, parsed int
		for _, src := range files {
			res, err := a.Analyze(context.Background(), checkers.NewFile("x.c", "c", src), parser)
			if err != nil {
				t.Fatal(err)
			}
			total += len(src)
			parsed += res.Parsed
		}
		t.Logf("%-28s parsed %.2f%%", c.Name, 100*float64(parsed)/float64(max(total, 1)))
	}
}
