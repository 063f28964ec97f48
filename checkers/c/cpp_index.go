package c

import (
	"fmt"
	"strings"

	"github.com/jsec/jsec/checkers"
	"github.com/jsec/jsec/checkers/syntax"
)

// cppContainerTypes are the standard sequence containers whose operator[]
// does not check bounds.
var cppContainerTypes = []string{"vector", "string", "wstring", "array", "deque", "basic_string", "string_view"}

// cppIsContainer reports whether a declared type is one of them.
func cppIsContainer(t string) bool {
	if i := strings.IndexByte(t, '<'); i >= 0 {
		t = t[:i]
	}
	t = strings.TrimSpace(t)
	t = t[strings.LastIndex(t, ":")+1:]
	for _, c := range cppContainerTypes {
		if t == c {
			return true
		}
	}
	return false
}

// triageContainer keeps a container declaration "vector<T> &v" when the
// item indexes the declared name with anything but a number: v[ ... ].
func triageContainer(lx *checkers.Lexed, tok int) bool {
	j := tok + 1
	if lx.Is(j, "<") {
		if j = lx.AngleEnd(j); j < 0 {
			return false
		}
		j++
	}
	for lx.Is(j, "const") || lx.Is(j, "&") || lx.Is(j, "&&") {
		j++
	}
	if lx.Kind(j) != checkers.TokIdent {
		return false
	}
	name := lx.Text(j)
	it := lx.ItemOf(tok)
	if it < 0 {
		return false
	}
	if m := (memLex{lx, lx.Items[it], it}); m.inClassBody(tok) {
		return false // a member: Check looks at parameters and locals only
	}
	for k := j + 1; k+1 < lx.Items[it].TokEnd; k++ {
		if lx.Is(k, name) && lx.Is(k+1, "[") && lx.Kind(k) == checkers.TokIdent && !(lx.Kind(k+2) == checkers.TokNumber && lx.Is(k+3, "]")) {
			return true // v[0] is no index from outside: Check leaves it
		}
	}
	return false
}

// checkContainerIndex reports v[i] on a container declared at the hit when
// i comes from a parameter or program input and is not compared first.
func checkContainerIndex(p *checkers.Pass, h checkers.Hit) {
	decl := h.Node.Ancestor("parameter_declaration", "declaration", "field_declaration", "function_definition")
	if !decl.Is("parameter_declaration", "declaration") || !cppIsContainer(decl.Field("type").Text()) {
		return
	}
	fn := EnclosingFunction(decl)
	if !fn.Valid() {
		return
	}
	scope := FuncScope(p, fn)
	for d := range decl.NamedChildren() {
		if d.FieldName() != "declarator" {
			continue
		}
		var v *Var
		for _, c := range scope.Vars() {
			if d.Contains(c.Decl) {
				v = c
			}
		}
		if v == nil || v.Pointer > 0 || v.IsArray() {
			continue
		}
		cppContainerUses(p, fn, scope, v, decl.Field("type").Text())
	}
}

// cppContainerUses reports the unchecked subscripts of container v.
func cppContainerUses(p *checkers.Pass, fn syntax.Node, scope *Scope, v *Var, typ string) {
	fn.Field("body").Walk(func(n syntax.Node) bool {
		if n.Kind() == "lambda_expression" {
			return false
		}
		if n.Kind() != "subscript_expression" || Ident(n.Field("argument")) != v.Name || scope.Lookup(v.Name, n) != v {
			return true
		}
		idx := inSubscriptIndex(n)
		src := inputOrigin(p, idx)
		if src.Origin < OriginParam || inLimitChecked(p, fn, idx, n) {
			return true
		}
		f := checkers.Finding{Rule: ruleContainerIdx, Span: checkers.NodeSpan(n),
			Message: fmt.Sprintf("%s '%s' is indexed by '%s', which comes from %s, with no check against %s.size()",
				strings.Join(strings.Fields(typ), ""), v.Name, shortText(idx), src.What, v.Name)}
		if src.Origin == OriginExternal {
			f.Adjust = 0.15
		}
		p.Report(f)
		return true
	})
}
