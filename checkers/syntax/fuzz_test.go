package syntax

import "testing"

// FuzzParse: tree-sitter and the flattening must accept any bytes, the
// flat tree must be a well-formed pre-order tree inside the source, and
// the arena's tree, built with runtime.c's shortcuts and the grammars'
// ADVANCE_MAP table, must be the one libc allocation and tree-sitter's own
// code give, whole and in ranges that cut tokens and characters.
func FuzzParse(f *testing.F) {
	f.Add([]byte("int main(void) { return 0; }"), uint8(0))
	f.Add([]byte("fn f() { unsafe { *p } }"), uint8(2))
	f.Add([]byte("template<class T> class A : B<T> { };"), uint8(1))
	parsers := []*Parser{NewParser(C), NewParser(CPP), NewParser(Rust)}
	libc := []*Parser{NewParser(C), NewParser(CPP), NewParser(Rust)}
	for _, p := range libc {
		p.useLibc()
		p.useBalance()
		p.useTreeSitterOnly()
	}
	pairs := []flattenPair{newFlattenPair(C), newFlattenPair(CPP), newFlattenPair(Rust)}
	f.Cleanup(func() {
		for i, p := range parsers {
			p.Close()
			libc[i].Close()
			pairs[i].Close()
		}
	})
	f.Fuzz(func(t *testing.T, src []byte, which uint8) {
		// The direct walk must give what tree-sitter's cursor gives, also
		// on ranges that cut constructs.
		pairs[int(which)%3].check(t, "input", src, halves(src))
		tree, err := parsers[int(which)%3].Parse(src, nil)
		if err != nil {
			t.Fatal(err)
		}
		// The arena (freed blocks reused) builds the tree libc does, and
		// leaving repetitions unbalanced changes no visible node.
		if l, err := treeSitterParse(libc[int(which)%3], src, nil); err != nil || shapeOf(l) != shapeOf(tree) {
			t.Fatalf("the arena's tree differs from libc's (%v)", err)
		}
		if rs := cuts(src); len(rs) > 0 {
			a, err := parsers[int(which)%3].Parse(src, rs)
			if err != nil {
				t.Fatal(err)
			}
			shape := shapeOf(a)
			if l, err := treeSitterParse(libc[int(which)%3], src, rs); err != nil || shapeOf(l) != shape {
				t.Fatalf("in ranges, the arena's tree differs from libc's (%v)", err)
			}
		}
		tree, err = parsers[int(which)%3].Parse(src, nil) // the check below reads the whole tree
		if err != nil {
			t.Fatal(err)
		}
		checkPrevSiblings(t, "input", tree)
		checkNodeAt(t, "input", tree)
		for n := range tree.Root().Descendants() {
			if n.Start() > n.End() || n.End() > len(src) {
				t.Fatalf("node %s [%d,%d) outside %d bytes", n.Kind(), n.Start(), n.End(), len(src))
			}
			if p := n.Parent(); p.Valid() && (n.Start() < p.Start() || n.End() > p.End()) {
				t.Fatalf("child %s outside parent %s", n.Kind(), p.Kind())
			}
		}
	})
}
