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

// TestWordFilter: every word passes its filter wherever it sits in a
// buffer (the short-word load reads past its end), the filter covers the
// table of its words and of any subset, not a table with a word it lacks
// (unless that word's hash shares the bits), and most other identifiers
// are turned away.
func TestWordFilter(t *testing.T) {
	r := rand.New(rand.NewSource(2))
	word := func() string {
		var b strings.Builder
		for range 1 + r.Intn(20) {
			b.WriteByte("abcdefghijklmnopqrstuvwxyz_ABC0123"[r.Intn(34)])
		}
		return b.String()
	}
	var words []string
	for range 1200 {
		words = append(words, word())
	}
	f := NewWordFilter(words)
	for _, w := range words {
		for pad := range 12 {
			src := []byte(strings.Repeat("x", pad) + w + strings.Repeat(" ", 12-pad))
			if !f.MayHold(src, pad, pad+len(w)) {
				t.Fatalf("%q at %d did not pass", w, pad)
			}
			if !f.MayHold([]byte(w), 0, len(w)) {
				t.Fatalf("%q alone did not pass", w)
			}
		}
	}
	if !f.covers(newWordTable(words)) || !f.covers(newWordTable(words[:100])) || !f.covers(newWordTable(nil)) {
		t.Fatal("the filter does not cover its own words")
	}
	passed, missing := 0, 0
	for range 20000 {
		w := word()
		src := []byte(w)
		if f.MayHold(src, 0, len(src)) {
			passed++
		}
		if !f.covers(newWordTable(append(words[:10:10], w))) {
			missing++
			if f.has(wordHash(src)) {
				t.Fatalf("%q passes but is not covered", w)
			}
		}
	}
	if passed > 20000/10 || missing == 0 {
		t.Fatalf("%d of 20000 random identifiers passed, %d not covered", passed, missing)
	}
}

// TestWordSet: every token that is one of the words passes, wherever it
// sits in the source; of the many identifiers that are none, few do.
func TestWordSet(t *testing.T) {
	words := []string{"getenv", "argv", "optarg", "main", "sprintf", "a", "abcdefgh", "abcdefghij", "recv"}
	set := NewWordSet(words[:4], words[4:], nil)
	var src strings.Builder
	var spans [][2]int
	r := rand.New(rand.NewSource(2))
	for k := range 20000 {
		w := words[k%len(words)]
		if k%3 != 0 {
			n := 1 + r.Intn(14)
			b := make([]byte, n)
			for i := range b {
				b[i] = "abcdefghijklmnopqrstuvwxyz_"[r.Intn(27)]
			}
			w = string(b)
		}
		spans = append(spans, [2]int{src.Len(), src.Len() + len(w)})
		src.WriteString(w)
		src.WriteString("(x);\n"[:1+r.Intn(5)])
	}
	lx := &Lexed{Src: []byte(src.String())}
	for _, sp := range spans {
		lx.Tokens = append(lx.Tokens, NewToken(lx.Src, sp[0], sp[1], TokIdent, 0))
	}
	is := map[string]bool{}
	for _, w := range words {
		is[w] = true
	}
	others, passed := 0, 0
	for i := range lx.Tokens {
		w := lx.Text(i)
		got := set.MayHave(lx, i)
		if set.MayHaveString(w) != got {
			t.Fatalf("MayHaveString(%q) = %v, MayHave %v", w, !got, got)
		}
		if is[w] && !got {
			t.Fatalf("MayHave(%q) = false for one of the words", w)
		}
		if !is[w] {
			others++
			if got {
				passed++
			}
		}
	}
	if others == 0 || passed*100 > others {
		t.Fatalf("%d of %d other identifiers passed: the bitmap filters nothing", passed, others)
	}
}
