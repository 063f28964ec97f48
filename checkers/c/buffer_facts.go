package c

import (
	"fmt"
	"strings"

	"github.com/jsec/jsec/checkers"
	"github.com/jsec/jsec/checkers/syntax"
)

// This file answers the buffer family's two recurring questions: how much
// room does a destination expression offer (a local or file-scope array, a
// struct field declared in the same file, a pointer just allocated with a
// constant size), and what is the value of a size expression (constants,
// macros, sizeof of arrays, pointers and basic types).

// bufRoom is the room a destination offers.
type bufRoom struct {
	Elems    int64 // element count
	ElemSize int64 // bytes per element, 0 when unknown
	// What describes the destination for messages: "'buf' (64 bytes)".
	What string
	// Heap is set for a pointer sized by its allocation.
	Heap bool
}

// Bytes returns the room in bytes.
func (r bufRoom) Bytes() (int64, bool) {
	if r.ElemSize <= 0 {
		return 0, false
	}
	return r.Elems * r.ElemSize, true
}

// Chars returns the room in characters for a string function: bytes for
// char buffers, elements for wide ones.
func (r bufRoom) Chars(wide bool) (int64, bool) {
	if wide {
		return r.Elems, r.ElemSize == 2 || r.ElemSize == 4
	}
	if r.ElemSize == 1 {
		return r.Elems, true
	}
	return 0, false
}

// bufArray is an array's shape: its dimensions (outermost first) and its
// element type.
type bufArray struct {
	Dims    []int64 // -1 for a dimension that is not a constant
	Type    string
	Pointer int // pointers in the element type ("char *names[4]")
}

func (a bufArray) elemSize() int64 {
	if a.Pointer > 0 {
		return 8
	}
	n, ok := basicTypeSize(a.Type)
	if !ok {
		return 0
	}
	return n
}

// sub returns the shape of a[i]: the remaining dimensions.
func (a bufArray) sub() (bufArray, bool) {
	if len(a.Dims) < 2 {
		return bufArray{}, false
	}
	return bufArray{Dims: a.Dims[1:], Type: a.Type, Pointer: a.Pointer}, true
}

// room returns the whole array's room: elements of the innermost type
// times the other dimensions.
func (a bufArray) room(what string) (bufRoom, bool) {
	if len(a.Dims) == 0 {
		return bufRoom{}, false
	}
	n := int64(1)
	for _, d := range a.Dims[:len(a.Dims)-1] {
		if d <= 0 {
			return bufRoom{}, false
		}
		n *= d
	}
	last := a.Dims[len(a.Dims)-1]
	if last <= 0 {
		return bufRoom{}, false
	}
	r := bufRoom{Elems: n * last, ElemSize: a.elemSize()}
	if len(a.Dims) > 1 {
		// Count whole rows as the element for multi-dimensional arrays.
		r = bufRoom{Elems: n, ElemSize: a.elemSize() * last}
		if a.elemSize() == 0 {
			r.ElemSize = 0
		}
	}
	r.What = describeRoom(what, r)
	return r, true
}

func describeRoom(what string, r bufRoom) string {
	if b, ok := r.Bytes(); ok {
		return fmt.Sprintf("'%s' (%d bytes)", what, b)
	}
	return fmt.Sprintf("'%s' (%d elements)", what, r.Elems)
}

// bufVarArray returns the shape of an array variable, nil for non-arrays
// and for array parameters (they are pointers).
func bufVarArray(p *checkers.Pass, s *Scope, v *Var) *bufArray {
	if v == nil || !v.IsArray() || v.Param {
		return nil
	}
	if v.Global && !v.Decl.Valid() {
		if a, ok := bufGlobals(p)[v.Name]; ok {
			return &a
		}
		if v.ArrayLen > 0 {
			return &bufArray{Dims: []int64{v.ArrayLen}, Type: v.Type, Pointer: v.Pointer}
		}
		return nil
	}
	// Walk up from the declared name: the nearest array_declarator is the
	// outermost dimension. (Var.ArrayLen holds the innermost one for
	// multi-dimensional arrays.)
	a := &bufArray{Type: v.Type, Pointer: v.Pointer}
	for d := v.Decl.Parent(); d.Valid(); d = d.Parent() {
		switch d.Kind() {
		case "array_declarator":
			size := d.Field("size")
			n, ok := IntValue(size, s.Consts())
			if !size.Valid() {
				if str, isStr := StringValue(v.Init); isStr && len(a.Dims) == 0 {
					n, ok = int64(len(str))+1, true
				} else if v.Init.Kind() == "initializer_list" && len(a.Dims) == 0 {
					n, ok = int64(v.Init.NamedChildCount()), true
				}
			}
			if !ok || n <= 0 {
				n = -1
			}
			a.Dims = append(a.Dims, n)
			continue
		case "parenthesized_declarator", "pointer_declarator":
			// char (*p)[8] is a pointer: stop.
			return nil
		}
		break
	}
	if len(a.Dims) == 0 {
		return nil
	}
	return a
}

type bufGlobalsKey struct{}

