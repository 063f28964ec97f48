package c

import (
	"testing"
	"unsafe"
)

// TestFlowArenaVectorsDisjoint: every vector an arena hands out is its
// own, capped at its length (an append cannot run into the next one),
// small ones from shared chunks, large ones allocated alone; states
// likewise.
func TestFlowArenaVectorsDisjoint(t *testing.T) {
	ar := &flowArena{}
	var vecs [][]flowVal
	var states []*flowState
	for n := 0; n < 700; n += 7 {
		v := ar.newVals(n)
		if len(v) != n || cap(v) != n {
			t.Fatalf("newVals(%d): len %d cap %d", n, len(v), cap(v))
		}
		for i := range v {
			v[i] = flowVal{bits: flowBits(len(vecs) + 1), n: uint32(i)}
		}
		vecs = append(vecs, v)
		s := ar.newState()
		s.dead = len(states)%2 == 0
		states = append(states, s)
	}
	for k, v := range vecs {
		for i := range v {
			if v[i].bits != flowBits(k+1) || v[i].n != uint32(i) {
				t.Fatalf("vector %d (len %d) overwritten at %d: %+v", k, len(v), i, v[i])
			}
		}
	}
	for k, s := range states {
		if s.dead != (k%2 == 0) || s.ar != ar || s.v != nil {
			t.Fatalf("state %d overwritten: %+v", k, *s)
		}
	}
	if len(ar.takenVals) < 2 || len(ar.takenStates) < 1 {
		t.Fatalf("took %d value chunks and %d state chunks: the test should span several", len(ar.takenVals), len(ar.takenStates))
	}
	ar.release()
}

// TestFlowArenaReleaseReuses: released chunks go back cleared (they keep
// no origins alive) and the next walk's arena hands them out again.
func TestFlowArenaReleaseReuses(t *testing.T) {
	ar := &flowArena{}
	org := []flowOrigin{{fbNull, 42}}
	v := ar.newVals(10)
	for i := range v {
		v[i] = mkFlowVal(fbNull, org)
	}
	ar.newState()
	chunk := unsafe.SliceData(ar.takenVals[0])
	ar.release()
	if ar.vals != nil || ar.takenVals != nil || ar.takenStates != nil {
		t.Fatal("release left the arena holding chunks")
	}
	next := &flowArena{}
	w := next.newVals(10)
	if unsafe.SliceData(next.takenVals[0]) != chunk {
		t.Fatal("the next arena did not reuse the released chunk")
	}
	for i := range w {
		if w[i] != (flowVal{}) {
			t.Fatalf("reused vector holds %+v at %d, want zero", w[i], i)
		}
	}
	next.release()
}
