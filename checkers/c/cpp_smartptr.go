package c

import (
	"fmt"
	"strings"

	"github.com/jsec/jsec/checkers"
	"github.com/jsec/jsec/checkers/syntax"
)

// triageGet keeps x.get() / x->get() in a statement that deletes, frees
// or builds a smart pointer, or as the whole right side of an assignment.
func triageGet(lx *checkers.Lexed, tok int) bool {
	if !(lx.Is(tok-1, ".") || lx.Is(tok-1, "->")) || !lx.Is(tok+1, "(") || !lx.Is(tok+2, ")") {
		return false
	}
	for j := tok - 2; j >= 0 && tok-j < 64; j-- {
		if lx.Is(j, ";") || lx.Is(j, "{") || lx.Is(j, "}") {
			break
		}
		switch lx.Text(j) {
		case "delete", "free", "unique_ptr", "shared_ptr", "reset":
			return true
		}
	}
	// x = p.get(): Check looks at an assignment whose whole right side is
	// the call (parentheses aside), not at p.get() inside another
	// expression or call (f(p.get()), reinterpret_cast<T *>(p.get())).
	j := tok - 2
	for j >= 0 && (lx.Kind(j) == checkers.TokIdent || lx.Is(j, ".") || lx.Is(j, "->") || lx.Is(j, "::")) {
		j--
	}
	for j >= 0 && lx.Is(j, "(") {
		j--
	}
	return lx.Is(j, "=")
}

// checkGetEscape reports the raw pointer of a smart pointer deleted,
// freed, given a second owner, or stored in a member or global that
// outlives a local owner.
func checkGetEscape(p *checkers.Pass, h checkers.Hit) {
	fe := h.Node.Parent()
	call := fe.Parent()
	if fe.Kind() != "field_expression" || call.Kind() != "call_expression" || call.Field("function").Index() != fe.Index() || len(Args(call)) != 0 {
		return
	}
	owner := fe.Field("argument")
	fn := EnclosingFunction(call)
	if !fn.Valid() {
		return
	}
	scope := FuncScope(p, fn)
	var ov *Var
	if id := Ident(owner); id != "" {
		ov = scope.Lookup(id, owner)
	}
	if ov != nil && ov.Type != "" && ov.Type != "auto" && !strings.Contains(strings.ToLower(ov.Type), "ptr") {
		return // get() of something that is not a smart pointer
	}
	e := inClimbParens(call)
	if how := cppSecondOwner(e); how != "" {
		p.Report(checkers.Finding{Rule: ruleGetEscape, Span: checkers.NodeSpan(call),
			Message: fmt.Sprintf("%s the pointer that '%s' still owns: it is freed twice", how, shortText(owner))})
		return
	}
	par := e.Parent()
	if par.Kind() != "assignment_expression" || par.Field("right").Index() != e.Index() || ov == nil || !cppLocalOwner(ov) {
		return
	}
	dst := par.Field("left")
	if d := Ident(dst); d != "" && scope.Lookup(d, dst) != nil && !scope.Lookup(d, dst).Global && !scope.Lookup(d, dst).Static {
		return // a local copy dies with the owner
	}
	if cppOwnerTransferred(fn, ov.Name, call) {
		return
	}
	p.Report(checkers.Finding{Rule: ruleGetEscape, Span: checkers.NodeSpan(call), Adjust: -0.2,
		Message: fmt.Sprintf("'%s' keeps the raw pointer of local '%s', which frees the object when the function returns", shortText(dst), ov.Name)})
}

// cppSecondOwner says how the get() result at e is given a second owner.
func cppSecondOwner(e syntax.Node) string {
	par := e.Parent()
	switch par.Kind() {
	case "delete_expression":
		return "delete frees"
	case "argument_list", "initializer_list":
		outer := par.Parent()
		switch outer.Kind() {
		case "call_expression":
			switch name := CalleeName(outer); name {
			case "free":
				return "free() releases"
			case "unique_ptr", "shared_ptr":
				return "a new std::" + name + " takes"
			case "reset":
				return "reset() makes another smart pointer take"
			}
		case "init_declarator":
			if t := inDeclType(outer); strings.Contains(t, "unique_ptr") || strings.Contains(t, "shared_ptr") {
				return "a new " + t + " takes"
			}
		}
	}
	return ""
}

// cppLocalOwner reports whether v is a smart pointer owned by this call of
// the function: a local or a by-value parameter.
func cppLocalOwner(v *Var) bool {
	t := v.Type
	if t == "auto" && v.Init.Valid() {
		t = CalleeName(v.Init) // auto p = std::make_unique<T>()
	}
	t = strings.NewReplacer("make_unique", "unique_ptr", "make_shared", "shared_ptr").Replace(t)
	return (strings.Contains(t, "unique_ptr") || strings.Contains(t, "shared_ptr")) && !v.Global && !v.Static && !v.Reference && v.Pointer == 0
}

// cppOwnerTransferred reports whether the owner is moved, released, returned
// or copied somewhere after the call: ownership then outlives the function.
func cppOwnerTransferred(fn syntax.Node, name string, after syntax.Node) bool {
	found := false
	fn.Field("body").Walk(func(n syntax.Node) bool {
		if found || n.Kind() != "identifier" || n.Text() != name || n.Start() <= after.End() {
			return !found
		}
		e := inClimbParens(n)
		par := e.Parent()
		switch par.Kind() {
		case "argument_list", "return_statement", "init_declarator", "initializer_list":
			found = true
		case "assignment_expression":
			found = par.Field("right").Index() == e.Index()
		case "field_expression":
			found = par.Field("field").Text() == "release"
		}
		return !found
	})
	return found
}
