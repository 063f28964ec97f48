package rust

import (
	"strings"

	"github.com/jsec/jsec/checkers"
	"github.com/jsec/jsec/checkers/syntax"
)

// This file holds the function-local facts the errors, arith, injection,
// secrets and async families share: which names a function binds (lets,
// parameters, patterns), what an identifier refers to, and the integer
// type of an expression when the file states it.

// locBind is one name bound inside a function.
type locBind struct {
	Name string
	Pat  syntax.Node // the identifier that binds the name
	Decl syntax.Node // let_declaration, parameter, let_condition, for_expression, match_arm
	Type syntax.Node // the type annotation, zero when there is none
	// Value is the initializer. Direct reports whether the name is bound
	// to Value itself (let x = v), not to a part of it (let (a, b) = v,
	// if let Some(x) = v).
	Value  syntax.Node
	Direct bool
	Scope  syntax.Node // where the name is visible
	From   int         // offset from which it is visible
}

// IsParam reports whether the binding is a parameter of a fn or closure.
func (b locBind) IsParam() bool {
	return b.Decl.Kind() == "parameter" || b.Decl.Kind() == "closure_parameters"
}

type locFnKey struct{ fn int }

// locBindings returns the names bound in function fn, memoized per file.
func locBindings(p *checkers.Pass, fn syntax.Node) []locBind {
	return checkers.Memo(p, locFnKey{fn.Index()}, func() []locBind {
		var out []locBind
		body := fn.Field("body")
		for par := range fn.Field("parameters").NamedChildren() {
			if par.Kind() == "parameter" {
				out = locPatternBinds(out, par.Field("pattern"), par, par.Field("type"), syntax.Node{}, body, body.Start())
			}
		}
		body.Walk(func(n syntax.Node) bool {
			switch n.Kind() {
			case "function_item", "impl_item", "trait_item", "mod_item":
				return false
			case "let_declaration":
				out = locPatternBinds(out, n.Field("pattern"), n, n.Field("type"), n.Field("value"), n.Parent(), n.End())
			case "let_condition":
				scope := n.Parent()
				for scope.Kind() == "let_chain" || scope.Kind() == "binary_expression" {
					scope = scope.Parent()
				}
				out = locPatternBinds(out, n.Field("pattern"), n, syntax.Node{}, n.Field("value"), scope, n.End())
			case "for_expression":
				out = locPatternBinds(out, n.Field("pattern"), n, syntax.Node{}, n.Field("value"), n.Field("body"), n.Field("body").Start())
			case "match_arm":
				val := n.Parent().Parent().Field("value")
				out = locPatternBinds(out, n.Field("pattern"), n, syntax.Node{}, val, n, n.Start())
			case "closure_expression":
				for c := range n.Field("parameters").NamedChildren() {
					switch c.Kind() {
					case "parameter":
						out = locPatternBinds(out, c.Field("pattern"), c, c.Field("type"), syntax.Node{}, n, n.Start())
					default:
						out = locPatternBinds(out, c, n.Field("parameters"), syntax.Node{}, syntax.Node{}, n, n.Start())
					}
				}
			}
			return true
		})
		return out
	})
}

// locPatternBinds appends a binding for every identifier that pattern pat
// binds.
func locPatternBinds(out []locBind, pat, decl, typ, val, scope syntax.Node, from int) []locBind {
	if !pat.Valid() {
		return out
	}
	if pat.Kind() == "identifier" {
		return append(out, locBind{Name: pat.Text(), Pat: pat, Decl: decl, Type: typ, Value: val, Direct: true, Scope: scope, From: from})
	}
	if pat.Kind() == "mut_pattern" || pat.Kind() == "ref_pattern" {
		if id := pat.NamedChild(pat.NamedChildCount() - 1); id.Kind() == "identifier" {
			return append(out, locBind{Name: id.Text(), Pat: id, Decl: decl, Type: typ, Value: val, Direct: true, Scope: scope, From: from})
		}
	}
	pat.Walk(func(n syntax.Node) bool {
		if n.FieldName() == "condition" {
			return false // a match guard
		}
		switch n.Kind() {
		case "identifier":
			// Path heads of tuple-struct patterns (Some, Ok, Path) are not
			// bindings.
			if n.FieldName() == "type" || n.Parent().Kind() == "scoped_identifier" {
				return false
			}
			if first := n.Text()[0]; first >= 'A' && first <= 'Z' {
				return false // a unit variant or constant, not a binding
			}
			out = append(out, locBind{Name: n.Text(), Pat: n, Decl: decl, Type: typ, Value: val, Scope: scope, From: from})
		case "field_identifier", "scoped_identifier", "type_identifier":
			return false
		}
		return true
	})
	return out
}

