package checkers

import "sync"

// A FreeList keeps buffers for reuse from file to file (token tables,
// file contents, line indexes). Unlike a sync.Pool, it keeps them across
// collections and hands any of them to any worker: a sync.Pool's per-P
// slots missed often, as a scan worker coming back from a cgo call or a
// read usually runs on another P than the one it put its buffers on. It
// holds at most freeListCap buffers; the zero value is ready to use.
type FreeList[T any] struct {
	mu   sync.Mutex
	free []T
}

// freeListCap bounds a FreeList: more buffers than files analysed at once
// are only ever kept when something took more than it gave back.
const freeListCap = 64

// Get returns the buffer put last, or ok false when none is left.
func (l *FreeList[T]) Get() (v T, ok bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if n := len(l.free); n > 0 {
		v, ok = l.free[n-1], true
		var zero T
		l.free[n-1] = zero
		l.free = l.free[:n-1]
	}
	return v, ok
}

// Put keeps v for a later Get (or drops it when the list is full).
func (l *FreeList[T]) Put(v T) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.free) < freeListCap {
		l.free = append(l.free, v)
	}
}
