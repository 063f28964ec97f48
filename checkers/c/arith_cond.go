package c

import (
	"fmt"

	"github.com/jsec/jsec/checkers"
	"github.com/jsec/jsec/checkers/syntax"
)

// Assignments used as conditions: if (x = 0), while (x = 1), if (x = y).
// The idioms stay silent: a doubly parenthesized assignment (the
// documented opt-out), an assignment compared with something
// ((p = malloc(n)) == NULL), an assignment of a call's result, and
// if (x = y) whose branches use x.

// triageAssignCond keeps if/while statements whose parentheses hold a
// lone "=" at the top level, not nested in further parentheses.
func triageAssignCond(lx *checkers.Lexed, tok int) bool {
	if !lx.Is(tok+1, "(") {
		return false
	}
	end := lx.Close(tok + 1)
	depth := 0
	for j := tok + 2; j < end; j++ {
		switch lx.Text(j) {
		case "(", "[", "{":
			depth++
		case ")", "]", "}":
			depth--
		case "=":
			if depth == 0 {
				return !condDeclaration(lx, tok+2, j)
			}
		}
	}
	return false
}

// condDeclaration reports whether the tokens [from, eq) declare a
// variable, as a C++ condition may (if (auto *m = next()), while
// (const Node *n = pop())): a type of names, ::, template arguments, *
// and &, then the declared name; Check finds no assignment there. An
// expression puts no name right after a name, *, & or template
// arguments before its "=": x = y, a.b = c, *p = v, ns::var = v.
func condDeclaration(lx *checkers.Lexed, from, eq int) bool {
	name := eq - 1
	if name <= from || lx.Kind(name) != checkers.TokIdent || lx.Kind(from) != checkers.TokIdent && !lx.Is(from, "::") {
		return false
	}
	switch before := name - 1; {
	case lx.Kind(before) == checkers.TokIdent, lx.Is(before, "*"), lx.Is(before, "&"), lx.Is(before, "&&"), lx.Is(before, ">"), lx.Is(before, ">>"):
	default:
		return false // a::b = c, x.y = z
	}
	for k := from; k < name; k++ {
		switch {
		case lx.Kind(k) == checkers.TokIdent, lx.Is(k, "::"), lx.Is(k, "*"), lx.Is(k, "&"), lx.Is(k, "&&"):
		case lx.Is(k, "<"):
			if k = lx.AngleEnd(k); k < 0 || k >= name {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// checkAssignCond reports an if/while/do condition that is a bare
// assignment of a constant, or (for if) of a variable the branches ignore.
func checkAssignCond(p *checkers.Pass, h checkers.Hit) {
	stmt := h.Node.Parent()
	if !stmt.Is("if_statement", "while_statement", "do_statement") {
		return
	}
	cond := stmt.Field("condition")
	var inner syntax.Node
	switch cond.Kind() {
	case "condition_clause":
		inner = cond.Field("value")
	case "parenthesized_expression":
		inner = cond.NamedChild(0)
	}
	if inner.Kind() != "assignment_expression" || BinaryOp(inner) != "=" {
		return // a comparison, a declaration, or the ((x = y)) opt-out
	}
	right := Uncast(inner.Field("right"))
	left := inner.Field("left")
	f := checkers.Finding{Rule: ruleAssignCond, Span: checkers.NodeSpan(inner)}
	keyword := h.Word
	switch {
	case assignCondConstant(p, right):
		f.Adjust = 0.15
		f.Message = fmt.Sprintf("the %s condition assigns %s to '%s' instead of comparing: it is always %s", keyword, shortText(right), shortText(left), assignCondTruth(p, right))
	case keyword == "if" && PathOf(right) != "" && !assignCondUsed(stmt, PathOf(left)):
		f.Message = fmt.Sprintf("the if condition assigns '%s' to '%s' instead of comparing them (== was probably meant)", shortText(right), shortText(left))
	default:
		return // a call's result or a computed value: the assign-and-test idiom
	}
	p.Report(f)
}

// assignCondConstant reports whether e is a constant: a number, a
// character, NULL, true/false, a string literal, or a known macro.
func assignCondConstant(p *checkers.Pass, e syntax.Node) bool {
	if _, ok := IntValue(e, Facts(p).Macros); ok {
		return true
	}
	return IsNullLiteral(e) || e.Is("true", "false") || IsStringLiteral(e)
}

// assignCondTruth says what a constant condition always is.
func assignCondTruth(p *checkers.Pass, e syntax.Node) string {
	if v, ok := IntValue(e, Facts(p).Macros); ok && v == 0 || IsNullLiteral(e) || e.Kind() == "false" {
		return "false"
	}
	return "true"
}

// assignCondUsed reports whether the branches of the if read the assigned
// variable: if (s = state.file) { … s … } wants the value, the
// assign-and-test idiom.
func assignCondUsed(stmt syntax.Node, path string) bool {
	if path == "" {
		return false
	}
	used := false
	for _, branch := range []syntax.Node{stmt.Field("consequence"), stmt.Field("alternative")} {
		branch.Walk(func(n syntax.Node) bool {
			if !used && n.Is("identifier", "field_expression") && PathOf(n) == path {
				used = true
			}
			return !used
		})
	}
	return used
}
