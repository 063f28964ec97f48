package checkers

import "testing"

// lexPunct makes a token per byte of src (spaces skipped), enough to
// exercise bracket pairing.
func lexPunct(src string) *Lexed {
	lx := &Lexed{Src: []byte(src)}
	for i := range len(src) {
		if src[i] != ' ' {
			lx.Tokens = append(lx.Tokens, Token{Kind: TokPunct, Start: int32(i), End: int32(i + 1), First: src[i]})
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
