package rust

import (
	"fmt"
	"path"
	"sort"
	"strings"

	"github.com/jsec/jsec/checkers"
	"github.com/jsec/jsec/checkers/syntax"
)

// Errors family: panics on bad input, discarded Results, RefCell double
// borrows. Rules are in rules/rust_errors.go.
const (
	ruleUnwrap        = "rust.panic.unwrap"
	rulePanicExplicit = "rust.panic.explicit"
	ruleIgnoredResult = "rust.errors.ignored-result"
	ruleDoubleBorrow  = "rust.refcell.double-borrow"
)

// errorsCheckers is the errors family; its rules are in rules/rust_errors.go.
var errorsCheckers = []*checkers.Checker{
	{
		Name:     "rust/errors/unwrap",
		Rules:    []string{ruleUnwrap},
		Triggers: []string{"unwrap", "expect"},
		Triage:   triageUnwrap,
		Check:    checkUnwrap,
	},
	{
		Name:     "rust/errors/panic",
		Rules:    []string{rulePanicExplicit},
		Triggers: []string{"panic", "unreachable", "todo", "unimplemented"},
		Triage:   triagePanic,
		Check:    checkPanic,
	},
	{
		Name:     "rust/errors/ignored-result",
		Rules:    []string{ruleIgnoredResult},
		Triggers: ignoredTriggers(),
		Triage:   triageIgnored,
		Check:    checkIgnored,
	},
	{
		Name:     "rust/errors/double-borrow",
		Rules:    []string{ruleDoubleBorrow},
		Triggers: []string{"borrow", "borrow_mut"},
		Triage:   triageBorrow,
		Check:    checkBorrow,
	},
}

// unwrapOp describes an operation whose Result or Option fails on bad
// input or a hostile environment.
type unwrapOp struct {
	what   string  // "parsing", "file I/O" …
	adjust float64 // confidence adjustment
	// method and fn tell whether the name counts as a method call, as a
	// free function or associated function call, or both.
	method, fn bool
}

var unwrapOps = map[string]unwrapOp{
	"parse":          {"parsing a string", 0.1, true, false},
	"from_str":       {"parsing a string", 0.1, false, true},
	"from_str_radix": {"parsing a string", 0.1, false, true},
	"from_utf8":      {"UTF-8 decoding", 0.05, false, true},
	"from_slice":     {"deserializing bytes", 0.1, false, true},
	"from_reader":    {"deserializing a reader", 0.1, false, true},
	"from_value":     {"deserializing a value", 0.05, false, true},
	"decode":         {"decoding input", 0.05, true, true},
	"open":           {"opening a file", 0.05, true, true},
	"create":         {"creating a file", 0.05, false, true},
	"read_to_string": {"reading a file", 0.05, true, true},
	"read_to_end":    {"reading a file", 0.05, true, false},
	"read_line":      {"reading input", 0.05, true, false},
	"read_exact":     {"reading input", 0.05, true, false},
	"read_dir":       {"listing a directory", 0, true, true},
	"read":           {"reading", 0, true, true},
	"write":          {"writing", 0, true, true},
	"write_all":      {"writing", 0, true, false},
	"metadata":       {"reading file metadata", 0, true, true},
	"canonicalize":   {"resolving a path", 0, true, true},
	"remove_file":    {"removing a file", 0, false, true},
	"create_dir":     {"creating a directory", 0, false, true},
	"create_dir_all": {"creating a directory", 0, false, true},
	"var":            {"reading an environment variable", 0.05, false, true},
	"var_os":         {"reading an environment variable", 0.05, false, true},
	"current_dir":    {"reading the current directory", -0.1, false, true},
	"connect":        {"a network connection", 0.05, true, true},
	"bind":           {"binding a socket", 0, true, true},
	"accept":         {"accepting a connection", 0.05, true, false},
	"lock":           {"locking a Mutex (poisoning)", -0.25, true, false},
	"get":            {"a map or slice lookup", -0.1, true, false},
	"to_str":         {"converting an OS string to UTF-8", -0.1, true, false},
	"nth":            {"reading a command-line argument", 0, true, false},
	"spawn":          {"spawning a process", 0, true, false},
	"output":         {"running a process", 0, true, false},
}

