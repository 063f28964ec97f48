package c

import "github.com/jsec/jsec/checkers"

// flowArena hands out the states and slot vectors of one function's
// memory walk from chunks that go back to a free list when the walk ends
// (release), for the next function of any file. A walk clones a state at
// every branch and merges at every join: on curl that was 3.5 MB of
// short-lived allocations per scan, every byte of it fresh memory the
// process had to fault in, where a few reused chunks do.
type flowArena struct {
	vals   []flowVal   // unused part of the current chunk
	states []flowState // unused part of the current chunk
	// taken are the chunks handed out from, to give back.
	takenVals   [][]flowVal
	takenStates [][]flowState
}

const (
	flowValChunk   = 4096 // 64 KB
	flowStateChunk = 512  // 20 KB
)

var (
	flowValChunks   checkers.FreeList[[]flowVal]
	flowStateChunks checkers.FreeList[[]flowState]
)

// newVals returns a vector of n values for the caller to fill in whole
// (it holds a released walk's values). Vectors too large to share a
// chunk are allocated on their own.
func (ar *flowArena) newVals(n int) []flowVal {
	if n > flowValChunk/8 {
		return make([]flowVal, n)
	}
	if len(ar.vals) < n {
		c, ok := flowValChunks.Get()
		if !ok {
			c = make([]flowVal, flowValChunk)
		}
		ar.takenVals = append(ar.takenVals, c)
		ar.vals = c
	}
	v := ar.vals[:n:n]
	ar.vals = ar.vals[n:]
	return v
}

// newState returns a state with no values, not dead, from ar.
func (ar *flowArena) newState() *flowState {
	if len(ar.states) == 0 {
		c, ok := flowStateChunks.Get()
		if !ok {
			c = make([]flowState, flowStateChunk)
		}
		ar.takenStates = append(ar.takenStates, c)
		ar.states = c
	}
	s := &ar.states[0]
	ar.states = ar.states[1:]
	*s = flowState{ar: ar}
	return s
}

// release gives the chunks back, cleared so that the free list keeps no
// origins alive. No state or vector handed out may be used afterwards.
func (ar *flowArena) release() {
	for _, c := range ar.takenVals {
		clear(c)
		flowValChunks.Put(c)
	}
	for _, c := range ar.takenStates {
		clear(c)
		flowStateChunks.Put(c)
	}
	*ar = flowArena{}
}
