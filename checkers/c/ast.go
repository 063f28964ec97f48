package c

import (
	"strconv"
	"strings"

	"github.com/jsec/jsec/checkers"
	"github.com/jsec/jsec/checkers/syntax"
)

// This file holds the node helpers every C/C++ rule family uses. They read
// the tree-sitter-c and tree-sitter-cpp shapes, which differ in small ways
// (C++ wraps if-conditions in condition_clause and subscripts in
// subscript_argument_list); callers should not have to care.

// CallAt returns the call whose callee is the hit's identifier: f(...),
// std::f(...), ::f(...), (f)(...). ok is false when the identifier is not
// called (a declaration, a function pointer, a field named like the API).
func CallAt(h checkers.Hit) (call syntax.Node, ok bool) {
	n := h.Node
	if !n.Valid() || n.Kind() != "identifier" {
		return syntax.Node{}, false
	}
	for p := n.Parent(); p.Valid(); p = p.Parent() {
		switch p.Kind() {
		case "qualified_identifier":
			// std::f or ::f — but not obj::member of a user namespace we
			// cannot tell apart; accept any qualification of the name.
			if p.Field("name").Index() != n.Index() && !p.Contains(n) {
				return syntax.Node{}, false
			}
			n = p
			continue
		case "parenthesized_expression":
			n = p
			continue
		case "call_expression":
			if p.Field("function").Index() == n.Index() {
				return p, true
			}
		}
		return syntax.Node{}, false
	}
	return syntax.Node{}, false
}

// Args returns the call's arguments (comments skipped).
func Args(call syntax.Node) []syntax.Node {
	al := call.Field("arguments")
	var out []syntax.Node
	for c := range al.NamedChildren() {
		if c.Kind() != "comment" {
			out = append(out, c)
		}
	}
	return out
}

// Arg returns argument i of call, or the zero Node.
func Arg(call syntax.Node, i int) syntax.Node {
	args := Args(call)
	if i < 0 || i >= len(args) {
		return syntax.Node{}
	}
	return args[i]
}

// CalleeName returns the unqualified name of the function a call calls
// ("strcpy" for std::strcpy), or "" for calls through expressions.
func CalleeName(call syntax.Node) string {
	f := Unparen(call.Field("function"))
	for f.Kind() == "qualified_identifier" {
		f = f.Field("name")
	}
	switch f.Kind() {
	case "identifier":
		return f.Text()
	case "template_function":
		return f.Field("name").Text()
	}
	return ""
}

// Unparen strips parentheses around an expression.
func Unparen(n syntax.Node) syntax.Node {
	for n.Kind() == "parenthesized_expression" && n.NamedChildCount() == 1 {
		n = n.NamedChild(0)
	}
	return n
}

// Uncast strips parentheses and C casts: (char *)(p) → p.
func Uncast(n syntax.Node) syntax.Node {
	for {
		n = Unparen(n)
		if n.Kind() != "cast_expression" {
			return n
		}
		n = n.Field("value")
	}
}

// IsStringLiteral reports whether n is a string literal or a concatenation
// of literals (macros between literals, as in "%" PRIu64, count too: they
// expand to literals; comments between them are nothing).
func IsStringLiteral(n syntax.Node) bool {
	n = Unparen(n)
	switch n.Kind() {
	case "string_literal", "raw_string_literal":
		return true
	case "concatenated_string":
		lit := false
		for c := range n.NamedChildren() {
			switch c.Kind() {
			case "string_literal", "raw_string_literal":
				lit = true
			case "identifier", "comment":
			default:
				return false
			}
		}
		return lit
	}
	return false
}

// StringValue returns the contents of a string literal (concatenations
// joined, escapes decoded roughly: "\n" is one byte), and ok=false when n
// is not a literal. Macros inside a concatenation contribute nothing.
func StringValue(n syntax.Node) (string, bool) {
	n = Unparen(n)
	if !IsStringLiteral(n) {
		return "", false
	}
	var b strings.Builder
	var lit func(m syntax.Node)
	lit = func(m syntax.Node) {
		switch m.Kind() {
		case "concatenated_string":
			for c := range m.NamedChildren() {
				lit(c)
			}
		case "string_literal":
			for c := range m.NamedChildren() {
				switch c.Kind() {
				case "string_content":
					b.Write(c.Bytes())
				case "escape_sequence":
					b.WriteString(unescape(c.Text()))
				}
			}
		case "raw_string_literal":
			if c := m.Field("content"); c.Valid() {
				b.Write(c.Bytes())
			} else {
				for c := range m.NamedChildren() {
					if c.Kind() == "raw_string_content" {
						b.Write(c.Bytes())
					}
				}
			}
		}
	}
	lit(n)
	return b.String(), true
}

