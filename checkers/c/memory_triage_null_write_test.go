package c

import "testing"

// derefBetween reports a dereference of the path [ps, ps+n) (alone or as
// the base of a longer path) in (i, stop), or a copy of it into a plain
// variable: with straightWrite, the two passes derefBeforeWrite makes one.
func (m memLex) derefBetween(i, stop, ps, n int) bool {
	for k := i; k < stop; k++ {
		if m.derefAt(k, ps, n) {
			return true
		}
	}
	return false
}

// TestDerefBeforeWriteMatchesTwoPasses asks, for every value stored into
// a path (p = NULL; s->q = x, …) in the fixtures (and $JSEC_TRIAGE_CORPUS),
// whether the path is dereferenced in the rest of the block before a
// straight write to it: in one pass and as the NULL triage asked it
// before, with straightWrite then derefBetween.
func TestDerefBeforeWriteMatchesTwoPasses(t *testing.T) {
	// A write that is not straight (in a branch), a write to a member of
	// the same root, a use in the written value, a dereference after the
	// write, a copy, and *p = as the write.
	srcs := triageSources(t, `void f(struct s *s, char *p, char **pp) {
	p = NULL;
	if (c) p = g();
	s->q = NULL;
	s->r = h();
	s->q->x = 1;
	p = NULL;
	p = p + 1;
	*p = 0;
	p = NULL;
	q = p;
	*pp = NULL;
	*pp = k();
	(*pp)->x = 2;
}
`)
	yes, asked := 0, 0
	for _, src := range srcs {
		lx := Lex(src, false)
		for tok := range lx.Tokens {
			m, ok := newMemLex(lx, tok)
			if !ok {
				continue
			}
			ps, pe, ok := m.target(tok)
			if !ok {
				continue
			}
			_, close := m.enclosingBlock(tok)
			se := m.stmtEnd(tok)
			stop := min(close, m.straightWrite(se, ps, pe-ps, close))
			want := m.derefBetween(tok+1, stop, ps, pe-ps)
			if got := m.derefBeforeWrite(tok+1, se, close, ps, pe-ps); got != want {
				t.Fatalf("token %d %q (line %d): one pass %v, two passes %v", tok, lx.Text(tok), lineOf(src, int(lx.Tokens[tok].Start)), got, want)
			}
			asked++
			if want {
				yes++
			}
		}
		lx.Recycle()
	}
	if yes == 0 || yes == asked {
		t.Fatalf("%d of %d stores reach a dereference: the test proves little", yes, asked)
	}
	t.Logf("%d stores, %d dereferenced before a straight write", asked, yes)
}

func lineOf(src []byte, off int) int {
	n := 1
	for _, b := range src[:off] {
		if b == '\n' {
			n++
		}
	}
	return n
}
