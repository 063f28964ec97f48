package c

import (
	"fmt"
	"strings"

	"github.com/jsec/jsec/checkers"
	"github.com/jsec/jsec/checkers/syntax"
)

// The memory rules that read the syntax tree and reaching definitions
// rather than the state walk.

// checkReallocLeak flags "p = realloc(p, n)": when realloc fails it
// returns NULL and p's old block is lost.
func checkReallocLeak(p *checkers.Pass, call syntax.Node) {
	name := CalleeName(call)
	if memAllocators[name] == memAborts {
		return // never returns NULL
	}
	as := call.Parent()
	for as.Is("parenthesized_expression", "cast_expression") {
		as = as.Parent()
	}
	if as.Kind() != "assignment_expression" || BinaryOp(as) != "=" || !as.Field("right").Contains(call) {
		return
	}
	path := PathOf(as.Field("left"))
	if path == "" || path != PathOf(Arg(call, 0)) {
		return
	}
	fn := EnclosingFunction(call)
	if memSavedBefore(fn, path, call) {
		return // another variable still holds the old block
	}
	f := checkers.Finding{Rule: ruleReallocLeak, Span: checkers.NodeSpan(as),
		Message: fmt.Sprintf("'%s = %s(%s, ...)' loses the only pointer to the old block when %s() fails and returns NULL", path, name, path, name)}
	if memFailureExits(as, path) {
		f.Adjust = -0.3
		f.Message += " (the failure path exits the process, so the leak is short-lived)"
	}
	p.Report(f)
}

// memSavedBefore reports whether some other lvalue is assigned path
// before use (old = p; p = realloc(p, n); if (!p) free(old)).
func memSavedBefore(fn syntax.Node, path string, use syntax.Node) bool {
	saved := false
	fn.Field("body").Walk(func(n syntax.Node) bool {
		if saved || n.Start() >= use.Start() {
			return false
		}
		var left, right syntax.Node
		switch n.Kind() {
		case "assignment_expression":
			left, right = n.Field("left"), n.Field("right")
		case "init_declarator":
			left, right = n.Field("declarator"), n.Field("value")
		default:
			return true
		}
		if PathOf(right) == path && PathOf(left) != path {
			saved = true
		}
		return true
	})
	return saved
}

// memFailureExits reports whether the statement after the assignment
// tests path for NULL and exits the process.
func memFailureExits(as syntax.Node, path string) bool {
	next := EnclosingStatement(as).NextNamedSibling()
	if next.Kind() != "if_statement" || !strings.Contains(Condition(next).Text(), path) {
		return false
	}
	exits := false
	next.Field("consequence").Walk(func(n syntax.Node) bool {
		if n.Kind() == "call_expression" && memNoReturn[CalleeName(n)] {
			exits = true
		}
		return !exits
	})
	return exits
}

// checkAllocOverflow flags an allocation size "a * b" (or "a + b" with
// external input) that may wrap around before the allocation.
func checkAllocOverflow(p *checkers.Pass, call, size syntax.Node, what string) {
	fn := EnclosingFunction(call)
	if !size.Valid() || !fn.Valid() {
		return
	}
	scope := FuncScope(p, fn)
	var ops []syntax.Node
	memArith(size, &ops)
	for _, m := range ops {
		l, r := m.Field("left"), m.Field("right")
		lc, rc := memConstExpr(l, scope, p.File.Lang == "cpp"), memConstExpr(r, scope, p.File.Lang == "cpp")
		if lc && rc {
			continue
		}
		adjust, from := 0.0, ""
		for _, x := range []syntax.Node{l, r} {
			if src := Trace(p, x); src.Origin == OriginExternal {
				adjust, from = 0.1, fmt.Sprintf(" ('%s' comes from %s)", shortText(x), src.What)
			}
		}
		op := BinaryOp(m)
		switch {
		case op == "*" && (lc || rc) && from == "":
			continue // n * sizeof(T): reported only for external n
		case op == "+" && (lc || rc || from == ""):
			continue
		}
		if memSmallOperand(l, scope) && memSmallOperand(r, scope) {
			continue
		}
		if memBounded(p, fn, []syntax.Node{l, r}, call) {
			continue
		}
		verb := "multiplication"
		if op == "+" {
			verb = "addition"
		}
		p.Report(checkers.Finding{Rule: ruleAllocOverflow, Span: checkers.NodeSpan(m), Adjust: adjust,
			Message: fmt.Sprintf("the %s '%s' in the size of %s may overflow and allocate a block smaller than the code assumes%s; no overflow check precedes it", verb, shortText(m), what, from)})
		return
	}
}

