package checkers_test

import (
	"context"
	"sort"
	"strconv"
	"testing"

	"github.com/jsec/jsec/checkers"
	cchk "github.com/jsec/jsec/checkers/c"
)

// panicSrc has "alpha" three times; the triage of t/panicky panics on the
// one called with 2. Each line is a function of its own.
const panicSrc = `void f1(void) { alpha(1); }
void f2(void) { alpha(2); }
void f3(void) { alpha(3); }
void f4(void) { int alpha = 4; (void)alpha; }
`

// TestTriagePanicMeansCheck holds the engine to its promise for a Triage
// that panics: the occurrence is checked (Check decides), the other
// checkers of the same word are still asked about it, and triage goes on
// with the occurrences after it; with and without a profile (--time).
func TestTriagePanicMeansCheck(t *testing.T) {
	for _, profiled := range []bool{false, true} {
		lang := *cchk.C()
		report := func(rule string) func(p *checkers.Pass, h checkers.Hit) {
			return func(p *checkers.Pass, h checkers.Hit) {
				p.Report(checkers.Finding{Rule: rule, Span: checkers.NodeSpan(h.Node)})
			}
		}
		lang.Checkers = []*checkers.Checker{
			{
				Name: "t/panicky", Rules: []string{"c.buffer.gets"}, Triggers: []string{"alpha"},
				Triage: func(lx *checkers.Lexed, tok int) bool {
					if lx.Is(tok+2, "2") {
						var m map[string]int
						m["boom"] = 1 // panics
					}
					return false
				},
				Check: report("c.buffer.gets"),
			},
			{
				Name: "t/calls", Rules: []string{"c.buffer.strcpy"}, Triggers: []string{"alpha"},
				Triage: func(lx *checkers.Lexed, tok int) bool { return lx.Is(tok+1, "(") },
				Check:  report("c.buffer.strcpy"),
			},
		}
		root := t.TempDir()
		write(t, root, "a.c", []byte(panicSrc))
		opt := checkers.Options{Languages: map[string]*checkers.Language{"c": &lang}}
		if profiled {
			opt.Profile = checkers.NewProfile()
		}
		res, err := checkers.Scan(context.Background(), root, opt)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, is := range res.Issues {
			got = append(got, is.Rule+"@"+strconv.Itoa(is.Line))
		}
		sort.Strings(got)
		want := []string{"c.buffer.gets@2", "c.buffer.strcpy@1", "c.buffer.strcpy@2", "c.buffer.strcpy@3"}
		if len(got) != len(want) {
			t.Fatalf("profiled=%v: issues %v, want %v", profiled, got, want)
		}
		for i := range want {
			if got[i] != want[i] {
				t.Fatalf("profiled=%v: issues %v, want %v", profiled, got, want)
			}
		}
	}
}
