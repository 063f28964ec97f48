package checkers

import (
	"strings"

	"github.com/jsec/jsec/checkers/syntax"
)

// FunctionName returns the name of the function that encloses n, qualified
// by its class or impl type when the tree shows one ("Parser::next"), or ""
// at file scope.
func FunctionName(n syntax.Node) string {
	fn := n
	if !fn.Is("function_definition", "function_item") {
		fn = n.Ancestor("function_definition", "function_item")
	}
	if !fn.Valid() {
		return ""
	}
	if fn.Kind() == "function_item" {
		name := fn.Field("name").Text()
		if impl := fn.Ancestor("impl_item"); impl.Valid() {
			return typeName(impl.Field("type").Text()) + "::" + name
		}
		return name
	}
	name := DeclaratorName(fn.Field("declarator"))
	if !strings.Contains(name, "::") {
		if cls := fn.Ancestor("class_specifier", "struct_specifier"); cls.Valid() {
			if cn := cls.Field("name").Text(); cn != "" {
				return cn + "::" + name
			}
		}
	}
	return name
}

// DeclaratorName digs the declared name out of a C/C++ declarator.
func DeclaratorName(d syntax.Node) string {
	for d.Valid() {
		switch d.Kind() {
		case "identifier", "field_identifier", "qualified_identifier", "destructor_name",
			"operator_name", "template_function", "type_identifier":
			return strings.Join(strings.Fields(d.Text()), "")
		}
		if inner := d.Field("declarator"); inner.Valid() {
			d = inner
			continue
		}
		// parenthesized_declarator and friends: first named child.
		d = d.NamedChild(0)
	}
	return ""
}

// typeName strips generic arguments: "Foo<T>" → "Foo".
func typeName(s string) string {
	if i := strings.IndexByte(s, '<'); i >= 0 {
		s = s[:i]
	}
	return strings.TrimSpace(s)
}