// triageUnwrap keeps x.unwrap()/x.expect(..) outside test code whose
// receiver chain, or the let that bound the receiver, names a fallible
// operation.
func triageUnwrap(lx *checkers.Lexed, tok int) bool {
	if !lx.Is(tok-1, ".") || !lx.Is(tok+1, "(") {
		return false
	}
	it := lx.ItemOf(tok)
	if it < 0 || lx.Items[it].Test {
		return false
	}
	start := locChainStart(lx, tok-1)
	for j := start; j < tok-1; j++ {
		if _, ok := unwrapOps[locTok(lx, j)]; ok {
			return true
		}
	}
	if lx.Kind(start) == checkers.TokIdent {
		// a variable (x.unwrap(), x.await.unwrap()): look at its let
		return letMentions(lx, lx.Items[it].TokStart, start, locTok(lx, start), func(w string) bool { _, ok := unwrapOps[w]; return ok })
	}
	return false
}

// letMentions reports whether a "name = …;" between tokens from and to
// holds a token for which want is true.
func letMentions(lx *checkers.Lexed, from, to int, name string, want func(string) bool) bool {
	for j := from; j < to; j++ {
		if !lx.Is(j, name) || !lx.Is(j+1, "=") && !lx.Is(j+1, ":") {
			continue
		}
		for k := j + 2; k < to && !lx.Is(k, ";"); k++ {
			if lx.Kind(k) == checkers.TokIdent && want(locTok(lx, k)) {
				return true
			}
		}
	}
	return false
}

func checkUnwrap(p *checkers.Pass, h checkers.Hit) {
	call, recv, ok := MethodCallAt(h)
	if !ok || locInTest(p, h.Node) || h.Word == "unwrap" && len(Args(call)) != 0 || h.Word == "expect" && len(Args(call)) != 1 {
		return
	}
	op := locPeel(recv)
	var bound syntax.Node
	if op.Kind() == "identifier" {
		b, ok := locResolve(p, op)
		if !ok || !b.Direct || !b.Value.Valid() || unwrapGuarded(p, op, h.Node) {
			return
		}
		bound, op = op, b.Value
	}
	for op.Kind() == "await_expression" || op.Kind() == "parenthesized_expression" {
		op = op.NamedChild(0)
	}
	if op.Kind() != "call_expression" {
		return
	}
	name, method, inner := locCallName(op)
	desc, ok := unwrapOps[name]
	if !ok || method && !desc.method || !method && !desc.fn || unwrapSilent(p, op, name, method, inner, h.Node) {
		return
	}
	silent, adjust, _ := panicContext(p, call)
	if silent {
		return
	}
	adjust += desc.adjust
	subject := strings.Join(strings.Fields(op.Text()), "")
	if len(subject) > 60 {
		subject = subject[:57] + "..."
	}
	msg := fmt.Sprintf("%s() on the result of %s (%s) panics when it fails", h.Word, subject, desc.what)
	if bound.Valid() {
		msg = fmt.Sprintf("%s() on `%s`, the result of %s (%s), panics when it fails", h.Word, bound.Text(), subject, desc.what)
	}
	p.Report(checkers.Finding{Rule: ruleUnwrap, Span: checkers.Span{Start: h.Node.Start(), End: call.End()}, Adjust: adjust, Message: msg})
}

// unwrapSilent filters operations that cannot fail here: parsing a
// literal, an RwLock read()/write() guard, a map lookup after
// contains_key, decoding the valid_up_to() prefix, an operation inside a
// branch whose condition tests its input.
func unwrapSilent(p *checkers.Pass, op syntax.Node, name string, method bool, inner, at syntax.Node) bool {
	args := Args(op)
	subject := inner
	if !method && len(args) > 0 {
		subject = args[0]
	}
	if root := castRoot(locPeel(subject)); root != "" && castInTestOf(root, op) || strings.Contains(op.Text(), "valid_up_to") {
		return true
	}
	switch {
	case method && (name == "parse" || name == "to_str"):
		return locIsLiteral(locPeel(inner))
	case !method && len(args) > 0 && strings.HasPrefix(name, "from_"):
		return locIsLiteral(locPeel(args[0]))
	case method && (name == "read" || name == "write"):
		// RwLock::read()/write() take no arguments: poisoning, as lock().
		return len(args) == 0
	case !method && (name == "open" || name == "create" || name == "read" || name == "write" || name == "metadata"):
		// File::open, fs::read …; a bare open() is someone's own function.
		return op.Field("function").Kind() != "scoped_identifier"
	case !method && (name == "var" || name == "var_os"):
		return !strings.Contains(Path(op), "env::")
	case method && name == "nth":
		return !strings.Contains(inner.Text(), "args")
	case method && name == "get":
		if len(args) != 1 {
			return true
		}
		return unwrapContainsKey(p, inner, at)
	case method && (name == "lock" || name == "spawn" || name == "output"):
		return len(args) != 0
	}
	return false
}

