package c

import (
	"fmt"

	"github.com/jsec/jsec/checkers"
	"github.com/jsec/jsec/checkers/syntax"
)

// Dereference before a NULL check: a pointer is dereferenced on every
// path to an if that then tests it for NULL, with no assignment between.
// Either the test is dead or the dereference can crash.

// checkDerefBeforeCheck reports, for each local pointer the if tests for
// NULL, the first earlier dereference that dominates the test.
func checkDerefBeforeCheck(p *checkers.Pass, fn, ifStmt syntax.Node) {
	if memParseTrouble(p, fn) || fn.End()-fn.Start() > memFlowMaxBytes {
		return
	}
	scope := FuncScope(p, fn)
	for _, x := range memNullTested(Condition(ifStmt)) {
		name := x.Text()
		v := scope.Lookup(name, x)
		if v == nil || v.Global || v.Static || !v.IsPointer() || v.Reference {
			continue
		}
		deref := memDominatingDeref(p, fn, name, ifStmt)
		if !deref.Valid() || memNullTestedBefore(fn, name, deref) {
			continue // a pointer tested before its first use: the later test is merely redundant
		}
		p.Report(checkers.Finding{Rule: ruleNullDeref, Span: checkers.NodeSpan(deref), Adjust: -0.1,
			Message: fmt.Sprintf("'%s' is dereferenced here (%s) but tested for NULL afterwards at line %d: either the test is dead or this dereference can crash",
				name, shortText(deref), memLine(p, ifStmt.Start()))})
	}
}

// memNullTested returns the identifiers a condition tests for NULL: p,
// !p, p == NULL, p != NULL, joined by && and ||.
func memNullTested(c syntax.Node) []syntax.Node {
	c = Unparen(c)
	switch c.Kind() {
	case "identifier":
		return []syntax.Node{c}
	case "unary_expression":
		if BinaryOp(c) == "!" {
			if x := Unparen(c.Field("argument")); x.Kind() == "identifier" {
				return []syntax.Node{x}
			}
		}
	case "binary_expression":
		switch BinaryOp(c) {
		case "&&", "||":
			return append(memNullTested(c.Field("left")), memNullTested(c.Field("right"))...)
		case "==", "!=":
			l, r := Unparen(c.Field("left")), Unparen(c.Field("right"))
			if IsNullLiteral(r) && l.Kind() == "identifier" {
				return []syntax.Node{l}
			}
			if IsNullLiteral(l) && r.Kind() == "identifier" {
				return []syntax.Node{r}
			}
		}
	}
	return nil
}

// memDominatingDeref returns the first dereference of name before check
// that runs on every path to it, with no definition of name between.
func memDominatingDeref(p *checkers.Pass, fn syntax.Node, name string, check syntax.Node) syntax.Node {
	defs := Defs(p, fn).All(name)
	lastDef := -1
	for _, d := range defs {
		if d.Node.Start() < check.Start() && d.Node.End() > lastDef {
			lastDef = d.Node.End()
		}
	}
	// Defs does not record ++p and p--; labels let a goto skip the
	// dereference.
	lastLabel := -1
	fn.Field("body").Walk(func(n syntax.Node) bool {
		if n.Start() >= check.Start() {
			return false
		}
		switch n.Kind() {
		case "update_expression":
			if Ident(n.Field("argument")) == name && n.End() > lastDef {
				lastDef = n.End()
			}
		case "labeled_statement":
			lastLabel = n.Start()
		}
		return true
	})
	var found syntax.Node
	fn.Field("body").Walk(func(n syntax.Node) bool {
		if found.Valid() || n.Start() >= check.Start() {
			return false
		}
		switch n.Kind() {
		case "sizeof_expression", "alignof_expression", "offsetof_expression", "lambda_expression", "macro_type_specifier":
			return false
		case "pointer_expression":
			if n.FirstChild().Text() == "&" {
				return false // &p->f computes an address
			}
		}
		if n.Start() > lastDef && n.Start() > lastLabel && memDerefOf(n, name) && memDominates(n, check) && !memRedefinedInLoop(defs, n, check) {
			found = n
		}
		return true
	})
	return found
}

// memDerefOf reports whether n dereferences the identifier name: p->f,
// *p, p[i].
func memDerefOf(n syntax.Node, name string) bool {
	var base syntax.Node
	switch n.Kind() {
	case "field_expression":
		if n.Field("operator").Text() != "->" {
			return false
		}
		base = n.Field("argument")
	case "pointer_expression":
		if n.FirstChild().Text() != "*" {
			return false
		}
		base = n.Field("argument")
	case "subscript_expression":
		base = n.Field("argument")
	default:
		return false
	}
	base = Uncast(base)
	return base.Kind() == "identifier" && base.Text() == name
}

// memDominates reports whether n runs whenever check runs: climbing from
// n to the block that holds check crosses no branch, loop body, or
// short-circuit operand.
func memDominates(n, check syntax.Node) bool {
	child := n
	for par := n.Parent(); par.Valid(); child, par = par, par.Parent() {
		if par.Contains(check) {
			return par.Is("compound_statement", "labeled_statement") || par.Kind() == "if_statement" && child.FieldName() == "condition"
		}
		switch par.Kind() {
		case "if_statement", "while_statement", "for_statement", "for_range_loop":
			if child.FieldName() != "condition" && child.FieldName() != "initializer" {
				return false
			}
		case "do_statement", "switch_statement":
			return false // a break before n can reach check without n
		case "conditional_expression":
			if child.FieldName() != "condition" {
				return false
			}
		case "binary_expression":
			if op := BinaryOp(par); (op == "&&" || op == "||") && child.FieldName() == "right" {
				return false
			}
		case "case_statement", "else_clause", "lambda_expression", "function_definition":
			return false
		case "compound_statement":
			if memMacroLoop(par.PrevNamedSibling()) {
				return false // the body of a loop macro
			}
		default:
			if len(par.Kind()) > 7 && par.Kind()[:7] == "preproc" {
				return false
			}
		}
	}
	return false
}

// memRedefinedInLoop reports a definition of the tested name inside a
// loop that holds the check but not the dereference n: on a later
// iteration the test sees a value n never dereferenced.
func memRedefinedInLoop(defs []Def, n, check syntax.Node) bool {
	for a := check.Parent(); a.Valid() && !a.Contains(n); a = a.Parent() {
		if !a.Is("while_statement", "for_statement", "do_statement", "for_range_loop") && !memMacroLoop(a.PrevNamedSibling()) {
			continue
		}
		for _, d := range defs {
			if a.Contains(d.Node) {
				return true
			}
		}
	}
	return false
}

// memNullTestedBefore reports a NULL test of name in a condition that
// starts before n (or encloses it).
func memNullTestedBefore(fn syntax.Node, name string, n syntax.Node) bool {
	found := false
	fn.Field("body").Walk(func(m syntax.Node) bool {
		if found || m.Start() >= n.Start() {
			return false
		}
		var c syntax.Node
		switch m.Kind() {
		case "if_statement", "while_statement", "for_statement", "conditional_expression":
			c = Condition(m)
		case "binary_expression":
			if op := BinaryOp(m); op == "&&" || op == "||" {
				c = m.Field("left")
			}
		}
		for _, x := range memNullTested(c) {
			found = found || x.Text() == name
		}
		return !found
	})
	return found
}
