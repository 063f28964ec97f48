package c

import (
	"testing"

	"github.com/jsec/jsec/checkers"
	"github.com/jsec/jsec/checkers/syntax"
)

// arithGuardedWalk is the reference for arithGuarded: the walk of the
// whole body before the use that asks every node ending after the last
// reaching definition, as arithGuarded did before it went to those nodes
// directly.
func arithGuardedWalk(p *checkers.Pass, fn, use syntax.Node, path string, mode arithGuardMode) bool {
	after := 0
	for _, d := range Defs(p, fn).Reaching(rootName(path), use) {
		if arithFixUp(p, d.Node, path, mode) {
			continue
		}
		after = max(after, d.Node.End())
	}
	guarded := false
	fn.Field("body").Walk(func(n syntax.Node) bool {
		if guarded || n.Start() >= use.Start() {
			return false
		}
		if n.End() >= after && arithTests(p, n, use, path, mode) {
			guarded = true
		}
		return true
	})
	return guarded
}

// TestArithGuardedMatchesWalk asks arithGuarded and the walk about every
// identifier of every function of the C/C++ fixtures (and of
// $JSEC_TRIAGE_CORPUS when set), in each mode: the answers must be the
// same.
func TestArithGuardedMatchesWalk(t *testing.T) {
	asked, yes := 0, 0
	eachFunction(t, func(file string, p *checkers.Pass, fn syntax.Node) {
		for use := range fn.Field("body").Descendants() {
			if use.Kind() != "identifier" || EnclosingFunction(use) != fn {
				continue
			}
			for _, mode := range []arithGuardMode{guardZero, guardNegative} {
				want := arithGuardedWalk(p, fn, use, use.Text(), mode)
				if got := arithGuarded(p, fn, use, use.Text(), mode); got != want {
					t.Fatalf("%s: %s at %d (mode %d): %v, the walk says %v", file, use.Text(), use.Start(), mode, got, want)
				}
				asked++
				if want {
					yes++
				}
			}
		}
	})
	if asked < 1000 || yes == 0 {
		t.Fatalf("%d asked, %d guarded: the fixtures no longer exercise both answers", asked, yes)
	}
	t.Logf("%d asked, %d guarded", asked, yes)
}
