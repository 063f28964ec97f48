package c

import (
	"testing"

	"github.com/jsec/jsec/checkers"
)

// TestSpreadSkipsUntainted: for every item of the fixtures (and
// $JSEC_TRIAGE_CORPUS) that holds an external-input trigger, spread, which
// returns at once when the seeds tainted nothing, answers as the rounds
// over the item do.
func TestSpreadSkipsUntainted(t *testing.T) {
	srcs := triageSources(t, `int cmd_x(int argc, const char **argv) { char b[8]; int n = atoi(argv[1]); b[n] = 0; return 0; }
int main(int argc, char **argv) { char b[8]; int n = atoi(argv[1]); b[n] = 0; return 0; }
void f(struct s *s) { s->read = 0; }
`)
	items, untainted, yes := 0, 0, 0
	for _, src := range srcs {
		lx := Lex(src, false)
		for _, item := range lx.Items {
			if !itemHasExternalTrigger(lx, item) {
				continue
			}
			items++
			a := &inTokenTaint{lx: lx, start: item.TokStart, end: item.TokEnd}
			b := &inTokenTaint{lx: lx, start: item.TokStart, end: item.TokEnd}
			sa, sb := a.seedAll(item), b.seedAll(item)
			if sa != sb {
				t.Fatal("seedAll is not deterministic")
			}
			if sa {
				continue
			}
			if a.count() == 0 {
				untainted++
			}
			got, want := a.spread(), b.rounds()
			if got != want {
				t.Fatalf("item at line %d: spread %v, rounds %v", lineOf(src, item.Start), got, want)
			}
			if want {
				yes++
			}
		}
		lx.Recycle()
	}
	if untainted == 0 || yes == 0 || untainted == items {
		t.Fatalf("%d items, %d untainted after seeding, %d reaching a sink: the test proves little", items, untainted, yes)
	}
	t.Logf("%d items with a trigger, %d untainted after seeding, %d reach a sink", items, untainted, yes)
}

func itemHasExternalTrigger(lx *checkers.Lexed, item checkers.Item) bool {
	for k := item.TokStart; k < item.TokEnd; k++ {
		if lx.Kind(k) == checkers.TokIdent && inExternalTriggerSet[lx.Text(k)] {
			return true
		}
	}
	return false
}
