package c

import (
	"fmt"

	"github.com/jsec/jsec/checkers"
	"github.com/jsec/jsec/checkers/syntax"
)

// triageMove keeps std::move(name): a plain variable moved from.
func triageMove(lx *checkers.Lexed, tok int) bool {
	if !lx.Is(tok-1, "::") || !lx.Is(tok-2, "std") || !lx.Is(tok+1, "(") ||
		lx.Kind(tok+2) != checkers.TokIdent || !lx.Is(tok+3, ")") {
		return false
	}
	// Check looks for a use after the move's statement in the function
	// (or lambda) body: none when the name never comes up again there.
	end := cppBodyEnd(lx, tok)
	if end < 0 {
		return true
	}
	name := lx.Text(tok + 2)
	for k := tok + 4; k < end; k++ {
		if lx.Kind(k) == checkers.TokIdent && lx.Is(k, name) && !lx.Is(k-1, ".") && !lx.Is(k-1, "->") {
			return true
		}
	}
	return false
}

// cppBodyEnd returns the "}" closing the body of the function or lambda
// around token tok, or -1 when the tokens do not show it.
func cppBodyEnd(lx *checkers.Lexed, tok int) int {
	it := lx.ItemOf(tok)
	if it < 0 {
		return -1
	}
	start := lx.Items[it].TokStart
	for j := tok - 1; j > start; j-- {
		switch {
		case lx.Is(j, "}"):
			if o := lx.Open(j); o >= start {
				j = o
			}
		case lx.Is(j, "{") && lx.Close(j) > tok:
			k := j - 1
			for k > start && (lx.Is(k, "const") || lx.Is(k, "override") || lx.Is(k, "final") || lx.Is(k, "noexcept") || lx.Is(k, "mutable")) {
				k--
			}
			if !lx.Is(k, ")") {
				continue // a block, a class or namespace body
			}
			o := lx.Open(k)
			if o <= start {
				return -1
			}
			if lx.Is(o-1, "]") || lx.Kind(o-1) == checkers.TokIdent && !cppControlWords[lx.Text(o-1)] {
				return lx.Close(j) // a lambda's or a function's body
			}
		}
	}
	return -1
}

// cppControlWords open a statement with a parenthesised head.
var cppControlWords = map[string]bool{"if": true, "while": true, "for": true, "switch": true, "catch": true}

// cppResetMethods leave a moved-from object in a known state.
var cppResetMethods = map[string]bool{
	"reset": true, "clear": true, "assign": true, "swap": true, "emplace": true, "Clear": true,
	"operator=": true, "Reset": true,
}

// checkUseAfterMove reports the first use of x after std::move(x) on a
// path with no reassignment in between.
func checkUseAfterMove(p *checkers.Pass, h checkers.Hit) {
	call, ok := CallAt(h)
	if !ok {
		return
	}
	x := Unparen(Arg(call, 0))
	fn := EnclosingFunction(call)
	if x.Kind() != "identifier" || !fn.Valid() {
		return
	}
	region := fn.Field("body")
	if l := call.Ancestor("lambda_expression"); l.Valid() && fn.Contains(l) {
		region = l.Field("body")
	}
	name := x.Text()
	scope := FuncScope(p, fn)
	v := scope.Lookup(name, x)
	if v != nil && (v.Pointer > 0 || v.IsArray() || cppIsScalar(v.Type)) {
		return // moving a scalar or a raw pointer copies it
	}
	stmt := EnclosingStatement(call)
	var use syntax.Node
	done := false
	region.Walk(func(n syntax.Node) bool {
		if done || n.Kind() == "lambda_expression" || n.Is("sizeof_expression", "decltype") {
			return false
		}
		if n.Kind() != "identifier" || n.Text() != name || n.Start() < stmt.End() {
			return true
		}
		if scope.Lookup(name, n) != v || !cppOnPathAfter(stmt, n) || cppRedeclared(n, name, call) {
			return true
		}
		switch cppAfterMoveUse(n) {
		case moveReset:
			done = true
		case moveUse:
			use, done = n, true
		}
		return true
	})
	if !use.Valid() {
		return
	}
	p.Report(checkers.Finding{Rule: ruleUseAfterMove, Span: checkers.NodeSpan(use),
		Message: fmt.Sprintf("'%s' is used after std::move(%s) on line %d with no reassignment in between: it may be empty or null", name, name, p.File.Lines().Line(call.Start()))})
}

