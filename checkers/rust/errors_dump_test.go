package rust

import (
	"os"
	"strings"
	"testing"

	"github.com/jsec/jsec/checkers/syntax"
)

// TestLogicDumpTree prints the syntax tree of $LOGICDUMP (a dev aid for
// the errors, arith, injection, secrets and async families).
func TestLogicDumpTree(t *testing.T) {
	path := os.Getenv("LOGICDUMP")
	if path == "" {
		t.Skip("no LOGICDUMP")
	}
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	parser := syntax.NewParser(syntax.Rust)
	defer parser.Close()
	tree, err := parser.Parse(src, nil)
	if err != nil {
		t.Fatal(err)
	}
	var rec func(n syntax.Node, depth int)
	rec = func(n syntax.Node, depth int) {
		txt := n.Text()
		if len(txt) > 40 {
			txt = txt[:40]
		}
		t.Logf("%s%s %s %q", strings.Repeat("  ", depth), n.FieldName(), n.Kind(), txt)
		for c := range n.Children() {
			rec(c, depth+1)
		}
	}
	rec(tree.Root(), 0)
}