// unwrapContainsKey reports whether m.contains_key(…) is tested before at
// in the same function.
func unwrapContainsKey(p *checkers.Pass, m, at syntax.Node) bool {
	fn := EnclosingFunction(at)
	recv := strings.Join(strings.Fields(m.Text()), "")
	found := false
	fn.Walk(func(n syntax.Node) bool {
		if found || n.Start() >= at.Start() {
			return false
		}
		if n.Kind() == "call_expression" {
			name, method, r := locCallName(n)
			if method && name == "contains_key" && strings.Join(strings.Fields(r.Text()), "") == recv {
				found = true
			}
		}
		return true
	})
	return found
}

// unwrapGuarded reports whether x.is_some()/is_ok()/is_none()/is_err()
// is tested before at in the same function (in code or in an assert!).
func unwrapGuarded(p *checkers.Pass, x, at syntax.Node) bool {
	fn := EnclosingFunction(at)
	lx := p.Lex
	from, to := lx.TokenAt(fn.Start()), lx.TokenAt(at.Start())
	if from < 0 || to < 0 {
		return false
	}
	name := x.Text()
	for j := from; j+2 < to; j++ {
		if lx.Is(j, name) && lx.Is(j+1, ".") {
			switch locTok(lx, j+2) {
			case "is_some", "is_ok", "is_none", "is_err":
				return true
			}
		}
	}
	return false
}

// unwrapInBinary reports whether a path is a binary's entry point
// (main.rs, src/bin/…), where a panic ends the program with a message.
func unwrapInBinary(rel string) bool {
	return path.Base(rel) == "main.rs" || strings.Contains("/"+rel, "/src/bin/")
}

// panicContext decides how much a panic at n matters. It is silent in
// build scripts (a panic is how they fail the build), in code compiled
// only with debug assertions, in Index::index (panicking is its
// contract) and in functions whose purpose is to panic (unwrap, expect,
// assert_*, panic_*). A binary's main, a "# Panics" doc section and
// #[track_caller] lower the confidence.
func panicContext(p *checkers.Pass, n syntax.Node) (silent bool, adjust float64, note string) {
	if path.Base(p.File.Path) == "build.rs" {
		return true, 0, ""
	}
	for q := n; q.Valid(); q = q.Parent() {
		if panicAttr(q, "debug_assertions") && !panicAttr(q, "not(debug_assertions)") {
			return true, 0, ""
		}
	}
	fn := EnclosingFunction(n)
	name := fn.Field("name").Text()
	switch {
	case strings.Contains(name, "unwrap") || strings.Contains(name, "expect") || strings.HasPrefix(name, "assert") ||
		strings.HasPrefix(name, "debug_assert") || strings.HasPrefix(name, "panic"):
		return true, 0, ""
	case name == "index" || name == "index_mut":
		if t := implTrait(fn); t == "Index" || t == "IndexMut" {
			return true, 0, ""
		}
	}
	if name == "main" || unwrapInBinary(p.File.Path) {
		adjust -= 0.1 // a panic in a binary's main ends the program with a message
	}
	switch {
	case panicDocumented(p, fn):
		adjust -= 0.15
		note = " (the function documents its panics)"
	case panicAttr(fn, "track_caller"):
		adjust -= 0.15
		note = " (#[track_caller]: a contract check that blames the caller)"
	}
	return false, adjust, note
}

// implTrait returns the last path segment of the trait that the impl
// around n implements, without generics ("Index" for impl
// std::ops::Index<&str> for T), or "".
func implTrait(n syntax.Node) string {
	t := n.Ancestor("impl_item").Field("trait")
	if t.Kind() == "generic_type" {
		t = t.Field("type")
	}
	if t.Kind() == "scoped_type_identifier" {
		t = t.Field("name")
	}
	return t.Text()
}

// panicAttr reports whether an attribute directly above node n (a
// statement or an item) mentions word.
func panicAttr(n syntax.Node, word string) bool {
	for q := n.PrevSibling(); q.Kind() == "attribute_item" || q.Kind() == "line_comment" || q.Kind() == "block_comment"; q = q.PrevSibling() {
		if q.Kind() == "attribute_item" && strings.Contains(q.Text(), word) {
			return true
		}
	}
	return false
}