// locResolve returns the binding that identifier id refers to inside its
// function: the latest binding of that name visible at id.
func locResolve(p *checkers.Pass, id syntax.Node) (locBind, bool) {
	fn := EnclosingFunction(id)
	if !fn.Valid() || id.Kind() != "identifier" {
		return locBind{}, false
	}
	name := id.Text()
	var best locBind
	found := false
	for _, b := range locBindings(p, fn) {
		if b.Name != name || id.Start() < b.From || !b.Scope.Contains(id) {
			continue
		}
		if !found || b.From >= best.From {
			best, found = b, true
		}
	}
	return best, found
}

// locPeel strips what does not change a value's identity for the rules:
// parentheses, references, derefs, `?`, .await, and conversions such as
// .unwrap(), .clone(), .as_str(), .to_string(), .into().
func locPeel(n syntax.Node) syntax.Node {
	for {
		switch n.Kind() {
		case "parenthesized_expression", "try_expression", "reference_expression":
			n = n.NamedChild(n.NamedChildCount() - 1)
			continue
		case "unary_expression":
			if strings.HasPrefix(n.Text(), "*") {
				n = n.NamedChild(0)
				continue
			}
		case "await_expression":
			n = n.NamedChild(0)
			continue
		case "call_expression":
			name, method, recv := locCallName(n)
			if method && len(Args(n)) == 0 && locPeelMethods[name] {
				n = recv
				continue
			}
		}
		return n
	}
}

var locPeelMethods = map[string]bool{
	"unwrap": true, "clone": true, "as_str": true, "to_string": true, "to_owned": true, "into": true,
	"as_ref": true, "as_path": true, "as_bytes": true, "to_vec": true, "as_slice": true, "borrow": true,
	"as_os_str": true, "to_path_buf": true, "into_inner": true, "unwrap_or_default": true,
}

// locCallName returns the name a call invokes: the method name (method is
// true, recv the receiver) or the last segment of the function path.
func locCallName(call syntax.Node) (name string, method bool, recv syntax.Node) {
	f := call.Field("function")
	if f.Kind() == "generic_function" {
		f = f.Field("function")
	}
	switch f.Kind() {
	case "identifier":
		return f.Text(), false, syntax.Node{}
	case "scoped_identifier":
		return f.Field("name").Text(), false, syntax.Node{}
	case "field_expression":
		return f.Field("field").Text(), true, f.Field("value")
	}
	return "", false, syntax.Node{}
}

// locIsLiteral reports whether n is a literal or built only of literals
// (-1, [0u8; 32], [1, 2, 3], ("a", 1)).
func locIsLiteral(n syntax.Node) bool {
	switch n.Kind() {
	case "string_literal", "raw_string_literal", "integer_literal", "float_literal", "char_literal", "boolean_literal":
		return true
	case "unary_expression", "array_expression", "tuple_expression", "parenthesized_expression", "reference_expression":
		k := 0
		for c := range n.NamedChildren() {
			if c.Kind() == "line_comment" || c.Kind() == "block_comment" {
				continue
			}
			if !locIsLiteral(c) {
				return false
			}
			k++
		}
		return k > 0
	}
	return false
}

// locIsConstName reports whether an identifier names a constant
// (SCREAMING_CASE).
func locIsConstName(s string) bool {
	if s == "" || s[0] < 'A' || s[0] > 'Z' {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_') {
			return false
		}
	}
	return true
}

