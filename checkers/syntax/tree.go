package syntax

import (
	"iter"
	"unsafe"
)

// Tree is a parsed source in pre-order. See the package comment for its
// lifetime.
type Tree struct {
	src   []byte
	nodes []cnode
	g     *grammar
	lang  Lang
	// fields caches field-name lookups: checkers pass constant strings,
	// so a hit costs a pointer compare instead of a map lookup.
	fields [64]fieldCache
}

type fieldCache struct {
	name string
	id   uint16
	ok   bool
}

// fieldID returns the grammar's id of field name. The cache slot is
// chosen by the name's address; the string comparison that confirms a
// hit returns at once when the two strings share their bytes.
func (t *Tree) fieldID(name string) (uint16, bool) {
	e := &t.fields[(uintptr(unsafe.Pointer(unsafe.StringData(name)))>>3)%uintptr(len(t.fields))]
	if e.name == name && name != "" {
		return e.id, e.ok
	}
	id, ok := t.g.field[name]
	*e = fieldCache{name: name, id: id, ok: ok}
	return id, ok
}

// Source returns the bytes the tree was parsed from.
func (t *Tree) Source() []byte { return t.src }

// Lang returns the tree's grammar.
func (t *Tree) Lang() Lang { return t.lang }

// Len returns the number of nodes.
func (t *Tree) Len() int { return len(t.nodes) }

// Root returns the root node.
func (t *Tree) Root() Node {
	if len(t.nodes) == 0 {
		return Node{}
	}
	return Node{t, 0}
}

// NodeAt returns the deepest node whose span contains the byte at off, or
// the zero Node when none does.
//
// In pre-order the nodes' starts never go down (a child starts where its
// parent does or later, a sibling where the one before it ends or later;
// FuzzParse checks it), so the last node starting at or before off lies
// in the subtree of that deepest node, which is the first node on its way
// up whose span holds off. A binary search and a climb: descending from
// the root through each level's children, one after another, cost a
// check for every statement before the one it looked for, for each of the
// thousands of findings in a generated function of 1 MB.
func (t *Tree) NodeAt(off int) Node {
	if len(t.nodes) == 0 || off < int(t.nodes[0].start) || off >= int(t.nodes[0].end) {
		return Node{}
	}
	lo, hi := 0, len(t.nodes) // the first node starting after off
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if int(t.nodes[m].start) <= off {
			lo = m + 1
		} else {
			hi = m
		}
	}
	i := int32(lo - 1)
	for off >= int(t.nodes[i].end) {
		i = t.nodes[i].parent
	}
	return Node{t, i}
}

// StartingIn yields the nodes whose start lies in [from, to), in
// pre-order (source order): a binary search and a run through the nodes,
// as NodeAt.
func (t *Tree) StartingIn(from, to int) iter.Seq[Node] {
	return func(yield func(Node) bool) {
		lo, hi := 0, len(t.nodes) // the first node starting at or after from
		for lo < hi {
			m := int(uint(lo+hi) >> 1)
			if int(t.nodes[m].start) < from {
				lo = m + 1
			} else {
				hi = m
			}
		}
		for i := lo; i < len(t.nodes) && int(t.nodes[i].start) < to; i++ {
			if !yield(Node{t, int32(i)}) {
				return
			}
		}
	}
}

// Node is a node of a Tree. The zero Node is invalid; every method on it
// returns a zero value, so chains such as n.Parent().Field("x") are safe.
type Node struct {
	t *Tree
	i int32
}

func (n Node) c() *cnode { return &n.t.nodes[n.i] }

func (n Node) at(i int32) Node {
	if i < 0 {
		return Node{}
	}
	return Node{n.t, i}
}

// Valid reports whether n refers to a node.
func (n Node) Valid() bool { return n.t != nil }

// Tree returns the node's tree.
func (n Node) Tree() *Tree { return n.t }

// Index returns the node's position in pre-order; nodes of one tree compare
// by it in source order.
func (n Node) Index() int { return int(n.i) }

// Kind returns the grammar's name for the node ("call_expression", "(",
// "ERROR").
func (n Node) Kind() string {
	if n.t == nil {
		return ""
	}
	s := n.c().sym
	if s == symError {
		return "ERROR"
	}
	return n.t.g.kinds[s]
}

// Is reports whether the node's kind is one of kinds.
func (n Node) Is(kinds ...string) bool {
	k := n.Kind()
	for _, x := range kinds {
		if k == x {
			return true
		}
	}
	return false
}

// IsNamed reports whether the node is a named node (not punctuation).
func (n Node) IsNamed() bool { return n.t != nil && n.c().flags&flagNamed != 0 }

// IsMissing reports whether tree-sitter inserted the node to recover.
func (n Node) IsMissing() bool { return n.t != nil && n.c().flags&flagMissing != 0 }

// IsError reports whether the node is an ERROR node.
func (n Node) IsError() bool { return n.t != nil && n.c().sym == symError }

// Start returns the node's first byte offset.
func (n Node) Start() int {
	if n.t == nil {
		return 0
	}
	return int(n.c().start)
}

// End returns the offset just past the node.
func (n Node) End() int {
	if n.t == nil {
		return 0
	}
	return int(n.c().end)
}

// Bytes returns the node's source bytes (not a copy).
func (n Node) Bytes() []byte {
	if n.t == nil {
		return nil
	}
	return n.t.src[n.c().start:n.c().end]
}

// Text returns the node's source text.
//
// The string shares the source's bytes (no copy); the source is never
// modified. Copy it (strings.Clone) before keeping it beyond the file's
// analysis.
func (n Node) Text() string {
	b := n.Bytes()
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(&b[0], len(b))
}

// Parent returns the parent node.
func (n Node) Parent() Node {
	if n.t == nil {
		return Node{}
	}
	return n.at(n.c().parent)
}

