package rust

import (
	"fmt"
	"strings"

	"github.com/jsec/jsec/checkers"
	"github.com/jsec/jsec/checkers/syntax"
)

// triageBorrow keeps x.borrow()/x.borrow_mut() outside test items that
// hold another borrow of which one is mutable (two shared borrows never
// conflict).
func triageBorrow(lx *checkers.Lexed, tok int) bool {
	if !lx.Is(tok-1, ".") || !lx.Is(tok+1, "(") || !lx.Is(tok+2, ")") {
		return false
	}
	it := lx.ItemOf(tok)
	if it < 0 || lx.Items[it].Test {
		return false
	}
	for j := lx.Items[it].TokStart; j < lx.Items[it].TokEnd; j++ {
		if j != tok && lx.Is(j-1, ".") && (lx.Is(j, "borrow_mut") || lx.Is(tok, "borrow_mut") && lx.Is(j, "borrow")) {
			return true
		}
	}
	return false
}

// borrowSite is a .borrow()/.borrow_mut() call on a RefCell path.
type borrowSite struct {
	call syntax.Node
	mut  bool
	key  string // the receiver path, spaces removed
}

// checkBorrow flags a RefCell borrow that conflicts with an earlier borrow
// of the same receiver path whose guard is still alive: held by a let in
// an enclosing block and not dropped, or a temporary of the same
// statement (a match or if-let scrutinee, a for iterator, an operand).
func checkBorrow(p *checkers.Pass, h checkers.Hit) {
	call, recv, ok := MethodCallAt(h)
	if !ok || len(Args(call)) != 0 || locInTest(p, h.Node) {
		return
	}
	key, ok := borrowKey(recv)
	if !ok {
		return
	}
	adjust := 0.0
	switch ty := borrowRecvType(p, recv); {
	case strings.Contains(ty, "RefCell"):
		adjust += 0.1
	case ty != "":
		return // not a RefCell: Borrow/BorrowMut traits never panic
	}
	cur := borrowSite{call, h.Word == "borrow_mut", key}
	fn := EnclosingFunction(call)
	var conflict borrowSite
	var how string
	fn.Field("body").Walk(func(n syntax.Node) bool {
		if conflict.call.Valid() || n.Start() >= call.Start() {
			return false
		}
		if n.Kind() != "call_expression" {
			return true
		}
		prev, ok := borrowSiteOf(n)
		if !ok || prev.key != key || !prev.mut && !cur.mut {
			return true
		}
		if h := borrowAlive(p, prev, call); h != "" {
			conflict, how = prev, h
		}
		return true
	})
	if !conflict.call.Valid() {
		return
	}
	kind := func(m bool) string {
		if m {
			return "borrow_mut()"
		}
		return "borrow()"
	}
	line := p.File.Lines().Line(conflict.call.Start())
	msg := fmt.Sprintf("%s.%s while the %s.%s of line %d is still alive (%s): RefCell panics with a BorrowError at run time",
		key, kind(cur.mut), key, kind(conflict.mut), line, how)
	p.Report(checkers.Finding{Rule: ruleDoubleBorrow, Span: checkers.Span{Start: recv.Start(), End: call.End()}, Adjust: adjust, Message: msg})
}

func borrowSiteOf(n syntax.Node) (borrowSite, bool) {
	name, method, recv := locCallName(n)
	if !method || name != "borrow" && name != "borrow_mut" || len(Args(n)) != 0 {
		return borrowSite{}, false
	}
	key, ok := borrowKey(recv)
	return borrowSite{n, name == "borrow_mut", key}, ok
}

// borrowKey returns the receiver as a path (x, self.state, self.a.b), or
// false when it is not a plain path (a call, an index).
func borrowKey(recv syntax.Node) (string, bool) {
	for recv.Kind() == "parenthesized_expression" || recv.Kind() == "reference_expression" {
		recv = recv.NamedChild(recv.NamedChildCount() - 1)
	}
	ok := true
	recv.Walk(func(n syntax.Node) bool {
		switch n.Kind() {
		case "identifier", "self", "field_expression", "field_identifier", ".", "integer_literal":
		default:
			ok = false
		}
		return ok
	})
	return strings.Join(strings.Fields(recv.Text()), ""), ok
}

// borrowRecvType returns the declared type of the receiver (a parameter,
// a let, a struct field of this file), or "" when unknown.
func borrowRecvType(p *checkers.Pass, recv syntax.Node) string {
	switch recv.Kind() {
	case "identifier":
		b, ok := locResolve(p, recv)
		if !ok {
			return ""
		}
		if b.Type.Valid() {
			return b.Type.Text()
		}
		if b.Value.Valid() && strings.Contains(b.Value.Text(), "RefCell") {
			return "RefCell"
		}
	case "field_expression":
		return locFieldTypes(p)[recv.Field("field").Text()]
	}
	return ""
}

// borrowAlive says how the guard of prev is still alive at node at, or
// returns "".
func borrowAlive(p *checkers.Pass, prev borrowSite, at syntax.Node) string {
	if let := prev.call.Parent(); let.Kind() == "let_declaration" && let.Field("value").Index() == prev.call.Index() {
		g := let.Field("pattern")
		if g.Kind() == "mut_pattern" {
			g = g.NamedChild(g.NamedChildCount() - 1)
		}
		if g.Kind() != "identifier" || !let.Parent().Contains(at) || borrowDropped(let.Parent(), g.Text(), let.End(), at.Start()) {
			return ""
		}
		return fmt.Sprintf("guard `%s` lives to the end of its block", g.Text())
	}
	if s := borrowTempScope(prev.call); s.Valid() && s.Contains(at) {
		return "a temporary lives to the end of the statement"
	}
	return ""
}

// borrowDropped reports whether drop(name) is called in block between
// offsets from and to.
func borrowDropped(block syntax.Node, name string, from, to int) bool {
	found := false
	block.Walk(func(n syntax.Node) bool {
		if found || n.End() <= from || n.Start() >= to {
			return !found && n.Start() < to
		}
		if n.Kind() == "call_expression" {
			if f := n.Field("function"); f.Text() == "drop" || f.Text() == "mem::drop" || f.Text() == "std::mem::drop" {
				if a := Args(n); len(a) == 1 && a[0].Text() == name {
					found = true
				}
			}
		}
		return true
	})
	return found
}

// borrowTempScope returns the node to whose end the temporaries of
// expression n live: its statement, an if/while condition, a match arm, a
// closure body, the right operand of && or ||. The scrutinee of a match,
// if let or while let and the iterator of a for loop live through the
// whole expression.
func borrowTempScope(n syntax.Node) syntax.Node {
	c := n
	for q := n.Parent(); q.Valid(); c, q = q, q.Parent() {
		switch q.Kind() {
		case "block", "function_item":
			return c
		case "expression_statement", "let_declaration":
			return q
		case "if_expression", "while_expression":
			if c.FieldName() == "condition" && c.Kind() != "let_condition" && c.Kind() != "let_chain" {
				return c
			}
		case "match_arm", "closure_expression":
			if c.FieldName() == "value" || c.FieldName() == "body" {
				return c
			}
		case "binary_expression":
			if op := q.Field("operator").Text(); (op == "&&" || op == "||") && c.FieldName() == "right" {
				return c
			}
		}
	}
	return syntax.Node{}
}
