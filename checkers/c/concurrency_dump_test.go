package c

import (
	"os"
	"testing"

	"github.com/jsec/jsec/checkers/syntax"
)

// TestConcurrencyDumpTree prints the syntax tree of $CONCDUMP (a dev aid;
// set CONCCPP for C++).
func TestConcurrencyDumpTree(t *testing.T) {
	path := os.Getenv("CONCDUMP")
	if path == "" {
		t.Skip("no CONCDUMP")
	}
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lang := syntax.C
	if os.Getenv("CONCCPP") != "" {
		lang = syntax.CPP
	}
	tree, err := syntax.NewParser(lang).Parse(src, nil)
	if err != nil {
		t.Fatal(err)
	}
	var rec func(n syntax.Node, depth int)
	rec = func(n syntax.Node, depth int) {
		if !n.IsNamed() {
			return
		}
		txt := n.Text()
		if len(txt) > 40 {
			txt = txt[:40]
		}
		t.Logf("%*s%s %s %q", 2*depth, "", n.FieldName(), n.Kind(), txt)
		for c := range n.Children() {
			rec(c, depth+1)
		}
	}
	rec(tree.Root(), 0)
}
