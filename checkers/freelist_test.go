package checkers

import (
	"sync"
	"testing"
)

func TestFreeList(t *testing.T) {
	var l FreeList[[]byte]
	if _, ok := l.Get(); ok {
		t.Fatal("Get on an empty list reported a buffer")
	}
	a, b := make([]byte, 0, 10), make([]byte, 0, 20)
	l.Put(a)
	l.Put(b)
	if got, ok := l.Get(); !ok || cap(got) != 20 {
		t.Fatalf("Get = cap %d, %v; want the buffer put last (cap 20)", cap(got), ok)
	}
	if got, ok := l.Get(); !ok || cap(got) != 10 {
		t.Fatalf("Get = cap %d, %v; want cap 10", cap(got), ok)
	}
	for i := 0; i < freeListCap+10; i++ {
		l.Put(make([]byte, 1))
	}
	if n := len(l.free); n != freeListCap {
		t.Errorf("the list kept %d buffers; want at most %d", n, freeListCap)
	}
}

// TestFreeListConcurrent hands buffers between goroutines (run with -race).
func TestFreeListConcurrent(t *testing.T) {
	var l FreeList[*[64]byte]
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			for range 1000 {
				b, ok := l.Get()
				if !ok {
					b = new([64]byte)
				}
				b[0]++
				l.Put(b)
			}
		})
	}
	wg.Wait()
	if n := len(l.free); n < 1 || n > 4 {
		t.Errorf("%d buffers left; want between 1 and 4 (one per goroutine at most)", n)
	}
}