// locIntBits gives the width of Rust's integer types (usize and isize as
// on 64-bit targets) and char.
var locIntBits = map[string]int{
	"u8": 8, "u16": 16, "u32": 32, "u64": 64, "u128": 128, "usize": 64,
	"i8": 8, "i16": 16, "i32": 32, "i64": 64, "i128": 128, "isize": 64, "char": 32,
}

func locSigned(t string) bool { return strings.HasPrefix(t, "i") }

// locType returns the type of expression e when the code states it: a
// let annotation, a parameter, a struct field of this file, a literal
// suffix, a cast, .len(), T::from_le_bytes(…), .parse::<T>(). It returns
// "" when unknown.
func locType(p *checkers.Pass, e syntax.Node, depth int) string {
	if depth > 4 || !e.Valid() {
		return ""
	}
	switch e.Kind() {
	case "parenthesized_expression", "try_expression":
		return locType(p, e.NamedChild(0), depth+1)
	case "identifier":
		b, ok := locResolve(p, e)
		if !ok {
			return ""
		}
		if b.Type.Valid() {
			if b.Direct || b.IsParam() {
				return locTypeText(b.Type)
			}
			return ""
		}
		if b.Direct && b.Value.Valid() {
			return locType(p, b.Value, depth+1)
		}
	case "field_expression":
		if v := e.Field("value"); v.Kind() == "self" || v.Kind() == "identifier" {
			return locFieldTypes(p)[e.Field("field").Text()]
		}
	case "integer_literal":
		return locLiteralSuffix(e.Text())
	case "char_literal":
		return "char"
	case "type_cast_expression":
		return locTypeText(e.Field("type"))
	case "binary_expression":
		switch e.Field("operator").Text() {
		case "+", "-", "*", "/", "%", "&", "|", "^":
			if t := locType(p, e.Field("left"), depth+1); t != "" {
				return t
			}
			return locType(p, e.Field("right"), depth+1)
		}
	case "call_expression":
		return locCallType(p, e, depth)
	}
	return ""
}

func locCallType(p *checkers.Pass, call syntax.Node, depth int) string {
	name, method, recv := locCallName(call)
	if method {
		switch name {
		case "len", "count", "capacity":
			if len(Args(call)) == 0 {
				return "usize"
			}
		case "unwrap", "expect", "unwrap_or_default":
			return locType(p, recv, depth+1)
		case "parse":
			if ta := TypeArgs(call); len(ta) == 1 {
				return locTypeText(ta[0])
			}
		}
		return ""
	}
	f := call.Field("function")
	if f.Kind() != "scoped_identifier" {
		return ""
	}
	ty := f.Field("path").Text()
	if _, ok := locIntBits[ty]; !ok {
		return ""
	}
	switch name {
	case "from_le_bytes", "from_be_bytes", "from_ne_bytes", "from", "from_str_radix", "MAX", "MIN":
		return ty
	}
	return ""
}

// locTypeText renders a type node, with & and mut removed, without spaces.
func locTypeText(t syntax.Node) string {
	for t.Kind() == "reference_type" {
		t = t.Field("type")
	}
	return strings.Join(strings.Fields(t.Text()), "")
}

// locLiteralSuffix returns the type suffix of an integer literal ("u8" in
// 255u8), or "".
func locLiteralSuffix(lit string) string {
	lit = strings.ReplaceAll(lit, "_", "")
	// Suffixes start with u or i, which are not hex digits.
	for _, ty := range []string{"u128", "i128", "usize", "isize", "u16", "u32", "u64", "i16", "i32", "i64", "u8", "i8"} {
		if strings.HasSuffix(lit, ty) {
			return ty
		}
	}
	return ""
}

type locFieldKey struct{}