// cppIsScalar reports builtin arithmetic types, which std::move copies.
func cppIsScalar(t string) bool {
	if _, ok := basicTypeSize(t); ok {
		return true
	}
	switch t {
	case "bool", "char", "signed", "unsigned", "long double", "std::size_t", "std::uint8_t", "std::uint16_t",
		"std::uint32_t", "std::uint64_t", "std::int32_t", "std::int64_t", "int_fast32_t", "uint_fast32_t":
		return true
	}
	return false
}

type cppMoveUseKind int

const (
	moveIgnore cppMoveUseKind = iota // a harmless mention: a null test
	moveReset                        // reassigned or reset: later uses are fine
	moveUse                          // a real use of the moved-from value
)

// cppAfterMoveUse classifies a mention of a moved-from variable.
func cppAfterMoveUse(n syntax.Node) cppMoveUseKind {
	e := inClimbParens(n)
	par := e.Parent()
	switch par.Kind() {
	case "assignment_expression":
		if par.Field("left").Index() == e.Index() {
			if BinaryOp(par) == "=" {
				return moveReset
			}
			return moveUse
		}
	case "field_expression":
		if call := par.Parent(); call.Kind() == "call_expression" && call.Field("function").Index() == par.Index() &&
			cppResetMethods[par.Field("field").Text()] {
			return moveReset
		}
	case "pointer_expression":
		if par.FirstChild().Text() == "&" {
			return moveReset // handed out by address: it may be refilled
		}
	case "argument_list":
		switch CalleeName(par.Parent()) {
		case "swap", "getline", "move":
			if CalleeName(par.Parent()) == "move" {
				return moveUse
			}
			return moveReset
		}
	}
	if inNullTested(e) {
		return moveIgnore
	}
	return moveUse
}

// cppOnPathAfter reports whether use may run after statement stmt: it is not
// in the other branch of an if, and no return, throw or goto (or a break
// or continue that leaves the use's loop or switch) ends stmt's path
// before it.
func cppOnPathAfter(stmt, use syntax.Node) bool {
	for s := stmt; s.Valid() && !s.Contains(use); s = s.Parent() {
		if cppIsJump(s) && cppJumpsPast(s, use) {
			return false
		}
		par := s.Parent()
		switch par.Kind() {
		case "compound_statement", "case_statement":
			for sib := s.NextSibling(); sib.Valid() && !sib.Contains(use) && sib.Start() < use.Start(); sib = sib.NextSibling() {
				if cppIsJump(sib) && cppJumpsPast(sib, use) {
					return false
				}
			}
		case "if_statement":
			if par.Field("consequence").Index() == s.Index() && par.Field("alternative").Contains(use) {
				return false
			}
		case "function_definition", "lambda_expression":
			return true
		}
	}
	return true
}

func cppIsJump(n syntax.Node) bool {
	return n.Is("return_statement", "throw_statement", "goto_statement", "break_statement", "continue_statement")
}

// cppJumpsPast reports whether the jump skips use: return, throw and goto
// always do; break and continue do when use is inside the loop or switch
// they leave.
func cppJumpsPast(jump, use syntax.Node) bool {
	switch jump.Kind() {
	case "break_statement":
		return jump.Ancestor("for_statement", "while_statement", "do_statement", "for_range_loop", "switch_statement").Contains(use)
	case "continue_statement":
		return jump.Ancestor("for_statement", "while_statement", "do_statement", "for_range_loop").Contains(use)
	}
	return true
}

// cppRedeclared reports whether use lies in a range-for loop (or its
// declarator) that declares its own variable of that name, or the moved
// variable was itself a range-for variable whose loop has ended: the
// scope walk does not see range-for declarations.
func cppRedeclared(use syntax.Node, name string, move syntax.Node) bool {
	declares := func(loop syntax.Node) bool {
		d := loop.Field("declarator")
		return d.Valid() && declIdent(d) == name
	}
	for l := use; l.Valid(); l = l.Ancestor("for_range_loop") {
		if l.Kind() == "for_range_loop" && declares(l) && !l.Contains(move) {
			return true
		}
	}
	for l := move.Ancestor("for_range_loop"); l.Valid(); l = l.Ancestor("for_range_loop") {
		if declares(l) {
			return !l.Field("body").Contains(use)
		}
	}
	return false
}
