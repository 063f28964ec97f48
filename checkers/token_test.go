package checkers

import "testing"

// lexPunct makes a token per byte of src (spaces skipped), enough to
// exercise bracket pairing.
func lexPunct(src string) *Lexed {
	lx := &Lexed{Src: []byte(src)}
	for i := range len(src) {
		if src[i] != ' ' {
			lx.Tokens = append(lx.Tokens, NewToken(lx.Src, i, i+1, TokPunct, 0))
		}
	}
	return lx
}

func TestCloseAndOpenPairEachKindOnItsOwn(t *testing.T) {
	// tokens: 0{ 1( 2[ 3] 4) 5] 6} 7) 8(
	lx := lexPunct("{([])]})(")
	cases := []struct{ open, close int }{{0, 6}, {1, 4}, {2, 3}}
	for _, c := range cases {
		if got := lx.Close(c.open); got != c.close {
			t.Errorf("Close(%d) = %d, want %d", c.open, got, c.close)
		}
		if got := lx.Open(c.close); got != c.open {
			t.Errorf("Open(%d) = %d, want %d", c.close, got, c.open)
		}
	}
	for _, i := range []int{5, 7} { // stray closers
		if got := lx.Open(i); got != -1 {
			t.Errorf("Open(%d) = %d, want -1 for a stray closer", i, got)
		}
	}
	if got := lx.Close(8); got != -1 {
		t.Errorf("Close(8) = %d, want -1 for an unclosed opener", got)
	}
	if lx.Close(3) != -1 || lx.Open(0) != -1 || lx.Close(-1) != -1 || lx.Open(99) != -1 {
		t.Error("Close of a closer, Open of an opener and out-of-range indexes must be -1")
	}
}

// TestFindMatchesIs holds Find and FindLast to a token-by-token walk with
// Is, for every token text of a small file as the word sought and every
// range, including ranges past either end and empty ones.
func TestFindMatchesIs(t *testing.T) {
	src := []byte("int f(int a) { a = a + 1; if (a) return aa; b:: a:; x = \"a\"; return a; }")
	var toks []Token
	for i := 0; i < len(src); {
		j := i
		switch c := src[i]; {
		case c == ' ':
			i++
			continue
		case c >= 'a' && c <= 'z':
			for j < len(src) && src[j] >= 'a' && src[j] <= 'z' {
				j++
			}
		case c == '"':
			j = i + 3
		case c == ':' && src[i+1] == ':':
			j = i + 2
		default:
			j = i + 1
		}
		toks = append(toks, NewToken(src, i, j, TokIdent, 0))
		i = j
	}
	lx := &Lexed{Src: src, Tokens: toks}
	words := map[string]bool{"zz": true, "": true}
	for i := range toks {
		words[lx.Text(i)] = true
	}
	found := 0
	for w := range words {
		for from := -2; from <= len(toks)+2; from++ {
			for to := from - 1; to <= len(toks)+2; to++ {
				first, last := -1, -1
				for k := from; k < to && w != ""; k++ {
					if lx.Is(k, w) {
						if first < 0 {
							first = k
						}
						last = k
					}
				}
				if got := lx.Find(from, to, w); got != first {
					t.Fatalf("Find(%d, %d, %q) = %d, want %d", from, to, w, got, first)
				}
				if got := lx.FindLast(from, to, w); got != last {
					t.Fatalf("FindLast(%d, %d, %q) = %d, want %d", from, to, w, got, last)
				}
				if first >= 0 {
					found++
				}
			}
		}
	}
	if found == 0 {
		t.Fatal("no range holds a word: the test proves nothing")
	}
}