// memArith collects the * and + nodes of a size expression (not inside
// calls or sizeof).
func memArith(n syntax.Node, out *[]syntax.Node) {
	n = Uncast(n)
	if n.Kind() != "binary_expression" {
		return
	}
	switch BinaryOp(n) {
	case "*", "+":
		*out = append(*out, n)
	case "-", "<<":
	default:
		return
	}
	memArith(n.Field("left"), out)
	memArith(n.Field("right"), out)
}

// memConstExpr reports whether n is a compile-time constant: literals,
// sizeof, and names that are no variable in sight (macros, enumerators;
// in C++ also global constants).
func memConstExpr(n syntax.Node, scope *Scope, cpp bool) bool {
	n = Uncast(n)
	if _, ok := IntValue(n, scope.Consts()); ok {
		return true
	}
	switch n.Kind() {
	case "sizeof_expression", "alignof_expression", "offsetof_expression", "number_literal", "char_literal":
		return true
	case "identifier":
		v := scope.Lookup(n.Text(), n)
		return v == nil || cpp && v.Global || memConstexpr(v)
	case "binary_expression":
		return memConstExpr(n.Field("left"), scope, cpp) && memConstExpr(n.Field("right"), scope, cpp)
	case "call_expression":
		return CalleeName(n) == "ARRAY_SIZE"
	}
	return false
}

// memConstexpr reports a variable declared constexpr (C++11, C23): a
// constant expression, whatever its initializer's form, so an array it
// sizes has a fixed length.
func memConstexpr(v *Var) bool {
	decl := v.Decl.Ancestor("declaration")
	if !decl.Valid() {
		return false
	}
	for c := range decl.Children() {
		if c.Start() >= v.Decl.Start() {
			break // past the specifiers
		}
		if c.Text() == "constexpr" {
			return true
		}
	}
	return false
}

// memSmallOperand reports operands of a one-byte type, whose products
// cannot overflow a size_t.
func memSmallOperand(n syntax.Node, scope *Scope) bool {
	n = Unparen(n)
	if n.Kind() == "cast_expression" {
		return memSmallType(n.Field("type").Text())
	}
	if id := Ident(n); id != "" {
		if v := scope.Lookup(id, n); v != nil && v.Pointer == 0 {
			return memSmallType(v.Type)
		}
	}
	_, ok := IntValue(n, scope.Consts())
	return ok
}

func memSmallType(t string) bool {
	switch strings.Join(strings.Fields(t), " ") {
	case "char", "unsigned char", "signed char", "uint8_t", "int8_t", "bool", "_Bool", "u_char":
		return true
	}
	return false
}

// memBounded reports whether an operand is limited before use: compared
// against a bound in an if/assert/ternary that precedes it, clamped by a
// MIN-like call or a conditional in its reaching definition, or passed
// through an overflow-checking builtin.
func memBounded(p *checkers.Pass, fn syntax.Node, operands []syntax.Node, use syntax.Node) bool {
	paths := map[string]bool{}
	for _, o := range operands {
		for m := range o.Descendants() {
			if m.Is("identifier", "field_expression") {
				if path := PathOf(m); path != "" {
					paths[path] = true
				}
			}
		}
	}
	if len(paths) == 0 {
		return false
	}
	if memClampedDefs(p, fn, paths, use) {
		return true
	}
	body := fn.Field("body")
	if body.End()-body.Start() >= memMentionIndexMin {
		return memBoundedIndexed(p, body, paths, use)
	}
	bounded := false
	body.Walk(func(n syntax.Node) bool {
		if bounded || n.Start() >= use.Start() {
			return false
		}
		bounded = memBoundsHere(n, paths)
		return !bounded
	})
	return bounded
}