// locFieldTypes maps the field names of the structs declared in this file
// to their types, read from tokens because struct items are not parsed
// unless a rule needs them. A name declared with different types maps to
// "".
func locFieldTypes(p *checkers.Pass) map[string]string {
	return checkers.Memo(p, locFieldKey{}, func() map[string]string {
		out := map[string]string{}
		lx := p.Lex
		for i := 0; i+2 < len(lx.Tokens); i++ {
			if locTok(lx, i) != "struct" || lx.Kind(i+1) != checkers.TokIdent {
				continue
			}
			j := i + 2
			for j < len(lx.Tokens) && !lx.Is(j, "{") && !lx.Is(j, ";") && !lx.Is(j, "(") {
				j++
			}
			if !lx.Is(j, "{") {
				continue
			}
			end := lx.Close(j)
			if end < 0 {
				continue
			}
			locStructFields(lx, j+1, end, out)
			i = end
		}
		return out
	})
}

// locStructFields reads "name: Type," fields between tokens from and end.
func locStructFields(lx *checkers.Lexed, from, end int, out map[string]string) {
	for i := from; i < end; i++ {
		if lx.Kind(i) != checkers.TokIdent || !lx.Is(i+1, ":") {
			continue
		}
		name := locTok(lx, i)
		depth := 0
		j := i + 2
		for ; j < end; j++ {
			switch locTok(lx, j) {
			case "<", "(", "[":
				depth++
			case ">", ")", "]":
				depth--
			case ">>":
				depth -= 2
			}
			if depth <= 0 && lx.Is(j, ",") {
				break
			}
		}
		if j > i+2 {
			ty := strings.Join(strings.Fields(string(lx.Src[lx.Tokens[i+2].Start:lx.Tokens[j-1].End])), "")
			ty = strings.TrimPrefix(ty, "&")
			if old, ok := out[name]; ok && old != ty {
				ty = ""
			}
			out[name] = ty
		}
		i = j
	}
}

// locStatement returns the statement or item that holds n.
func locStatement(n syntax.Node) syntax.Node {
	for q := n; q.Valid(); q = q.Parent() {
		switch q.Parent().Kind() {
		case "block", "source_file", "declaration_list":
			return q
		}
	}
	return syntax.Node{}
}

// locIdents returns the identifiers inside n, token trees of macros
// included.
func locIdents(n syntax.Node) []syntax.Node {
	var out []syntax.Node
	n.Walk(func(m syntax.Node) bool {
		if m.Kind() == "identifier" {
			out = append(out, m)
		}
		return true
	})
	return out
}

// locMacroName returns the name of the macro invoked by a
// macro_invocation ("format" for std::format!).
func locMacroName(m syntax.Node) string {
	mac := m.Field("macro")
	if mac.Kind() == "scoped_identifier" {
		mac = mac.Field("name")
	}
	return mac.Text()
}

// locMacroAt returns the macro_invocation whose macro name is the hit's
// identifier.
func locMacroAt(h checkers.Hit) (syntax.Node, bool) {
	n := h.Node
	if n.Kind() != "identifier" {
		return syntax.Node{}, false
	}
	p := n.Parent()
	if p.Kind() == "scoped_identifier" && p.Field("name").Index() == n.Index() {
		n, p = p, p.Parent()
	}
	if p.Kind() == "macro_invocation" && p.Field("macro").Index() == n.Index() {
		return p, true
	}
	return syntax.Node{}, false
}

// locChainStart returns the first token of the method-call chain or path
// expression that ends just before token end (exclusive): for
// "let x = File::open(p)?.read(&mut b)" and end at the last ".", the
// index of "File". Brackets are skipped whole.
func locChainStart(lx *checkers.Lexed, end int) int {
	j := end - 1
	for j >= 0 {
		switch t := locTok(lx, j); {
		case t == ")" || t == "]":
			o := locOpenBefore(lx, j)
			if o < 0 {
				return j + 1
			}
			j = o - 1
		case t == ">":
			// a turbofish: parse::<u32>
			k := j - 1
			for k >= 0 && !lx.Is(k, "<") && !lx.Is(k, ";") && !lx.Is(k, "{") {
				k--
			}
			if k < 1 || !lx.Is(k-1, "::") {
				return j + 1
			}
			j = k - 1
		case t == "." || t == "::" || t == "?" || t == "!" && lx.Kind(j-1) == checkers.TokIdent:
			j--
		case lx.Kind(j) == checkers.TokIdent || lx.Kind(j) == checkers.TokString || lx.Kind(j) == checkers.TokNumber:
			if locKeywords[t] {
				return j + 1
			}
			if j > 0 && (lx.Is(j-1, ".") || lx.Is(j-1, "::") || lx.Is(j-1, "&") || lx.Is(j-1, "*")) {
				j--
				continue
			}
			return j
		default:
			return j + 1
		}
	}
	return 0
}

