package checkers

import (
	"container/heap"
	"context"
	"sync"
)

// fileQueue hands the walker's candidates to the workers largest first.
// The walk runs far ahead of the analysis, so by the time the workers are
// busy nearly every file is queued and the big ones are taken early: a
// scan does not end with one core finishing a large file while the other
// idles.
type fileQueue struct {
	mu     sync.Mutex
	cond   *sync.Cond
	items  bySize
	closed bool
}

func newFileQueue(ctx context.Context) *fileQueue {
	q := &fileQueue{}
	q.cond = sync.NewCond(&q.mu)
	context.AfterFunc(ctx, q.close)
	return q
}

// push queues c.
func (q *fileQueue) push(c Candidate) {
	q.mu.Lock()
	heap.Push(&q.items, c)
	q.mu.Unlock()
	q.cond.Signal()
}

// close ends the queue: pop drains what is left, then reports false.
func (q *fileQueue) close() {
	q.mu.Lock()
	q.closed = true
	q.mu.Unlock()
	q.cond.Broadcast()
}

// pop waits for the largest queued candidate; ok is false once the queue
// is closed and empty.
func (q *fileQueue) pop() (c Candidate, ok bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	for len(q.items) == 0 && !q.closed {
		q.cond.Wait()
	}
	if len(q.items) == 0 {
		return Candidate{}, false
	}
	return heap.Pop(&q.items).(Candidate), true
}

// bySize is a max-heap of candidates by size, then path (deterministic).
type bySize []Candidate

func (h bySize) Len() int { return len(h) }
func (h bySize) Less(i, j int) bool {
	if h[i].Size != h[j].Size {
		return h[i].Size > h[j].Size
	}
	return h[i].Rel < h[j].Rel
}
func (h bySize) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *bySize) Push(x any)   { *h = append(*h, x.(Candidate)) }
func (h *bySize) Pop() any {
	old := *h
	c := old[len(old)-1]
	*h = old[:len(old)-1]
	return c
}