// memBoundsHere reports whether n bounds one of paths: a comparison with
// an upper bound, or an overflow-checking call on it. Either mentions one
// of paths inside n.
func memBoundsHere(n syntax.Node, paths map[string]bool) bool {
	switch n.Kind() {
	case "binary_expression":
		return memBoundingCompare(n, paths)
	case "call_expression":
		name := CalleeName(n)
		bounded := strings.Contains(name, "_overflow") || name == "ckd_mul" || name == "ckd_add" || name == "st_mult" || name == "st_add"
		return bounded && memMentions(n, paths)
	}
	return false
}

// memMentionIndexMin is the body size (bytes) from which memBounded looks
// for its bounds around the mentions of the paths, found in an index of
// the body's paths, instead of walking every node before the use: in a
// generated function with thousands of allocations the walk per
// allocation was quadratic. Smaller bodies keep the walk, which costs
// less there than the index. (A variable for the test that holds the two
// ways to the same answers.)
var memMentionIndexMin = 32 << 10

// memBoundedIndexed is memBounded's walk over a large body. Every node
// that bounds a path mentions it, and the walk asks every node that starts
// before the use; so the nodes to ask are the ancestors (up to the body)
// of the path's mentions before the use, and, for a mention at or after
// the use, those of its ancestors that start before the use: they all
// hold the use's first byte, so they are the ancestors of the deepest
// node there.
func memBoundedIndexed(p *checkers.Pass, body syntax.Node, paths map[string]bool, use syntax.Node) bool {
	idx := memPathMentions(p, body)
	ask := func(from syntax.Node) bool {
		for a := from; a.Valid() && a != body; a = a.Parent() {
			if a.Start() < use.Start() && memBoundsHere(a, paths) {
				return true
			}
		}
		return false
	}
	for path := range paths {
		for _, m := range idx[path] {
			if m.Start() >= use.Start() {
				break
			}
			if ask(m) {
				return true
			}
		}
	}
	return ask(body.Tree().NodeAt(use.Start()))
}

type memMentionsKey struct {
	t *syntax.Tree
	i int
}

// memPathMentions indexes the identifiers and field paths of a body by
// their path, in source order; found once per body.
func memPathMentions(p *checkers.Pass, body syntax.Node) map[string][]syntax.Node {
	return checkers.Memo(p, memMentionsKey{body.Tree(), body.Index()}, func() map[string][]syntax.Node {
		idx := map[string][]syntax.Node{}
		body.Walk(func(m syntax.Node) bool {
			if m.Is("identifier", "field_expression") {
				if path := PathOf(m); path != "" {
					idx[path] = append(idx[path], m)
				}
			}
			return true
		})
		return idx
	})
}

// memBoundingCompare reports a relational comparison of one of paths with
// something that bounds it from above (not 0 or 1, not in a loop header).
func memBoundingCompare(n syntax.Node, paths map[string]bool) bool {
	switch BinaryOp(n) {
	case "<", "<=", ">", ">=":
	default:
		return false
	}
	for a := n.Parent(); a.Valid(); a = a.Parent() {
		if a.Is("for_statement", "while_statement", "do_statement") && a.Field("condition").Contains(n) {
			return false
		}
		if a.Is("if_statement", "conditional_expression", "expression_statement", "return_statement", "call_expression") {
			break
		}
	}
	l, r := n.Field("left"), n.Field("right")
	for _, pair := range [][2]syntax.Node{{l, r}, {r, l}} {
		if !memMentions(pair[0], paths) {
			continue
		}
		if v, ok := IntValue(pair[1], nil); ok && v <= 1 {
			continue // a lower bound only
		}
		return true
	}
	return false
}

// memMentions reports whether n holds an identifier or field path in paths.
func memMentions(n syntax.Node, paths map[string]bool) bool {
	found := false
	n.Walk(func(m syntax.Node) bool {
		if found {
			return false
		}
		if m.Is("identifier", "field_expression") && paths[PathOf(m)] {
			found = true
		}
		return m.Kind() != "sizeof_expression"
	})
	return found
}