var locKeywords = map[string]bool{
	"let": true, "return": true, "if": true, "match": true, "in": true, "else": true, "while": true,
	"for": true, "mut": true, "move": true, "break": true, "loop": true, "unsafe": true,
}

// locOpenBefore returns the index of the bracket that opens the one closed
// at token j, scanning backwards, or -1.
func locOpenBefore(lx *checkers.Lexed, j int) int {
	depth := 0
	for k := j; k >= 0; k-- {
		if lx.Kind(k) != checkers.TokPunct {
			continue
		}
		switch locTok(lx, k) {
		case ")", "]", "}":
			depth++
		case "(", "[", "{":
			depth--
			if depth == 0 {
				return k
			}
		}
	}
	return -1
}

// locDeclared returns what the code says about identifier id's type: its
// annotation, or for a let without one the constructor of its value
// ("String::new()", "format!(…)" → "String"), or "".
func locDeclared(p *checkers.Pass, id syntax.Node) string {
	b, ok := locResolve(p, id)
	if !ok {
		return ""
	}
	if b.Type.Valid() {
		return locTypeText(b.Type)
	}
	if !b.Direct || !b.Value.Valid() {
		return ""
	}
	v := b.Value
	switch {
	case v.Kind() == "macro_invocation" && locMacroName(v) == "format":
		return "String"
	case v.Kind() == "call_expression":
		f := v.Field("function")
		if f.Kind() == "scoped_identifier" {
			return strings.Join(strings.Fields(f.Field("path").Text()), "")
		}
		if name, method, _ := locCallName(v); method && (name == "to_string" || name == "to_owned") {
			return "String"
		}
	}
	return locType(p, v, 1)
}

// locInTest is Pass.InTest with a second look at the syntax tree: a
// #[test] function or a #[cfg(test)] or `mod tests` module around n. The
// tree catches test modules that the item splitter merged into a
// neighbouring item.
func locInTest(p *checkers.Pass, n syntax.Node) bool {
	if p.InTest() {
		return true
	}
	if base := p.File.Path[strings.LastIndex(p.File.Path, "/")+1:]; base == "test.rs" || base == "tests.rs" {
		return true // the body of a `#[cfg(test)] mod test;`
	}
	for q := n; q.Valid(); q = q.Parent() {
		switch q.Kind() {
		case "function_item", "mod_item", "impl_item":
			if q.Kind() == "mod_item" && (q.Field("name").Text() == "tests" || q.Field("name").Text() == "test") {
				return true
			}
			for a := q.PrevSibling(); a.Kind() == "attribute_item" || a.Kind() == "line_comment" || a.Kind() == "block_comment"; a = a.PrevSibling() {
				t := strings.Join(strings.Fields(a.Text()), "")
				if t == "#[test]" || strings.HasPrefix(t, "#[cfg(test") || strings.HasSuffix(t, "::test]") ||
					strings.Contains(t, "::test(") || t == "#[bench]" {
					return true
				}
			}
		}
	}
	return false
}

// locTok returns the text of token i, or "" when i is out of range
// (Lexed.Text panics there, and a Triage panic is not recovered).
func locTok(lx *checkers.Lexed, i int) string {
	if i < 0 || i >= len(lx.Tokens) {
		return ""
	}
	return lx.Text(i)
}