// FirstChild returns the first child, named or not.
func (n Node) FirstChild() Node {
	if n.t == nil {
		return Node{}
	}
	return n.at(n.c().child)
}

// NextSibling returns the next sibling, named or not.
func (n Node) NextSibling() Node {
	if n.t == nil {
		return Node{}
	}
	return n.at(n.c().next)
}

// PrevSibling returns the previous sibling, named or not. It costs the
// depth of that sibling's last descendants, not the number of siblings
// before it: in pre-order the node just before n is the last node of its
// previous sibling's subtree, so the sibling is the ancestor of that node
// whose parent is n's. (Walking the parent's children from the first made
// a check that steps back over the statements of a block quadratic in
// them, and cubic over its calls: minutes on a 200 KB function.)
func (n Node) PrevSibling() Node {
	if n.t == nil {
		return Node{}
	}
	c := n.c()
	if c.parent < 0 || n.t.nodes[c.parent].child == n.i {
		return Node{} // the root, or a first child
	}
	j := n.i - 1
	for n.t.nodes[j].parent != c.parent {
		j = n.t.nodes[j].parent
	}
	return Node{n.t, j}
}

// PrevNamedSibling returns the previous named sibling.
func (n Node) PrevNamedSibling() Node {
	for c := n.PrevSibling(); c.Valid(); c = c.PrevSibling() {
		if c.IsNamed() {
			return c
		}
	}
	return Node{}
}

// NextNamedSibling returns the next named sibling.
func (n Node) NextNamedSibling() Node {
	for c := n.NextSibling(); c.Valid(); c = c.NextSibling() {
		if c.IsNamed() {
			return c
		}
	}
	return Node{}
}

// Children iterates over all children.
func (n Node) Children() iter.Seq[Node] {
	return func(yield func(Node) bool) {
		for c := n.FirstChild(); c.Valid(); c = c.NextSibling() {
			if !yield(c) {
				return
			}
		}
	}
}

// NamedChildren iterates over the named children (comments included).
func (n Node) NamedChildren() iter.Seq[Node] {
	return func(yield func(Node) bool) {
		for c := n.FirstChild(); c.Valid(); c = c.NextSibling() {
			if c.IsNamed() && !yield(c) {
				return
			}
		}
	}
}

// NamedChild returns the i-th named child that is not a comment.
func (n Node) NamedChild(i int) Node {
	for c := n.FirstChild(); c.Valid(); c = c.NextSibling() {
		if !c.IsNamed() || isComment(c) {
			continue
		}
		if i == 0 {
			return c
		}
		i--
	}
	return Node{}
}

// NamedChildCount counts the named children that are not comments.
func (n Node) NamedChildCount() int {
	k := 0
	for c := n.FirstChild(); c.Valid(); c = c.NextSibling() {
		if c.IsNamed() && !isComment(c) {
			k++
		}
	}
	return k
}

func isComment(n Node) bool {
	k := n.Kind()
	return k == "comment" || k == "line_comment" || k == "block_comment"
}

// FieldName returns the name of the field under which the node hangs off
// its parent, or "".
func (n Node) FieldName() string {
	if n.t == nil {
		return ""
	}
	return n.t.g.fields[n.c().field]
}

// Field returns the first child under the named field.
func (n Node) Field(name string) Node {
	if n.t == nil {
		return Node{}
	}
	id, ok := n.t.fieldID(name)
	if !ok {
		return Node{}
	}
	for c := n.FirstChild(); c.Valid(); c = c.NextSibling() {
		if c.c().field == id {
			return c
		}
	}
	return Node{}
}

// Descendants iterates over n and everything below it in pre-order
// (source order).
func (n Node) Descendants() iter.Seq[Node] {
	return func(yield func(Node) bool) {
		if n.t == nil {
			return
		}
		end := n.c().after
		for i := n.i; i < end; i++ {
			if !yield(Node{n.t, i}) {
				return
			}
		}
	}
}

// after returns the index just past n's subtree.
func (n Node) after() int32 { return n.c().after }

// Walk visits n and its descendants in pre-order; when visit returns false
// the node's children are skipped.
func (n Node) Walk(visit func(Node) bool) {
	if n.t == nil {
		return
	}
	end := n.after()
	for i := n.i; i < end; {
		m := Node{n.t, i}
		if visit(m) {
			i++
		} else {
			i = m.after()
		}
	}
}

// Contains reports whether m lies within n's subtree.
func (n Node) Contains(m Node) bool {
	return n.t != nil && n.t == m.t && m.i >= n.i && m.i < n.after()
}

// Ancestor returns the nearest proper ancestor whose kind is one of kinds.
func (n Node) Ancestor(kinds ...string) Node {
	for p := n.Parent(); p.Valid(); p = p.Parent() {
		if p.Is(kinds...) {
			return p
		}
	}
	return Node{}
}

// HasError reports whether the subtree holds an ERROR or missing node.
func (n Node) HasError() bool {
	found := false
	n.Walk(func(m Node) bool {
		if m.IsError() || m.IsMissing() {
			found = true
		}
		return !found
	})
	return found
}

// String renders the subtree as an S-expression of named nodes, for tests
// and debugging.
func (n Node) String() string {
	if n.t == nil {
		return "<nil>"
	}
	var b []byte
	var rec func(m Node, field string)
	rec = func(m Node, field string) {
		if len(b) > 0 {
			b = append(b, ' ')
		}
		if field != "" {
			b = append(b, field...)
			b = append(b, ": "...)
		}
		b = append(b, '(')
		b = append(b, m.Kind()...)
		for c := range m.NamedChildren() {
			rec(c, c.FieldName())
		}
		b = append(b, ')')
	}
	rec(n, "")
	return string(b)
}
