package c

import (
	"context"
	"strings"
	"testing"

	"github.com/jsec/jsec/checkers"
	"github.com/jsec/jsec/checkers/syntax"
)

// TestDeadCodeIsNotParsed: "#if 0" blocks, the "#else" of "#if 1" and
// their directives are cut out of the parse, so checkers walking a body
// never see dead calls, and what remains parses cleanly.
func TestDeadCodeIsNotParsed(t *testing.T) {
	src := `void f(char *d, const char *s) {
#if 0
	dead_one(d);
#endif
	live_one(d);
#if 0
	dead_two(d);
#else
	live_two(d);
#endif
#if 1
	live_three(d);
#else
	dead_three(d);
#endif
	x = call(a,
#if 0
		dead_arg,
#endif
		b);
	gets(d);
}
`
	lx := Lex([]byte(src), false)
	if len(lx.Dead) == 0 {
		t.Fatal("no dead spans recorded")
	}
	needed := make([]bool, len(lx.Items))
	for i := range needed {
		needed[i] = true
	}
	p := syntax.NewParser(syntax.C)
	defer p.Close()
	a := checkers.NewAnalyzer(C(), nil)
	f := checkers.NewFile("f.c", "c", []byte(src))
	res, err := a.Analyze(context.Background(), f, p)
	if err != nil || len(res.Findings) != 1 {
		t.Fatalf("findings %v %v", res, err)
	}
	// Parse the way the engine does and inspect the tree.
	tree, err := p.Parse([]byte(src), checkers.ParseRanges(lx, needed))
	if err != nil {
		t.Fatal(err)
	}
	var calls []string
	for n := range tree.Root().Descendants() {
		if n.Kind() == "call_expression" {
			calls = append(calls, n.Field("function").Text())
		}
		if n.IsError() || n.IsMissing() {
			t.Errorf("parse error at %q", n.Text())
		}
	}
	got := strings.Join(calls, " ")
	if got != "live_one live_two live_three call gets" {
		t.Fatalf("calls in the tree: %s", got)
	}
}
