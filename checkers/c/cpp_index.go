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
	if m := memLexOf(lx, it); m.inClassBody(tok) {
		return false // a member: Check looks at parameters and locals only
	}
	for k := j + 1; k+1 < lx.Items[it].TokEnd; k++ {
		if lx.Is(k, name) && lx.Is(k+1, "[") && lx.Kind(k) == checkers.TokIdent && !cppLiteralIndex(lx, lx.Items[it], k+1) {
			return true
		}
	}
	return false
}

// cppLiteralIndex reports whether the subscript opening at open holds an
// index whose every value is a literal, which Check leaves alone (it
// reports indexes that come from a parameter or from input): a number,
// v[0], or a local counter, v[i], that the item only ever declares with a
// number, sets to a number, steps by one or by a number, and reads.
func cppLiteralIndex(lx *checkers.Lexed, it checkers.Item, open int) bool {
	if lx.Close(open) != open+2 {
		return false
	}
	switch lx.Kind(open + 1) {
	case checkers.TokNumber:
		return true
	case checkers.TokIdent:
		return cppLiteralCounter(lx, it, lx.Text(open+1))
	}
	return false
}

// cppLiteralCounter reports whether every mention of name in the item is
// a declaration with a number (int i = 0), an assignment of a number, a
// step (++, --, += n, -= n) or a read outside a call's arguments, and one
// of them is such a declaration. Anything else (a parameter, &i, cin >>
// i, f(i), i = n) might bring a value from outside.
func cppLiteralCounter(lx *checkers.Lexed, it checkers.Item, name string) bool {
	declared := false
	for k := it.TokStart; k < it.TokEnd; k++ {
		if lx.Kind(k) != checkers.TokIdent || !lx.Is(k, name) {
			continue
		}
		prev, next := lx.Text(k-1), lx.Text(k+1)
		switch prev {
		case ".", "->", "::":
			continue // a member of something else
		case "&", ">>":
			return false // &i, cin >> i (and a & i, to be safe)
		case "[":
			if lx.Is(k-2, "auto") || lx.Is(k-3, "auto") {
				return false // auto [i, n] = …
			}
		case "(", ",":
			if cppInCall(lx, k-1) {
				return false // f(i) may take it by reference
			}
		}
		literal := lx.Kind(k+2) == checkers.TokNumber && (lx.Is(k+3, ";") || lx.Is(k+3, ",") || lx.Is(k+3, ")"))
		switch next {
		case "++", "--":
			continue
		case "=":
			if !literal {
				return false
			}
			if cppDeclPosition(lx, k) {
				declared = true
			}
			continue
		case "+=", "-=":
			if !literal {
				return false
			}
			continue
		case "*=", "/=", "%=", "<<=", ">>=", "&=", "|=", "^=":
			return false
		}
		if prev == "++" || prev == "--" {
			continue
		}
		if cppDeclPosition(lx, k) {
			return false // declared without a number: a parameter, int i;
		}
	}
	return declared
}

// cppInCall reports whether the "(" or "," at at belongs to the argument
// list of a call: the unmatched "(" before it follows a name that is no
// statement keyword, a template's ">", or a call's or subscript's close.
func cppInCall(lx *checkers.Lexed, at int) bool {
	depth := 0
	for j := at; j >= 0; j-- {
		switch lx.Text(j) {
		case ")", "]", "}":
			if j < at {
				depth++
			}
			continue
		case "[", "{":
			if depth == 0 {
				return false // an initializer or a subscript
			}
			depth--
			continue
		case "(":
			if depth > 0 {
				depth--
				continue
			}
		case ";":
			return false
		default:
			continue
		}
		switch lx.Text(j - 1) {
		case "if", "while", "for", "switch", "return", "sizeof", "alignof", "decltype", "catch", "case":
			return false
		case ">", ")", "]":
			return true
		}
		return lx.Kind(j-1) == checkers.TokIdent
	}
	return false
}

// cppDeclPosition reports whether the name at k follows what may be its
// type (a name, *, &, && or template arguments) rather than an operator:
// int i, T *i, vector<int> &i. return i and case i are reads.
func cppDeclPosition(lx *checkers.Lexed, k int) bool {
	switch lx.Text(k - 1) {
	case "return", "case", "sizeof", "delete", "throw", "co_return", "else", "do", "goto":
		return false
	case "*", "&", "&&", ">", ">>":
		return true
	}
	return lx.Kind(k-1) == checkers.TokIdent
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