// bufGlobals scans file-scope declarations for arrays with every
// dimension ("char tab[4][16];"), which FileFacts records only by the
// first one.
func bufGlobals(p *checkers.Pass) map[string]bufArray {
	return checkers.Memo(p, bufGlobalsKey{}, func() map[string]bufArray {
		out := map[string]bufArray{}
		lx := p.Lex
		facts := Facts(p)
		for _, it := range lx.Items {
			for k := it.TokStart; k+1 < it.TokEnd; k++ {
				if lx.Kind(k) != checkers.TokIdent || !lx.Is(k+1, "[") {
					continue
				}
				g := facts.Globals[lx.Text(k)]
				if g == nil {
					continue
				}
				a := bufArray{Type: g.Type, Pointer: g.Pointer}
				j := k + 1
				for lx.Is(j, "[") {
					end := lx.Close(j)
					if end < 0 || end > it.TokEnd {
						break
					}
					var expr strings.Builder
					for t := j + 1; t < end; t++ {
						expr.WriteString(lx.Text(t))
					}
					n, ok := evalConst(expr.String(), facts.Macros)
					if !ok || n <= 0 {
						n = -1
					}
					a.Dims = append(a.Dims, n)
					j = end + 1
				}
				if _, seen := out[g.Name]; !seen && len(a.Dims) > 0 {
					out[g.Name] = a
				}
			}
		}
		return out
	})
}

// bufArrayOf returns the shape of the array an expression names: a
// variable, a struct field, or a row of a multi-dimensional one.
func bufArrayOf(p *checkers.Pass, s *Scope, e syntax.Node) (*bufArray, bool) {
	e = Uncast(e)
	switch e.Kind() {
	case "identifier":
		v := s.LookupArray(e.Text(), e)
		if v == nil {
			if f := bufFieldOf(p, s, e); f != nil && len(f.Dims) > 0 {
				return &bufArray{Dims: f.Dims, Type: f.Type, Pointer: f.Pointer}, true
			}
			return nil, false
		}
		a := bufVarArray(p, s, v)
		return a, a != nil
	case "field_expression":
		f := bufFieldOf(p, s, e)
		if f == nil || len(f.Dims) == 0 {
			return nil, false
		}
		return &bufArray{Dims: f.Dims, Type: f.Type, Pointer: f.Pointer}, true
	case "subscript_expression":
		a, ok := bufArrayOf(p, s, e.Field("argument"))
		if !ok {
			return nil, false
		}
		sub, ok := a.sub()
		return &sub, ok
	}
	return nil, false
}

// bufRoomOf returns the room a destination argument offers: an array, a
// struct field array, buf + k, &buf[k], or a pointer whose every reaching
// definition allocates a constant size.
func bufRoomOf(p *checkers.Pass, s *Scope, at, e syntax.Node) (bufRoom, bool) {
	e = Uncast(e)
	switch e.Kind() {
	case "identifier", "field_expression", "subscript_expression":
		if a, ok := bufArrayOf(p, s, e); ok {
			return a.room(shortText(e))
		}
		if e.Kind() == "identifier" {
			return bufHeapRoom(p, s, at, e)
		}
	case "pointer_expression":
		if e.FirstChild().Text() != "&" {
			return bufRoom{}, false
		}
		arg := Uncast(e.Field("argument"))
		if arg.Kind() == "subscript_expression" {
			base, ok := bufRoomOf(p, s, at, arg.Field("argument"))
			k, kok := bufEval(p, s, bufIndexExpr(arg))
			if !ok || !kok || k < 0 || k > base.Elems {
				return bufRoom{}, false
			}
			return bufRoom{Elems: base.Elems - k, ElemSize: base.ElemSize, What: "'" + shortText(e) + "'"}, true
		}
		// &array has the array's size.
		if a, ok := bufArrayOf(p, s, arg); ok {
			return a.room(shortText(arg))
		}
	case "binary_expression":
		if BinaryOp(e) != "+" {
			return bufRoom{}, false
		}
		base, ok := bufRoomOf(p, s, at, e.Field("left"))
		k, kok := bufEval(p, s, e.Field("right"))
		if !ok || !kok || k < 0 || k > base.Elems {
			return bufRoom{}, false
		}
		r := bufRoom{Elems: base.Elems - k, ElemSize: base.ElemSize}
		if b, ok := r.Bytes(); ok {
			r.What = fmt.Sprintf("'%s' (%d bytes left)", shortText(e), b)
		} else {
			r.What = fmt.Sprintf("'%s' (%d elements left)", shortText(e), r.Elems)
		}
		return r, true
	}
	return bufRoom{}, false
}

// bufIndexExpr returns the index expression of a[i] in C and C++.
func bufIndexExpr(n syntax.Node) syntax.Node {
	if idx := n.Field("index"); idx.Valid() {
		return idx
	}
	return n.Field("indices").NamedChild(0)
}

// bufAllocators maps allocation functions to the arguments whose product
// is the size.
var bufAllocators = map[string][]int{
	"malloc": {0}, "calloc": {0, 1}, "alloca": {0}, "__builtin_alloca": {0}, "xmalloc": {0},
	"xcalloc": {0, 1}, "g_malloc": {0}, "g_malloc0": {0}, "zmalloc": {0}, "realloc": {1},
	"xrealloc": {1}, "_alloca": {0},
}

