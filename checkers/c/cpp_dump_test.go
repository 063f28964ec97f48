package c

import (
	"os"
	"testing"

	"github.com/jsec/jsec/checkers/syntax"
)

// TestCPPDumpTree prints the syntax tree of the file named by JSEC_DUMP, a
// development aid for writing rules.
func TestCPPDumpTree(t *testing.T) {
	path := os.Getenv("JSEC_DUMP")
	if path == "" {
		t.Skip("JSEC_DUMP not set")
	}
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lang := syntax.C
	if os.Getenv("JSEC_DUMP_CPP") != "" {
		lang = syntax.CPP
	}
	tree, err := syntax.NewParser(lang).Parse(src, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Log(tree.Root().String())
}
