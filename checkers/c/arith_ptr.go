package c

import (
	"fmt"
	"strings"

	"github.com/jsec/jsec/checkers"
	"github.com/jsec/jsec/checkers/syntax"
)

// Pointer arithmetic scaled twice: on a T *, p - q and p + n already count
// in elements of T, so (p - q) / sizeof(T) and p + n * sizeof(T) scale a
// second time.

// triagePtrDiff keeps "(p - q) / sizeof", "p + sizeof", "p - sizeof",
// "p += sizeof" and "p + n * sizeof" (any operator of these), where the
// pointers are declared in the item with an element type wider than a
// byte. Check accepts exactly these shapes.
func triagePtrDiff(lx *checkers.Lexed, tok int) bool {
	it := lx.ItemOf(tok)
	if it < 0 {
		return false
	}
	from := lx.Items[it].TokStart
	switch {
	case lx.Is(tok-1, "/"):
		// ( a - b ) / sizeof
		return lx.Is(tok-2, ")") && lx.Is(tok-4, "-") && lx.Is(tok-6, "(") &&
			lx.Kind(tok-3) == checkers.TokIdent && lx.Kind(tok-5) == checkers.TokIdent &&
			ptrDiffDeclared(lx, from, tok, lx.Text(tok-5))
	case lx.Is(tok-1, "+"), lx.Is(tok-1, "-"), lx.Is(tok-1, "+="), lx.Is(tok-1, "-="):
		return ptrDiffOperand(lx, from, tok, tok-2)
	case lx.Is(tok-1, "*"):
		for k := tok - 2; k > from && k >= tok-24; k-- {
			switch lx.Text(k) {
			case ")", "]":
				k = ptrDiffOpen(lx, from, k)
			case "+", "-", "+=", "-=":
				return ptrDiffOperand(lx, from, tok, k-1)
			case ";", "{", "}", "=", ",", "(", "return":
				return false
			}
		}
	}
	return false
}

// ptrDiffOperand reports whether token k is a plain pointer name that
// starts its operand (not a cast's operand, a field, a dereference or
// the end of a product) and is declared with a wide element type.
func ptrDiffOperand(lx *checkers.Lexed, from, to, k int) bool {
	if lx.Kind(k) != checkers.TokIdent {
		return false
	}
	switch lx.Text(k - 1) {
	case "=", "(", ",", "return", "?", ":", "{", "}", ";", "[", "+=", "-=":
		return ptrDiffDeclared(lx, from, to, lx.Text(k))
	}
	return false
}

// ptrDiffOpen returns the index of the bracket that opens the one that
// closes at k (scanning back), or from.
func ptrDiffOpen(lx *checkers.Lexed, from, k int) int {
	depth := 0
	for j := k; j > from; j-- {
		switch lx.Text(j) {
		case ")", "]":
			depth++
		case "(", "[":
			depth--
			if depth == 0 {
				return j
			}
		}
	}
	return from
}

// ptrDiffDeclared reports whether name is declared in tokens [from, to)
// as a pointer ("T *name", "T **name") or an array ("T name[") whose
// element type is not a byte type.
func ptrDiffDeclared(lx *checkers.Lexed, from, to int, name string) bool {
	for k := from + 1; k < to; k++ {
		if !lx.Is(k, name) {
			continue
		}
		j := k - 1
		stars := 0
		for j > from && (lx.Is(j, "*") || lx.Is(j, "const")) {
			if lx.Is(j, "*") {
				stars++
			}
			j--
		}
		if lx.Kind(j) != checkers.TokIdent || stars == 0 && !lx.Is(k+1, "[") {
			continue
		}
		if stars > 1 || stars == 1 && lx.Is(k+1, "[") || !ptrDiffByteWords[lx.Text(j)] {
			return true
		}
	}
	return false
}

// ptrDiffByteWords end the names of one-byte (or void) element types.
var ptrDiffByteWords = map[string]bool{
	"char": true, "void": true, "uint8_t": true, "int8_t": true, "u_char": true, "u8": true, "guchar": true,
	"gchar": true, "BYTE": true, "u_int8_t": true, "uchar": true, "byte": true, "gint8": true, "guint8": true,
	"bool": true, "_Bool": true, "CHAR": true, "UCHAR": true, "TCHAR": true,
}

