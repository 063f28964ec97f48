package syntax

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// scanPrev is the reference for PrevSibling and PrevNamedSibling: the
// last child of n's parent before n (named when named is set), found by
// walking the parent's children from the first.
func scanPrev(n Node, named bool) Node {
	var prev Node
	for c := n.Parent().FirstChild(); c.Valid(); c = c.NextSibling() {
		if c.i == n.i {
			return prev
		}
		if !named || c.IsNamed() {
			prev = c
		}
	}
	return Node{}
}

// checkPrevSiblings fails unless every node's previous siblings are the
// ones the children lists give.
func checkPrevSiblings(t *testing.T, name string, tree *Tree) {
	t.Helper()
	for i := range tree.nodes {
		n := Node{tree, int32(i)}
		if got, want := n.PrevSibling(), scanPrev(n, false); got != want {
			t.Fatalf("%s: node %d (%s %q): PrevSibling is node %d, the children list says %d", name, i, n.Kind(), n.Text(), got.i, want.i)
		}
		if got, want := n.PrevNamedSibling(), scanPrev(n, true); got != want {
			t.Fatalf("%s: node %d (%s %q): PrevNamedSibling is node %d, the children list says %d", name, i, n.Kind(), n.Text(), got.i, want.i)
		}
	}
}

// TestPrevSiblingMatchesScan holds the pre-order climb of PrevSibling to
// the children lists on every fixture of the checkers and the e2e project,
// whole and in included ranges (which leave ERROR nodes and gaps).
func TestPrevSiblingMatchesScan(t *testing.T) {
	eachFixtureTree(t, checkPrevSiblings)
}

// eachFixtureTree parses every fixture of the checkers and the e2e
// project, whole and in included ranges (which leave ERROR nodes and
// gaps), and hands each tree to check.
func eachFixtureTree(t *testing.T, check func(*testing.T, string, *Tree)) {
	parsers := map[Lang]*Parser{C: NewParser(C), CPP: NewParser(CPP), Rust: NewParser(Rust)}
	for _, p := range parsers {
		defer p.Close()
	}
	files := 0
	for _, root := range []string{"../c/testdata", "../rust/testdata", "../../testdata"} {
		filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			lang, ok := flattenLangs[filepath.Ext(path)]
			if err != nil || !ok || !d.Type().IsRegular() {
				return nil
			}
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			for _, ranges := range [][]Range{nil, halves(src)} {
				// A timeout of error recovery in cut ranges leaves
				// nothing to compare.
				if tree, err := parsers[lang].Parse(src, ranges); err == nil {
					check(t, path, tree)
				}
			}
			files++
			return nil
		})
	}
	if files < 50 {
		t.Fatalf("only %d files compared", files)
	}
}

// TestPrevSiblingEnds covers the ends: the root, a first child, the zero
// Node, and a sibling after a deep subtree.
func TestPrevSiblingEnds(t *testing.T) {
	tree := parse(t, C, "int f(void) { if (a) { if (b) { g(h(i(j))); } } return 0; }")
	root := tree.Root()
	if root.PrevSibling().Valid() || (Node{}).PrevSibling().Valid() || (Node{}).PrevNamedSibling().Valid() {
		t.Fatal("the root and the zero Node have no previous sibling")
	}
	var ret Node
	for n := range root.Descendants() {
		if n.Kind() == "return_statement" {
			ret = n
		}
	}
	prev := ret.PrevSibling()
	if prev.Kind() != "if_statement" || prev.Parent() != ret.Parent() {
		t.Fatalf("before the return: %s, want the if statement", prev.Kind())
	}
	first := ret.Parent().FirstChild()
	if first.Kind() != "{" || first.PrevSibling().Valid() {
		t.Fatalf("the body's first child %q has a previous sibling", first.Kind())
	}
	if got := ret.PrevNamedSibling(); got != prev {
		t.Fatalf("previous named sibling of the return: %s", got.Kind())
	}
	if got := prev.PrevNamedSibling(); got.Valid() {
		t.Fatalf("the if statement has a previous named sibling %s", got.Kind())
	}
}

// nodeAtDescent is the reference for NodeAt: from the root down, the
// first child at each level whose span holds off.
func nodeAtDescent(t *Tree, off int) Node {
	n := t.Root()
	if !n.Valid() || off < n.Start() || off >= n.End() {
		return Node{}
	}
	for {
		var next Node
		for c := n.FirstChild(); c.Valid(); c = c.NextSibling() {
			if c.Start() > off {
				break
			}
			if off < c.End() {
				next = c
				break
			}
		}
		if !next.Valid() {
			return n
		}
		n = next
	}
}

// checkNodeAt fails unless the tree's starts never go down in pre-order
// and NodeAt finds what the descent from the root finds, at every offset
// of the source (and one past it).
func checkNodeAt(t *testing.T, name string, tree *Tree) {
	t.Helper()
	for i := 1; i < len(tree.nodes); i++ {
		if tree.nodes[i].start < tree.nodes[i-1].start {
			t.Fatalf("%s: node %d starts at %d, before node %d at %d", name, i, tree.nodes[i].start, i-1, tree.nodes[i-1].start)
		}
	}
	for off := -1; off <= len(tree.src); off++ {
		if got, want := tree.NodeAt(off), nodeAtDescent(tree, off); got != want {
			t.Fatalf("%s: NodeAt(%d) is node %d %s, the descent finds %d %s", name, off, got.i, got.Kind(), want.i, want.Kind())
		}
	}
}

// TestNodeAtMatchesDescent holds NodeAt's binary search to the descent
// from the root on every fixture, whole and in included ranges.
func TestNodeAtMatchesDescent(t *testing.T) {
	eachFixtureTree(t, checkNodeAt)
}

// TestStartingIn holds StartingIn to a filter of every node by its start,
// over stretches of every fixture (empty, reversed and past the end ones
// included).
func TestStartingIn(t *testing.T) {
	eachFixtureTree(t, func(t *testing.T, name string, tree *Tree) {
		n := len(tree.src)
		for _, r := range [][2]int{{0, n}, {n / 3, 2 * n / 3}, {n / 2, n / 2}, {n / 2, n / 4}, {n - 1, n + 5}, {-3, 1}} {
			var want, got []int32
			for m := range tree.Root().Descendants() {
				if m.Start() >= r[0] && m.Start() < r[1] {
					want = append(want, m.i)
				}
			}
			for m := range tree.StartingIn(r[0], r[1]) {
				got = append(got, m.i)
			}
			if !slices.Equal(got, want) {
				t.Fatalf("%s: StartingIn(%d, %d) gives %d nodes, the filter %d", name, r[0], r[1], len(got), len(want))
			}
		}
	})
}