// memClampedDefs reports whether a reaching definition of one of paths
// clamps it: n = MIN(n, 64), n = n > 64 ? 64 : n.
func memClampedDefs(p *checkers.Pass, fn syntax.Node, paths map[string]bool, use syntax.Node) bool {
	defs := Defs(p, fn)
	for path := range paths {
		if strings.ContainsAny(path, ".->[*") {
			continue
		}
		for _, d := range defs.Reaching(path, use) {
			v := Uncast(d.Value)
			switch v.Kind() {
			case "conditional_expression":
				if c := Unparen(v.Field("condition")); c.Kind() == "binary_expression" && strings.ContainsAny(BinaryOp(c), "<>") {
					return true
				}
			case "call_expression":
				if n := strings.ToLower(CalleeName(v)); n == "min" || strings.HasPrefix(n, "min_") || strings.HasSuffix(n, "_min") || n == "umin" {
					return true
				}
			}
		}
	}
	return false
}

// checkNewSize applies the size rule to new T[a * b].
func checkNewSize(p *checkers.Pass, ne syntax.Node) {
	ne.Walk(func(n syntax.Node) bool {
		if n.Kind() == "new_declarator" {
			checkAllocOverflow(p, ne, n.Field("length"), "new[]")
			return false
		}
		return n.FieldName() != "arguments" && n.FieldName() != "placement"
	})
}

// checkAlloca flags alloca with a size that is neither constant nor
// bounded before the call.
func checkAlloca(p *checkers.Pass, h checkers.Hit) {
	call, ok := CallAt(h)
	fn := memFunc(h)
	if !ok || !fn.Valid() {
		return
	}
	size := Arg(call, 0)
	if !size.Valid() {
		return
	}
	scope := FuncScope(p, fn)
	if memConstExpr(size, scope, p.File.Lang == "cpp") || memBounded(p, fn, []syntax.Node{size}, call) {
		return
	}
	src := Trace(p, size)
	if src.Origin == OriginLiteral {
		return
	}
	f := checkers.Finding{Rule: ruleAlloca, Span: checkers.NodeSpan(call),
		Message: fmt.Sprintf("%s(%s) grows the stack by a size with no upper bound%s: a large value overflows the stack", h.Word, shortText(size), memOriginNote(src))}
	f.Adjust = memOriginAdjust(src)
	p.Report(f)
	checkAllocOverflow(p, call, size, h.Word+"()")
}

func memOriginNote(src Source) string {
	switch src.Origin {
	case OriginExternal, OriginParam:
		return " (it comes from " + src.What + ")"
	}
	return ""
}

func memOriginAdjust(src Source) float64 {
	switch src.Origin {
	case OriginExternal:
		return 0.15
	case OriginUnknown:
		return -0.1
	}
	return 0
}

// checkVLA flags local arrays sized at run time by an unbounded value.
func checkVLA(p *checkers.Pass, h checkers.Hit) {
	decl := h.Node.Ancestor("declaration")
	fn := memFunc(h)
	if !decl.Valid() || !fn.Valid() || decl.Field("type").Start() != h.Node.Start() {
		return
	}
	for c := range decl.Children() {
		if c.Kind() == "storage_class_specifier" {
			return
		}
	}
	scope := FuncScope(p, fn)
	for d := range decl.NamedChildren() {
		if d.FieldName() != "declarator" {
			continue
		}
		ad := memArrayDeclarator(d)
		size := ad.Field("size")
		if !size.Valid() || memConstExpr(size, scope, p.File.Lang == "cpp") || memBounded(p, fn, []syntax.Node{size}, ad) {
			continue
		}
		src := Trace(p, size)
		if src.Origin == OriginLiteral {
			continue
		}
		p.Report(checkers.Finding{Rule: ruleVLA, Span: checkers.NodeSpan(ad), Adjust: memOriginAdjust(src),
			Message: fmt.Sprintf("variable-length array '%s' is sized by '%s'%s with no upper bound check: a large value overflows the stack", declIdent(ad), shortText(size), memOriginNote(src))})
	}
}

// memArrayDeclarator finds the array declarator inside a declarator.
func memArrayDeclarator(d syntax.Node) syntax.Node {
	for d.Valid() {
		switch d.Kind() {
		case "array_declarator":
			return d
		case "init_declarator", "pointer_declarator":
			d = d.Field("declarator")
		default:
			return syntax.Node{}
		}
	}
	return syntax.Node{}
}