// charValue evaluates a C character literal: 'a', '\n', '\0', '\x41',
// '\177' (C allows one to three octal digits, Go's UnquoteChar three).
func charValue(t string) (int64, bool) {
	if len(t) < 3 || t[0] != '\'' || t[len(t)-1] != '\'' {
		return 0, false
	}
	body := t[1 : len(t)-1]
	if len(body) >= 2 && body[0] == '\\' && body[1] >= '0' && body[1] <= '7' {
		v, err := strconv.ParseInt(body[1:], 8, 64)
		return v, err == nil && len(body) <= 4
	}
	if len(body) >= 3 && body[0] == '\\' && body[1] == 'x' {
		v, err := strconv.ParseInt(body[2:], 16, 64)
		return v, err == nil
	}
	if v, _, tail, err := strconv.UnquoteChar(body, '\''); err == nil && tail == "" {
		return int64(v), true
	}
	return 0, false
}

func unescape(s string) string {
	if v, _, _, err := strconv.UnquoteChar(s, '"'); err == nil {
		return string(v)
	}
	return "?"
}

// IntValue evaluates an integer constant expression made of literals,
// character literals, sizeof of a few basic types, parentheses and + - * /
// << >>, plus names found in consts (macros, enum values). ok is false for
// anything else.
func IntValue(n syntax.Node, consts map[string]int64) (int64, bool) {
	n = Uncast(n)
	switch n.Kind() {
	case "number_literal":
		s := strings.ToLower(strings.ReplaceAll(n.Text(), "'", ""))
		s = strings.TrimRight(s, "ul")
		v, err := strconv.ParseInt(s, 0, 64)
		return v, err == nil
	case "char_literal":
		return charValue(n.Text())
	case "identifier":
		v, ok := consts[n.Text()]
		return v, ok
	case "sizeof_expression":
		if t := n.Field("type"); t.Valid() {
			return basicTypeSize(t.Text())
		}
		return 0, false
	case "unary_expression":
		v, ok := IntValue(n.Field("argument"), consts)
		if !ok {
			return 0, false
		}
		switch n.Field("operator").Text() {
		case "-":
			return -v, true
		case "+":
			return v, true
		case "~":
			return ^v, true
		}
		if op := n.FirstChild().Text(); op == "-" {
			return -v, true
		}
		return 0, false
	case "binary_expression":
		a, ok1 := IntValue(n.Field("left"), consts)
		b, ok2 := IntValue(n.Field("right"), consts)
		if !ok1 || !ok2 {
			return 0, false
		}
		switch BinaryOp(n) {
		case "+":
			return a + b, true
		case "-":
			return a - b, true
		case "*":
			return a * b, true
		case "/":
			if b == 0 {
				return 0, false
			}
			return a / b, true
		case "<<":
			if b < 0 || b > 62 {
				return 0, false
			}
			return a << b, true
		case ">>":
			if b < 0 || b > 62 {
				return 0, false
			}
			return a >> b, true
		}
	}
	return 0, false
}

// BinaryOp returns the operator of a binary or assignment expression.
func BinaryOp(n syntax.Node) string {
	if op := n.Field("operator"); op.Valid() {
		return op.Text()
	}
	for c := range n.Children() {
		if !c.IsNamed() {
			return c.Text()
		}
	}
	return ""
}

func basicTypeSize(t string) (int64, bool) {
	switch strings.Join(strings.Fields(t), " ") {
	case "char", "signed char", "unsigned char", "int8_t", "uint8_t", "bool", "_Bool":
		return 1, true
	case "short", "unsigned short", "int16_t", "uint16_t", "wchar_t":
		return 2, true
	case "int", "unsigned", "unsigned int", "int32_t", "uint32_t", "float":
		return 4, true
	case "long", "unsigned long", "long long", "unsigned long long", "int64_t", "uint64_t",
		"size_t", "ssize_t", "double", "intptr_t", "uintptr_t", "ptrdiff_t":
		return 8, true
	}
	if strings.HasSuffix(strings.TrimSpace(t), "*") {
		return 8, true
	}
	return 0, false
}

