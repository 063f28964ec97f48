package rust

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jsec/jsec/checkers"
	"github.com/jsec/jsec/checkers/syntax"
)

// TestUnsafeDumpTree prints the syntax tree of $UNSAFEDUMP (a dev aid for
// the unsafe, memory and ffi families).
func TestUnsafeDumpTree(t *testing.T) {
	path := os.Getenv("UNSAFEDUMP")
	if path == "" {
		t.Skip("no UNSAFEDUMP")
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

// TestUnsafeTriggerStats counts, per trigger word of the unsafe, memory and
// ffi families, the occurrences in $UNSAFESTATS (a directory) that pass
// Triage and so cause parsing (a dev aid for tuning triggers).
func TestUnsafeTriggerStats(t *testing.T) {
	dir := os.Getenv("UNSAFESTATS")
	if dir == "" {
		t.Skip("no UNSAFESTATS")
	}
	var fams []*checkers.Checker
	fams = append(fams, unsafeCheckers...)
	fams = append(fams, memoryCheckers...)
	fams = append(fams, ffiCheckers...)
	counts := map[string]int{}
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || filepath.Ext(p) != ".rs" {
			return nil
		}
		src, _ := os.ReadFile(p)
		lx := Lex(src)
		for i := range lx.Tokens {
			if lx.Tokens[i].Kind != checkers.TokIdent {
				continue
			}
			w := lx.Text(i)
			for _, c := range fams {
				for _, trig := range c.Triggers {
					if trig == w && (c.Triage == nil || c.Triage(lx, i)) {
						counts[c.Name+" "+w]++
					}
				}
			}
		}
		return nil
	})
	for k, v := range counts {
		t.Logf("%6d %s", v, k)
	}
}
