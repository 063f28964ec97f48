package c

import (
	"os"
	"testing"

	"github.com/jsec/jsec/checkers/syntax"
)

// TestMemoryDumpTree prints the syntax tree of $MEMDUMP (a dev aid).
func TestMemoryDumpTree(t *testing.T) {
	path := os.Getenv("MEMDUMP")
	if path == "" {
		t.Skip("no MEMDUMP")
	}
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lang := syntax.C
	if os.Getenv("MEMCPP") != "" {
		lang = syntax.CPP
	}
	tree, err := syntax.NewParser(lang).Parse(src, nil)
	if err != nil {
		t.Fatal(err)
	}
	var rec func(n syntax.Node, depth int)
	rec = func(n syntax.Node, depth int) {
		pad := ""
		for i := 0; i < depth; i++ {
			pad += "  "
		}
		txt := n.Text()
		if len(txt) > 40 {
			txt = txt[:40]
		}
		t.Logf("%s%s %s %q", pad, n.FieldName(), n.Kind(), txt)
		for c := range n.Children() {
			rec(c, depth+1)
		}
	}
	rec(tree.Root(), 0)
}