// SizeofOperand returns what a sizeof expression measures: the expression
// (sizeof buf, sizeof(buf)) or the type descriptor (sizeof(int)).
func SizeofOperand(n syntax.Node) (expr, typ syntax.Node) {
	n = Unparen(n)
	if n.Kind() != "sizeof_expression" {
		return syntax.Node{}, syntax.Node{}
	}
	if v := n.Field("value"); v.Valid() {
		return Unparen(v), syntax.Node{}
	}
	return syntax.Node{}, n.Field("type")
}

// Ident returns the identifier an lvalue-ish expression names: "p" for p,
// (p), (char *)p; "" for anything more complex. Use PathOf for s->buf.
func Ident(n syntax.Node) string {
	n = Uncast(n)
	if n.Kind() == "identifier" {
		return n.Text()
	}
	return ""
}

// PathOf returns a canonical text for an lvalue made of identifiers, field
// accesses, constant subscripts and dereferences ("s->buf", "a.b[2]",
// "*pp"), or "" when the expression is not such a path. Two expressions
// with the same path name the same storage in straight-line code.
func PathOf(n syntax.Node) string {
	n = Uncast(n)
	switch n.Kind() {
	case "identifier", "field_identifier", "this":
		return n.Text()
	case "field_expression":
		base := PathOf(n.Field("argument"))
		if base == "" {
			return ""
		}
		op := "."
		for c := range n.Children() {
			if !c.IsNamed() && (c.Text() == "->" || c.Text() == ".") {
				op = c.Text()
			}
		}
		return base + op + n.Field("field").Text()
	case "subscript_expression":
		base := PathOf(n.Field("argument"))
		idx := n.Field("index")
		if !idx.Valid() {
			idx = n.Field("indices").NamedChild(0)
		}
		if base == "" || idx.Kind() != "number_literal" {
			return ""
		}
		return base + "[" + idx.Text() + "]"
	case "pointer_expression":
		if n.FirstChild().Text() == "*" {
			if base := PathOf(n.Field("argument")); base != "" {
				return "*" + base
			}
		}
	}
	return ""
}

// Condition returns the expression an if/while/do/for statement tests,
// whatever wrapper the grammar puts around it.
func Condition(stmt syntax.Node) syntax.Node {
	c := stmt.Field("condition")
	if c.Kind() == "condition_clause" {
		if v := c.Field("value"); v.Valid() {
			return Unparen(v)
		}
		return Unparen(c.NamedChild(0))
	}
	return Unparen(c)
}

// EnclosingFunction returns the function definition around n.
func EnclosingFunction(n syntax.Node) syntax.Node {
	f := n
	if n.Kind() != "function_definition" {
		f = n.Ancestor("function_definition")
	}
	if f.Valid() && f.Field("type").Is("class_specifier", "struct_specifier", "union_specifier") && !hasFunctionDeclarator(f.Field("declarator")) {
		// class EXPORT_MACRO Name { … } read as a function named Name
		// whose body is the class body: no function at all.
		return syntax.Node{}
	}
	return f
}

// hasFunctionDeclarator reports whether a declarator declares a function
// (f(…), *f(…), Class::f(…), a reference or pointer to one).
func hasFunctionDeclarator(d syntax.Node) bool {
	for d.Valid() {
		if d.Kind() == "function_declarator" {
			return true
		}
		d = d.Field("declarator")
	}
	return false
}

// EnclosingStatement returns the statement that holds n (the child of a
// compound statement, or the body of a control statement).
func EnclosingStatement(n syntax.Node) syntax.Node {
	for p := n; p.Valid(); p = p.Parent() {
		par := p.Parent()
		if !par.Valid() {
			return p
		}
		switch par.Kind() {
		case "compound_statement", "translation_unit", "case_statement":
			return p
		}
		if strings.HasSuffix(p.Kind(), "_statement") && p.FieldName() != "" {
			return p
		}
	}
	return syntax.Node{}
}

// IsNullLiteral reports whether n is NULL, nullptr, 0 or (void *)0.
func IsNullLiteral(n syntax.Node) bool {
	n = Uncast(n)
	switch n.Kind() {
	case "null", "nullptr":
		return true
	case "number_literal":
		return n.Text() == "0"
	case "identifier":
		return n.Text() == "NULL"
	}
	return false
}