// triagePanic keeps panic!-family invocations outside test items.
func triagePanic(lx *checkers.Lexed, tok int) bool {
	if !lx.Is(tok+1, "!") {
		return false
	}
	it := lx.ItemOf(tok)
	return it >= 0 && !lx.Items[it].Test
}

// checkPanic flags panic!, unreachable!, todo! and unimplemented! in
// non-test code. unreachable!() as a match arm states that the match is
// exhaustive and stays silent; a documented "# Panics" section and a
// binary's main lower the confidence.
func checkPanic(p *checkers.Pass, h checkers.Hit) {
	m, ok := locMacroAt(h)
	if !ok || locInTest(p, h.Node) || panicInConst(m) {
		return
	}
	silent, adjust, note := panicContext(p, m)
	if silent {
		return
	}
	msg := fmt.Sprintf("%s! aborts the thread; return an error the caller can handle", h.Word)
	switch h.Word {
	case "unreachable":
		arm := m.Parent()
		if arm.Kind() == "block" {
			arm = arm.Parent()
		}
		switch {
		case arm.Kind() == "closure_expression":
			return // `|_| unreachable!()`: a closure that is never called
		case arm.Kind() == "match_arm" && !panicInputMatch(p, arm):
			return // `_ => unreachable!()`: the author states the match is exhaustive
		}
		adjust -= 0.1
		msg = "unreachable! panics if the invariant it states is ever broken by input"
		if arm.Kind() == "match_arm" {
			msg = "unreachable! in a match on a parameter's value: any value the caller passes reaches it"
		}
	case "todo", "unimplemented":
		adjust += 0.05
		msg = fmt.Sprintf("%s! panics whenever this path is reached: unfinished code in a shipped build", h.Word)
	}
	p.Report(checkers.Finding{Rule: rulePanicExplicit, Span: checkers.NodeSpan(m), Adjust: adjust, Message: msg + note})
}

// panicInputMatch reports whether a match arm belongs to a match on a
// parameter of integer, char or string type: the caller can pass any
// value, so a wildcard arm is reachable.
func panicInputMatch(p *checkers.Pass, arm syntax.Node) bool {
	scrut := locPeel(arm.Ancestor("match_expression").Field("value"))
	if scrut.Kind() != "identifier" {
		return false
	}
	b, ok := locResolve(p, scrut)
	if !ok || !b.IsParam() || !b.Type.Valid() {
		return false
	}
	t := locTypeText(b.Type)
	return castInt(t) != "" || t == "char" || t == "str" || t == "String"
}

// panicInConst reports whether m is evaluated at compile time (a const
// item, a const fn body, a const block), where a panic is a build error.
func panicInConst(m syntax.Node) bool {
	for q := m.Parent(); q.Valid(); q = q.Parent() {
		switch q.Kind() {
		case "const_item", "static_item", "const_block":
			return true
		case "function_item", "closure_expression":
			return false // a const fn also runs at run time
		}
	}
	return false
}

// panicDocumented reports whether fn's doc comment has a "# Panics"
// section: the panic is part of its contract.
func panicDocumented(p *checkers.Pass, fn syntax.Node) bool {
	if !fn.Valid() {
		return false
	}
	start := fn.Start()
	for q := fn.PrevSibling(); q.Kind() == "attribute_item" || q.Kind() == "line_comment" || q.Kind() == "block_comment"; q = q.PrevSibling() {
		start = q.Start()
	}
	return docAbove(p, start, "# Panics")
}

// docAbove reports whether the comments directly above offset start
// (nothing but blank space and attributes between) contain word.
func docAbove(p *checkers.Pass, start int, word string) bool {
	cs := p.Lex.Comments
	k := sort.Search(len(cs), func(i int) bool { return cs[i].End > start }) - 1
	for ; k >= 0; k-- {
		gap := strings.TrimSpace(string(p.Lex.Src[cs[k].End:start]))
		if strings.HasPrefix(gap, "#[") && strings.HasSuffix(gap, "]") {
			gap = "" // attributes between the doc comment and the item
		}
		if gap != "" {
			return false
		}
		if strings.Contains(string(p.Lex.Src[cs[k].Start:cs[k].End]), word) {
			return true
		}
		start = cs[k].Start
	}
	return false
}