// bufHeapRoom returns the room of a pointer variable whose reaching
// definitions all allocate a constant number of bytes (the largest).
func bufHeapRoom(p *checkers.Pass, s *Scope, at, id syntax.Node) (bufRoom, bool) {
	v := s.Lookup(id.Text(), id)
	fn := EnclosingFunction(at)
	if v == nil || !v.IsPointer() || !fn.Valid() {
		return bufRoom{}, false
	}
	defs := Defs(p, fn).Reaching(id.Text(), at)
	if len(defs) == 0 {
		return bufRoom{}, false
	}
	best := int64(-1)
	for _, d := range defs {
		if d.Kind != DefAssign {
			return bufRoom{}, false
		}
		if d.Node.Kind() == "assignment_expression" && Uncast(d.Node.Field("left")).Kind() != "identifier" {
			return bufRoom{}, false
		}
		n, ok := bufAllocSize(p, s, d.Value)
		if !ok {
			return bufRoom{}, false
		}
		best = max(best, n)
	}
	es := int64(1)
	if v.Pointer > 1 {
		es = 8
	} else if n, ok := basicTypeSize(v.Type); ok {
		es = n
	} else if v.Type != "void" {
		return bufRoom{}, false
	}
	r := bufRoom{Elems: best / es, ElemSize: es, Heap: true}
	r.What = fmt.Sprintf("'%s' (%d bytes allocated)", id.Text(), best)
	return r, true
}

// bufAllocSize evaluates malloc(64), calloc(4, 16), new char[64].
func bufAllocSize(p *checkers.Pass, s *Scope, e syntax.Node) (int64, bool) {
	e = Uncast(e)
	if e.Kind() == "new_expression" {
		decl := e.Field("declarator")
		if decl.Kind() != "new_declarator" {
			return 0, false
		}
		n, ok := bufEval(p, s, decl.Field("length"))
		es, eok := basicTypeSize(e.Field("type").Text())
		return n * es, ok && eok
	}
	if e.Kind() != "call_expression" {
		return 0, false
	}
	idx, ok := bufAllocators[CalleeName(e)]
	if !ok {
		return 0, false
	}
	total := int64(1)
	for _, i := range idx {
		n, ok := bufEval(p, s, Arg(e, i))
		if !ok || n <= 0 {
			return 0, false
		}
		total *= n
	}
	return total, true
}

// bufEval evaluates a size expression: integer constants and macros,
// sizeof of arrays, variables and basic types, and + - * / of those.
func bufEval(p *checkers.Pass, s *Scope, n syntax.Node) (int64, bool) {
	n = Uncast(n)
	switch n.Kind() {
	case "sizeof_expression":
		return bufSizeof(p, s, n)
	case "char_literal":
		return bufCharValue(n)
	case "binary_expression":
		a, ok1 := bufEval(p, s, n.Field("left"))
		b, ok2 := bufEval(p, s, n.Field("right"))
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
			if b != 0 {
				return a / b, true
			}
		}
		return 0, false
	}
	return IntValue(n, s.Consts())
}

// bufCharValue decodes a character literal, including the short octal
// escapes ('\0', '\12') that IntValue rejects.
func bufCharValue(n syntax.Node) (int64, bool) {
	t := n.Text()
	if len(t) < 3 || t[0] != '\'' || t[len(t)-1] != '\'' {
		return 0, false
	}
	body := t[1 : len(t)-1]
	if len(body) >= 2 && body[0] == '\\' && body[1] >= '0' && body[1] <= '7' {
		v := int64(0)
		for _, c := range []byte(body[1:]) {
			if c < '0' || c > '7' {
				return 0, false
			}
			v = v*8 + int64(c-'0')
		}
		return v, len(body) <= 4
	}
	return IntValue(n, nil)
}

// bufSizeof evaluates sizeof: of a type (basic types and pointers), a
// string literal, an array, a field, a basic or pointer variable, or *p.
func bufSizeof(p *checkers.Pass, s *Scope, n syntax.Node) (int64, bool) {
	expr, typ := SizeofOperand(n)
	if typ.Valid() {
		return IntValue(n, nil)
	}
	expr = Unparen(expr)
	if str, ok := StringValue(expr); ok {
		return int64(len(str)) + 1, true
	}
	if a, ok := bufArrayOf(p, s, expr); ok {
		r, ok := a.room("")
		if !ok {
			return 0, false
		}
		return r.Bytes()
	}
	switch expr.Kind() {
	case "identifier":
		v := s.Lookup(expr.Text(), expr)
		if v == nil {
			return 0, false
		}
		if v.Pointer > 0 || v.Param && v.IsArray() {
			return 8, true
		}
		if v.IsArray() {
			return 0, false
		}
		return basicTypeSize(v.Type)
	case "field_expression":
		if f := bufFieldOf(p, s, expr); f != nil && f.Pointer > 0 && len(f.Dims) == 0 {
			return 8, true
		}
	}
	return 0, false
}
