package c

import (
	"fmt"
	"strings"

	"github.com/jsec/jsec/checkers"
	"github.com/jsec/jsec/checkers/syntax"
)

// triageThrow keeps throws in items that declare something noexcept or a
// destructor.
func triageThrow(lx *checkers.Lexed, tok int) bool {
	if lx.Is(tok+1, "(") && lx.Is(tok+2, ")") && !lx.Is(tok+3, ";") {
		return false // a throw() specification
	}
	it := lx.ItemOf(tok)
	if it < 0 {
		return false
	}
	item := lx.Items[it]
	for j := item.TokStart; j < item.TokEnd; j++ {
		if lx.Is(j, "noexcept") || lx.Is(j, "~") || lx.Is(j, "throw") && lx.Is(j+1, "(") && lx.Is(j+2, ")") {
			return true
		}
	}
	return false
}

// checkThrowNoexcept reports a throw out of a destructor or a noexcept
// function that no enclosing try block cppCatches.
func checkThrowNoexcept(p *checkers.Pass, h checkers.Hit) {
	th := h.Node.Parent()
	if !th.Is("throw_statement", "throw_expression") {
		return
	}
	fn := th.Ancestor("function_definition", "lambda_expression")
	if fn.Kind() != "function_definition" {
		return // lambdas have their own exception specification
	}
	why := cppTerminating(fn)
	if why == "" {
		return
	}
	thrown := cppThrownType(th)
	for a := th.Parent(); a.Valid() && a.Index() != fn.Index(); a = a.Parent() {
		if a.Kind() == "compound_statement" && a.FieldName() == "body" && a.Parent().Kind() == "try_statement" && cppCatches(a.Parent(), thrown) {
			return
		}
	}
	what := "throw"
	if thrown != "" {
		what = "throwing " + thrown
	}
	if th.NamedChildCount() == 0 {
		what = "rethrowing"
	}
	p.Report(checkers.Finding{Rule: ruleThrowNoexc, Span: checkers.NodeSpan(th),
		Message: fmt.Sprintf("%s out of %s calls std::terminate", what, why)})
}

// cppTerminating says why an exception cannot leave fn: it is a
// destructor (implicitly noexcept) or declared noexcept / throw().
func cppTerminating(fn syntax.Node) string {
	fd := fnDeclarator(fn)
	name := checkers.DeclaratorName(fd)
	var spec syntax.Node
	for c := range fd.Children() {
		if c.Is("noexcept", "throw_specifier") {
			spec = c
		}
	}
	if spec.Kind() == "noexcept" {
		if arg := spec.NamedChild(0); arg.Valid() && arg.Kind() != "true" {
			return "" // noexcept(false) or a computed condition
		}
		return fmt.Sprintf("noexcept function '%s'", name)
	}
	if spec.Kind() == "throw_specifier" && spec.NamedChildCount() == 0 {
		return fmt.Sprintf("function '%s' declared throw()", name)
	}
	d := fd.Field("declarator")
	if d.Kind() == "qualified_identifier" {
		d = d.Field("name")
	}
	if d.Kind() == "destructor_name" {
		return fmt.Sprintf("destructor '%s' (implicitly noexcept)", name)
	}
	return ""
}

// cppThrownType returns the name of the thrown type when the expression
// shows it (throw Error(...), throw std::runtime_error{...}).
func cppThrownType(th syntax.Node) string {
	e := Unparen(th.NamedChild(0))
	switch e.Kind() {
	case "call_expression":
		return CalleeName(e)
	case "compound_literal_expression":
		t := e.Field("type").Text()
		return t[strings.LastIndex(t, ":")+1:]
	}
	return ""
}

// cppCatches reports whether a try statement has a handler for the thrown
// type: catch (...), the same name, or std::exception for a standard
// exception. An unknown thrown type counts as caught.
func cppCatches(try syntax.Node, thrown string) bool {
	for c := range try.NamedChildren() {
		if c.Kind() != "catch_clause" {
			continue
		}
		params := c.Field("parameters")
		if strings.Contains(params.Text(), "...") || thrown == "" {
			return true
		}
		t := cppParseType(params.NamedChild(0).Field("type").Text()).base
		t = t[strings.LastIndex(t, ":")+1:]
		if t == thrown || t == "exception" && (strings.HasSuffix(thrown, "_error") || strings.HasPrefix(thrown, "bad_") || thrown == "exception") {
			return true
		}
	}
	return false
}
