package c

import (
	"strings"

	"github.com/jsec/jsec/checkers"
	"github.com/jsec/jsec/checkers/syntax"
)

// Struct fields declared in the file being scanned, found by a token scan
// of every struct, union and class body (parsed or not), so that
// "s->name" in a function resolves to "char name[32]".

// bufField is one member declaration.
type bufField struct {
	Type    string // base type as written, qualifiers dropped
	Pointer int
	Dims    []int64 // array dimensions, -1 when not constant
}

func (f *bufField) same(g *bufField) bool {
	if f.Type != g.Type || f.Pointer != g.Pointer || len(f.Dims) != len(g.Dims) {
		return false
	}
	for i := range f.Dims {
		if f.Dims[i] != g.Dims[i] {
			return false
		}
	}
	return true
}

// bufStructs indexes the file's struct members by struct tag or typedef
// name, and by member name alone.
type bufStructs struct {
	byType map[string]map[string]*bufField
	byName map[string][]*bufField
}

type bufStructsKey struct{}

func bufStructIndex(p *checkers.Pass) *bufStructs {
	return checkers.Memo(p, bufStructsKey{}, func() *bufStructs {
		x := &bufStructs{byType: map[string]map[string]*bufField{}, byName: map[string][]*bufField{}}
		lx := p.Lex
		macros := Facts(p).Macros
		for i := range lx.Tokens {
			if lx.Kind(i) != checkers.TokIdent {
				continue
			}
			switch lx.Text(i) {
			case "struct", "union", "class":
			default:
				continue
			}
			name, open := "", i+1
			if lx.Kind(open) == checkers.TokIdent {
				name = lx.Text(open)
				open++
			}
			for open < len(lx.Tokens) && !lx.Is(open, "{") && !lx.Is(open, ";") && !lx.Is(open, "(") && open-i < 12 {
				open++ // ": public Base", "final", attributes
			}
			if !lx.Is(open, "{") {
				continue
			}
			end := lx.Close(open)
			if end < 0 {
				continue
			}
			fields := scanMembers(lx, open+1, end, macros)
			var names []string
			if name != "" {
				names = append(names, name)
			}
			if i > 0 && lx.Is(i-1, "typedef") {
				for k := end + 1; k < len(lx.Tokens) && !lx.Is(k, ";"); k++ {
					if lx.Kind(k) == checkers.TokIdent && (lx.Is(k+1, ";") || lx.Is(k+1, ",")) && !lx.Is(k-1, "*") {
						names = append(names, lx.Text(k))
					}
				}
			}
			for _, n := range names {
				if x.byType[n] == nil {
					x.byType[n] = fields
				}
			}
			for fname, f := range fields {
				x.byName[fname] = append(x.byName[fname], f)
			}
		}
		return x
	})
}

// scanMembers reads the member declarations between tokens [from, to).
// Nested struct bodies are skipped (they are scanned on their own).
func scanMembers(lx *checkers.Lexed, from, to int, macros map[string]int64) map[string]*bufField {
	out := map[string]*bufField{}
	start := from
	for k := from; k < to; k++ {
		if lx.Is(k, "{") {
			if c := lx.Close(k); c > 0 && c < to {
				k = c
			}
			continue
		}
		if !lx.Is(k, ";") {
			continue
		}
		scanMember(lx, start, k, macros, out)
		start = k + 1
	}
	return out
}

// scanMember reads one member declaration "T a, *b, c[N][M]" in tokens
// [from, to).
func scanMember(lx *checkers.Lexed, from, to int, macros map[string]int64, out map[string]*bufField) {
	var typ []string
	pointer := 0
	for k := from; k < to; k++ {
		t := lx.Text(k)
		switch {
		case t == ":" && k > from && (lx.Is(k-1, "public") || lx.Is(k-1, "private") || lx.Is(k-1, "protected")):
			typ, pointer = nil, 0
		case t == "(" || t == ":" || t == "{" || t == "=" || lx.Kind(k) == checkers.TokPreproc:
			return // function pointers, methods, bit-fields, nested bodies, defaults
		case t == "*":
			pointer++
		case t == ",":
			pointer = 0
		case lx.Kind(k) == checkers.TokIdent:
			next := ""
			if k+1 < to {
				next = lx.Text(k + 1)
			}
			if t == "public" || t == "private" || t == "protected" {
				continue
			}
			if k+1 < to && next != "[" && next != "," {
				if pointer == 0 {
					typ = append(typ, t)
				}
				continue
			}
			if len(typ) == 0 {
				return
			}
			f := &bufField{Type: strings.Join(typeWords(typ), " "), Pointer: pointer}
			j := k + 1
			for lx.Is(j, "[") {
				end := lx.Close(j)
				if end < 0 || end > to {
					return
				}
				var expr strings.Builder
				for t := j + 1; t < end; t++ {
					expr.WriteString(lx.Text(t))
				}
				n, ok := evalConst(expr.String(), macros)
				if !ok || n <= 0 {
					n = -1
				}
				f.Dims = append(f.Dims, n)
				j = end + 1
			}
			out[t] = f
			k = j - 1
		}
	}
}

// bufFieldOf resolves a field access (s->name, s.name, (*s).name) to the
// member declaration: by the struct type of the base when the scope knows
// it (nil when that struct is not declared in the file), else by the
// member name when every struct in the file that has a member of that
// name declares it the same way. A bare identifier inside
// a C++ method resolves by name the same way.
func bufFieldOf(p *checkers.Pass, s *Scope, e syntax.Node) *bufField {
	x := bufStructIndex(p)
	var name string
	switch e.Kind() {
	case "field_expression":
		name = e.Field("field").Text()
		if t := bufExprType(p, s, e.Field("argument")); t != "" {
			// The base's type is known: its declaration decides, and a
			// struct declared elsewhere is unknown, not guessed by name.
			return x.byType[t][name]
		}
	case "identifier":
		if p.File.Lang != "cpp" {
			return nil
		}
		name = e.Text()
	default:
		return nil
	}
	cands := x.byName[name]
	if len(cands) == 0 {
		return nil
	}
	for _, c := range cands[1:] {
		if !c.same(cands[0]) {
			return nil
		}
	}
	return cands[0]
}

// bufExprType returns the struct tag or typedef name of an expression's
// type, "" when unknown.
func bufExprType(p *checkers.Pass, s *Scope, e syntax.Node) string {
	e = Uncast(e)
	switch e.Kind() {
	case "identifier":
		if v := s.Lookup(e.Text(), e); v != nil {
			return bufTypeName(v.Type)
		}
	case "field_expression":
		if f := bufFieldOf(p, s, e); f != nil {
			return bufTypeName(f.Type)
		}
	case "pointer_expression", "subscript_expression":
		return bufExprType(p, s, e.Field("argument"))
	}
	return ""
}

// bufTypeName strips "struct", "union", "class" and qualifiers from a type.
func bufTypeName(t string) string {
	var out []string
	for _, w := range strings.Fields(t) {
		switch w {
		case "struct", "union", "class", "const", "volatile", "enum":
		default:
			out = append(out, w)
		}
	}
	return strings.Join(out, " ")
}
