package checkers

import (
	"math/rand"
	"strings"
	"testing"
)

// TestWordTableLookup holds lookupAt to a map of the words: every word,
// found at every offset of a buffer and with every tail after it (the
// one-load hash of short words reads past their end), and random
// identifiers, most of them no word, near the buffer's end too.
func TestWordTableLookup(t *testing.T) {
	words := []string{"if", "int", "NULL", "free", "malloc", "strcpy", "memcpy", "a", "ab", "abcdefg",
		"abcdefgh", "abcdefghi", "pthread_mutex_lock", "__builtin_alloca", "x_x", ""}
	r := rand.New(rand.NewSource(1))
	for range 2000 {
		n := 1 + r.Intn(20)
		var b strings.Builder
		for range n {
			b.WriteByte("abcdefghijklmnopqrstuvwxyz_ABC"[r.Intn(30)])
		}
		words = append(words, b.String())
	}
	tab := newWordTable(words)
	ids := map[string]int{}
	for id, w := range words {
		if _, dup := ids[w]; !dup && w != "" {
			ids[w] = id
		}
	}
	check := func(src []byte, start, end int) {
		t.Helper()
		want, ok := ids[string(src[start:end])]
		if !ok {
			want = -1
		}
		if got := tab.lookupAt(src, start, end); got != want && !(ok && words[got] == words[want]) {
			t.Fatalf("lookupAt(%q, %d, %d) = %d, want %d", src, start, end, got, want)
		}
		if h, want := wordHashAt(src, start, end), wordHash(src[start:end]); h != want {
			t.Fatalf("wordHashAt(%q, %d, %d) = %x, wordHash %x", src, start, end, h, want)
		}
	}
	for _, w := range words {
		for _, tail := range []string{"", "(", "_tail", " x = 1;\n", "zzzzzzzzzz"} {
			for _, head := range []string{"", " ", "f(", "0123456789"} {
				src := []byte(head + w + tail)
				check(src, len(head), len(head)+len(w))
			}
		}
	}
	misses := 0
	for range 200000 {
		n := r.Intn(24)
		src := make([]byte, n+r.Intn(12))
		for i := range src {
			src[i] = "abcdefghijklmnopqrstuvwxyz_ABC();"[r.Intn(33)]
		}
		start := 0
		if len(src) > n {
			start = r.Intn(len(src) - n + 1)
		}
		check(src, start, start+n)
		if _, ok := ids[string(src[start:start+n])]; !ok {
			misses++
		}
	}
	if misses == 0 {
		t.Fatal("no identifier missed: the bitmap went untested")
	}
}