// checkPtrDiff looks at the arithmetic around one sizeof.
func checkPtrDiff(p *checkers.Pass, h checkers.Hit) {
	sz := h.Node.Parent()
	fn := EnclosingFunction(sz)
	if sz.Kind() != "sizeof_expression" || !fn.Valid() {
		return
	}
	scope := FuncScope(p, fn)
	up := sz
	for up.Parent().Kind() == "parenthesized_expression" {
		up = up.Parent()
	}
	parent := up.Parent()
	switch {
	case parent.Kind() == "binary_expression" && BinaryOp(parent) == "/" && parent.Field("right").Index() == up.Index():
		ptrDiffDivision(p, scope, parent, sz)
	case parent.Kind() == "binary_expression" && BinaryOp(parent) == "*":
		outer := parent
		for outer.Parent().Kind() == "parenthesized_expression" {
			outer = outer.Parent()
		}
		ptrDiffOffset(p, scope, outer.Parent(), outer, sz, true)
	default:
		ptrDiffOffset(p, scope, parent, up, sz, false)
	}
}

// ptrDiffDivision handles (p - q) / sizeof(…).
func ptrDiffDivision(p *checkers.Pass, scope *Scope, div, sz syntax.Node) {
	diff := div.Field("left").NamedChild(0)
	if diff.Kind() != "binary_expression" || BinaryOp(diff) != "-" {
		return
	}
	a, b := diff.Field("left"), diff.Field("right")
	if a.Kind() != "identifier" || b.Kind() != "identifier" || div.Field("left").Kind() != "parenthesized_expression" {
		return // a cast to char * or uintptr_t makes the difference count bytes
	}
	va, vb := ptrDiffElem(scope, a), ptrDiffElem(scope, b)
	if va == "" || va != vb || !ptrDiffMatches(sz, va, a.Text(), b.Text()) {
		return
	}
	p.Report(checkers.Finding{Rule: rulePtrDiff, Span: checkers.NodeSpan(div),
		Message: fmt.Sprintf("'%s' divides a pointer difference by the element size: '%s' already counts %s elements", shortText(div), shortText(diff), va)})
}

// ptrDiffOffset handles p + n * sizeof(…) (scaled) and p + sizeof(…)
// where p is a T * and the size is that of T.
func ptrDiffOffset(p *checkers.Pass, scope *Scope, op, operand, sz syntax.Node, scaled bool) {
	switch {
	case op.Kind() == "binary_expression" && (BinaryOp(op) == "+" || BinaryOp(op) == "-"):
	case op.Kind() == "assignment_expression" && (BinaryOp(op) == "+=" || BinaryOp(op) == "-="):
	default:
		return
	}
	ptr := op.Field("left")
	if ptr.Kind() != "identifier" || op.Field("right").Index() != operand.Index() {
		return // the pointer comes first: p + n * sizeof(T)
	}
	elem := ptrDiffElem(scope, ptr)
	if elem == "" || !ptrDiffMatches(sz, elem, ptr.Text(), "") {
		return
	}
	what := "sizeof(" + elem + ")"
	if scaled {
		what = "n * " + what
	}
	p.Report(checkers.Finding{Rule: rulePtrDiff, Span: checkers.NodeSpan(op),
		Message: fmt.Sprintf("'%s' adds %s to '%s' (%s *): pointer arithmetic already multiplies by the element size, so the offset is scaled twice", shortText(op), what, ptr.Text(), elem)})
}

// ptrDiffElem returns the element type of a local pointer or array whose
// elements are wider than a byte ("int", "struct item", "char *"), or "".
func ptrDiffElem(scope *Scope, id syntax.Node) string {
	v := scope.Lookup(id.Text(), id)
	if v == nil || v.Global || v.Pointer == 0 && !v.IsArray() {
		return ""
	}
	depth := v.Pointer
	if !v.IsArray() {
		depth--
	}
	elem := strings.Join(strings.Fields(v.Type), " ")
	if depth > 0 {
		return elem + strings.Repeat(" *", depth)
	}
	if n, ok := basicTypeSize(elem); ok && n == 1 || elem == "void" || elem == "" {
		return ""
	}
	return elem
}

// ptrDiffMatches reports whether sizeof measures the element type: the
// type itself, or *p / p[0] of one of the pointers.
func ptrDiffMatches(sz syntax.Node, elem, a, b string) bool {
	expr, typ := SizeofOperand(sz)
	if typ.Valid() {
		return strings.Join(strings.Fields(strings.ReplaceAll(typ.Text(), "*", " * ")), " ") == elem
	}
	expr = Unparen(expr)
	var base string
	switch expr.Kind() {
	case "pointer_expression":
		if expr.FirstChild().Text() == "*" {
			base = Ident(expr.Field("argument"))
		}
	case "subscript_expression":
		base = Ident(expr.Field("argument"))
	}
	return base != "" && (base == a || base == b)
}
