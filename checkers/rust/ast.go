package rust

import (
	"strings"

	"github.com/jsec/jsec/checkers"
	"github.com/jsec/jsec/checkers/syntax"
)

// This file holds the node helpers every Rust rule family uses, over the
// tree-sitter-rust grammar.

// CallAt returns the call whose callee path ends in the hit's identifier:
// f(x), mem::f(x), std::mem::f::<A, B>(x). It does not match method calls
// (see MethodCallAt).
func CallAt(h checkers.Hit) (call syntax.Node, ok bool) {
	n := h.Node
	if !n.Valid() || n.Kind() != "identifier" {
		return syntax.Node{}, false
	}
	for p := n.Parent(); p.Valid(); p = p.Parent() {
		switch p.Kind() {
		case "scoped_identifier":
			if p.Field("name").Index() != n.Index() {
				return syntax.Node{}, false
			}
			n = p
			continue
		case "generic_function":
			if p.Field("function").Index() != n.Index() {
				return syntax.Node{}, false
			}
			n = p
			continue
		case "call_expression":
			if p.Field("function").Index() == n.Index() {
				return p, true
			}
		}
		return syntax.Node{}, false
	}
	return syntax.Node{}, false
}

// MethodCallAt returns the method call x.m(…) whose method name is the
// hit's identifier, and the receiver x.
func MethodCallAt(h checkers.Hit) (call, receiver syntax.Node, ok bool) {
	n := h.Node
	if !n.Valid() || n.Kind() != "field_identifier" {
		return syntax.Node{}, syntax.Node{}, false
	}
	fe := n.Parent()
	if fe.Kind() != "field_expression" || fe.Field("field").Index() != n.Index() {
		return syntax.Node{}, syntax.Node{}, false
	}
	callee := fe
	if g := fe.Parent(); g.Kind() == "generic_function" {
		callee = g // x.parse::<u32>()
	}
	c := callee.Parent()
	if c.Kind() != "call_expression" || c.Field("function").Index() != callee.Index() {
		return syntax.Node{}, syntax.Node{}, false
	}
	return c, fe.Field("value"), true
}

// Args returns a call's arguments (comments skipped).
func Args(call syntax.Node) []syntax.Node {
	var out []syntax.Node
	for c := range call.Field("arguments").NamedChildren() {
		if c.Kind() != "line_comment" && c.Kind() != "block_comment" {
			out = append(out, c)
		}
	}
	return out
}

// Path returns the callee path of a call with whitespace removed
// ("std::mem::transmute", "mem::transmute::<u32,f32>").
func Path(call syntax.Node) string {
	return strings.Join(strings.Fields(call.Field("function").Text()), "")
}

// TypeArgs returns the explicit type arguments of a call (transmute::<A,
// B>), or nil.
func TypeArgs(call syntax.Node) []syntax.Node {
	f := call.Field("function")
	if f.Kind() != "generic_function" {
		return nil
	}
	var out []syntax.Node
	for c := range f.Field("type_arguments").NamedChildren() {
		out = append(out, c)
	}
	return out
}

// UnsafeContext returns the unsafe block or unsafe fn that encloses n, or
// the zero Node when n is in safe code.
func UnsafeContext(n syntax.Node) syntax.Node {
	for p := n.Parent(); p.Valid(); p = p.Parent() {
		switch p.Kind() {
		case "unsafe_block":
			return p
		case "function_item":
			if HasModifier(p, "unsafe") {
				return p
			}
			return syntax.Node{}
		case "closure_expression":
			// a closure inside an unsafe block is still unsafe code
		}
	}
	return syntax.Node{}
}

// HasModifier reports whether a function_item carries a modifier such as
// "unsafe", "async", "const" or an extern ABI.
func HasModifier(fn syntax.Node, mod string) bool {
	for c := range fn.Children() {
		if c.Kind() == "function_modifiers" {
			for m := range c.Children() {
				if m.Text() == mod || m.Kind() == mod {
					return true
				}
			}
		}
	}
	return false
}

// EnclosingFunction returns the function_item around n.
func EnclosingFunction(n syntax.Node) syntax.Node {
	if n.Kind() == "function_item" {
		return n
	}
	return n.Ancestor("function_item")
}

// HasSafetyComment reports whether a "SAFETY:" comment (the Rust
// convention that documents why unsafe code is sound) sits within three
// lines above n, above the statement holding n, or above its unsafe block.
func HasSafetyComment(p *checkers.Pass, n syntax.Node) bool {
	anchors := []int{n.Start()}
	if st := statementOf(n); st.Valid() {
		anchors = append(anchors, st.Start())
	}
	if u := UnsafeContext(n); u.Valid() {
		anchors = append(anchors, u.Start())
		if st := statementOf(u); st.Valid() {
			anchors = append(anchors, st.Start())
		}
	}
	for _, off := range anchors {
		for _, c := range p.CommentBefore(off, 3) {
			up := strings.ToUpper(c)
			if strings.Contains(up, "SAFETY:") || strings.Contains(up, "# SAFETY") || strings.Contains(c, "SAFETY：") {
				return true
			}
		}
	}
	return false
}

// statementOf returns the statement (or item) that holds n.
func statementOf(n syntax.Node) syntax.Node {
	for p := n; p.Valid(); p = p.Parent() {
		switch p.Kind() {
		case "expression_statement", "let_declaration", "function_item", "const_item", "static_item":
			return p
		}
	}
	return syntax.Node{}
}
