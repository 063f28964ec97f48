package c

import (
	"strconv"
	"strings"

	"github.com/jsec/jsec/checkers"
	"github.com/jsec/jsec/checkers/syntax"
)

// Var is a declared variable: a parameter, a local or a file-scope one.
type Var struct {
	Name string
	// Decl is the identifier in the declarator (zero for file-scope
	// variables found by the token scan).
	Decl syntax.Node
	// Type is the declaration's base type as written ("char", "struct buf",
	// "std::string"), without qualifiers, pointers or array brackets.
	Type    string
	Pointer int // number of '*' in the declarator
	// ArrayLen is the element count of a fixed-size array, -1 for an array
	// whose size is not a constant (a VLA or an unsized extern), 0 for a
	// non-array.
	ArrayLen int64
	// ArraySize is the size expression of an array declarator, if any
	// (the first dimension: n in a[n][m]).
	ArraySize syntax.Node
	// InnerDims are the size expressions of the other dimensions
	// (m in a[n][m]); Bytes multiplies them in.
	InnerDims []syntax.Node
	inner     int64
	Param     bool
	Global    bool
	Static    bool
	Reference bool
	// Init is the initializer, if any.
	Init syntax.Node
	// Block is the node whose extent is the variable's scope (the function
	// body for parameters).
	Block syntax.Node
}

// IsArray reports whether the variable is an array.
func (v *Var) IsArray() bool { return v.ArrayLen != 0 }

// IsPointer reports whether the variable is a pointer (not an array).
func (v *Var) IsPointer() bool { return v.Pointer > 0 && v.ArrayLen == 0 }

// ElemSize returns the size of one array element (or of the variable) in
// bytes for the basic types, ok=false otherwise.
func (v *Var) ElemSize() (int64, bool) {
	if v.Pointer > 0 {
		return 8, true
	}
	return basicTypeSize(v.Type)
}

// Bytes returns the size in bytes of a fixed-size array of a basic type.
func (v *Var) Bytes() (int64, bool) {
	if v.ArrayLen <= 0 {
		return 0, false
	}
	es, ok := v.ElemSize()
	if !ok {
		return 0, false
	}
	inner := v.inner
	if inner == 0 {
		inner = 1
	}
	return v.ArrayLen * inner * es, true
}

// Scope is the symbol table of one function.
type Scope struct {
	Fn   syntax.Node
	vars map[string][]*Var
	file *FileFacts
}

type scopeKey struct {
	t  *syntax.Tree
	fn int
}

// FuncScope returns the variables declared in fn (parameters and locals),
// computed once per function.
func FuncScope(p *checkers.Pass, fn syntax.Node) *Scope {
	return checkers.Memo(p, scopeKey{fn.Tree(), fn.Index()}, func() *Scope {
		s := &Scope{Fn: fn, vars: map[string][]*Var{}, file: Facts(p)}
		body := fn.Field("body")
		if params := fnDeclarator(fn).Field("parameters"); params.Valid() {
			for pd := range params.NamedChildren() {
				if pd.Kind() != "parameter_declaration" {
					continue
				}
				for _, v := range declVars(pd, pd.Field("declarator"), body) {
					v.Param = true
					s.add(v)
				}
			}
		}
		body.Walk(func(n syntax.Node) bool {
			switch n.Kind() {
			case "declaration":
				block := n.Parent()
				for d := range n.NamedChildren() {
					if d.FieldName() == "declarator" {
						for _, v := range declVars(n, d, block) {
							s.add(v)
						}
					}
				}
			case "function_definition", "lambda_expression", "class_specifier", "struct_specifier":
				return n.Index() == body.Index() // nested bodies have their own scope
			}
			return true
		})
		return s
	})
}

func (s *Scope) add(v *Var) { s.vars[v.Name] = append(s.vars[v.Name], v) }

// Lookup returns the variable that the name means at node at: the nearest
// local declared before it in an enclosing block, else a parameter, else a
// file-scope variable; nil when unknown.
func (s *Scope) Lookup(name string, at syntax.Node) *Var {
	var best *Var
	for _, v := range s.vars[name] {
		if v.Block.Valid() && !v.Block.Contains(at) {
			continue
		}
		if v.Decl.Valid() && v.Decl.Start() > at.Start() {
			continue
		}
		if best == nil || v.Decl.Start() >= best.Decl.Start() {
			best = v
		}
	}
	if best != nil {
		return best
	}
	return s.file.Globals[name]
}

// Vars iterates over every variable of the function.
func (s *Scope) Vars() []*Var {
	var out []*Var
	for _, vs := range s.vars {
		out = append(out, vs...)
	}
	return out
}

// Consts returns the file's integer macros, for IntValue.
func (s *Scope) Consts() map[string]int64 { return s.file.Macros }

// fnDeclarator returns the function_declarator of a definition.
func fnDeclarator(fn syntax.Node) syntax.Node {
	d := fn.Field("declarator")
	for d.Valid() && d.Kind() != "function_declarator" {
		d = d.Field("declarator")
	}
	return d
}

// Params returns the parameter names of a function, in order.
func Params(fn syntax.Node) []string {
	var out []string
	for pd := range fnDeclarator(fn).Field("parameters").NamedChildren() {
		if pd.Kind() == "parameter_declaration" {
			vs := declVars(pd, pd.Field("declarator"), syntax.Node{})
			if len(vs) == 1 {
				out = append(out, vs[0].Name)
			}
		}
	}
	return out
}

// declVars digs the variable out of one declarator of a declaration.
func declVars(decl, d syntax.Node, block syntax.Node) []*Var {
	v := &Var{Type: strings.TrimSpace(decl.Field("type").Text()), Block: block}
	for c := range decl.Children() {
		if c.Kind() == "storage_class_specifier" && c.Text() == "static" {
			v.Static = true
		}
	}
	for d.Valid() {
		switch d.Kind() {
		case "init_declarator":
			v.Init = d.Field("value")
			d = d.Field("declarator")
		case "pointer_declarator":
			v.Pointer++
			d = d.Field("declarator")
		case "reference_declarator":
			v.Reference = true
			d = d.NamedChild(0)
		case "array_declarator":
			// a[n][m] nests as array_declarator(array_declarator(a, n), m):
			// the innermost declarator holds the first dimension.
			if v.ArraySize.Valid() || v.ArrayLen == -1 {
				v.InnerDims = append([]syntax.Node{v.ArraySize}, v.InnerDims...)
			}
			v.ArraySize = d.Field("size")
			v.ArrayLen = -1
			d = d.Field("declarator")
		case "parenthesized_declarator":
			d = d.NamedChild(0)
		case "identifier":
			v.Name = d.Text()
			v.Decl = d
			return []*Var{v}
		default:
			return nil // function declarators, abstract declarators
		}
	}
	return nil
}

// ResolveArray fills in ArrayLen for arrays whose size is a constant
// expression (literals, macros) or whose length comes from a string
// initializer (char s[] = "abc").
func (s *Scope) ResolveArray(v *Var) {
	if v.ArrayLen != -1 {
		return
	}
	if v.ArraySize.Valid() {
		n, ok := IntValue(v.ArraySize, s.file.Macros)
		inner := int64(1)
		for _, d := range v.InnerDims {
			m, ok2 := IntValue(d, s.file.Macros)
			ok = ok && ok2 && m > 0
			inner *= m
		}
		if ok && n > 0 {
			v.ArrayLen, v.inner = n, inner
		}
		return
	}
	if str, ok := StringValue(v.Init); ok {
		v.ArrayLen = int64(len(str)) + 1
	}
}

// LookupArray is Lookup followed by ResolveArray.
func (s *Scope) LookupArray(name string, at syntax.Node) *Var {
	v := s.Lookup(name, at)
	if v != nil && v.Decl.Valid() {
		s.ResolveArray(v)
	}
	return v
}

// FileFacts are what a token scan of the whole file knows: integer macros
// and file-scope variables (with their array sizes), whether or not their
// items were parsed.
type FileFacts struct {
	Macros  map[string]int64
	Globals map[string]*Var
}

type factsKey struct{}

// Facts returns the file's facts, computed once per file.
func Facts(p *checkers.Pass) *FileFacts {
	return checkers.Memo(p, factsKey{}, func() *FileFacts { return scanFile(p.Lex) })
}

func scanFile(lx *checkers.Lexed) *FileFacts {
	f := &FileFacts{Macros: map[string]int64{}, Globals: map[string]*Var{}}
	for _, i := range directiveToks(lx) {
		t := lx.Tokens[i]
		if name, value, ok := defineInt(lx.Src[t.Start:t.End], f.Macros); ok {
			f.Macros[name] = value
		}
	}
	for _, it := range lx.Items {
		scanDeclItem(lx, it, f)
	}
	return f
}

// defineInt parses "#define NAME <integer expression>".
func defineInt(line []byte, macros map[string]int64) (string, int64, bool) {
	if !maybeDefine(line) {
		return "", 0, false
	}
	return parseDefine(line, macros)
}

// parseDefine is defineInt without maybeDefine's shortcut.
func parseDefine(line []byte, macros map[string]int64) (string, int64, bool) {
	fields := strings.Fields(strings.ReplaceAll(string(line[1:]), "\\\n", " "))
	if len(fields) < 3 || fields[0] != "define" {
		return "", 0, false
	}
	name := fields[1]
	if strings.ContainsAny(name, "(") {
		return "", 0, false // function-like macro
	}
	expr := strings.Join(fields[2:], "")
	if i := strings.Index(expr, "//"); i >= 0 {
		expr = expr[:i]
	}
	if i := strings.Index(expr, "/*"); i >= 0 {
		expr = expr[:i]
	}
	v, ok := evalConst(expr, macros)
	return name, v, ok
}

// maybeDefine reports whether the directive line can be a #define, as
// defineInt reads it, without allocating: most directives are not
// (#include, #if, #endif …). It answers true whenever it cannot tell
// cheaply (a line continuation or a non-ASCII byte where spaces go).
func maybeDefine(line []byte) bool {
	i := 1
	for i < len(line) {
		switch c := line[i]; {
		case c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r':
			i++
			continue
		case c == '\\' || c >= 0x80:
			return true
		}
		break
	}
	rest := line[i:]
	if len(rest) < len("define")+1 || string(rest[:len("define")]) != "define" {
		return false
	}
	switch c := rest[len("define")]; {
	case c == ' ' || c == '\t' || c == '\v' || c == '\f' || c == '\r' || c == '\n':
		return true
	case c == '\\' || c >= 0x80:
		return true
	}
	return false
}

// evalConst evaluates a tiny constant grammar: numbers, known names,
// parentheses, + - * / << >>.
func evalConst(s string, macros map[string]int64) (int64, bool) {
	p := constParser{s: s, macros: macros}
	v, ok := p.expr(0)
	return v, ok && p.i == len(p.s)
}

type constParser struct {
	s      string
	i      int
	macros map[string]int64
}

var constPrec = map[string]int{"<<": 1, ">>": 1, "+": 2, "-": 2, "*": 3, "/": 3}

func (p *constParser) op() string {
	for _, o := range []string{"<<", ">>", "+", "-", "*", "/"} {
		if strings.HasPrefix(p.s[p.i:], o) {
			return o
		}
	}
	return ""
}

func (p *constParser) expr(minPrec int) (int64, bool) {
	left, ok := p.unary()
	if !ok {
		return 0, false
	}
	for {
		o := p.op()
		prec, isOp := constPrec[o]
		if !isOp || prec <= minPrec {
			return left, true
		}
		p.i += len(o)
		right, ok := p.expr(prec)
		if !ok {
			return 0, false
		}
		switch o {
		case "+":
			left += right
		case "-":
			left -= right
		case "*":
			left *= right
		case "/":
			if right == 0 {
				return 0, false
			}
			left /= right
		case "<<":
			left <<= right & 63
		case ">>":
			left >>= right & 63
		}
	}
}

func (p *constParser) unary() (int64, bool) {
	if p.i >= len(p.s) {
		return 0, false
	}
	switch c := p.s[p.i]; {
	case c == '(':
		p.i++
		v, ok := p.expr(0)
		if !ok || p.i >= len(p.s) || p.s[p.i] != ')' {
			return 0, false
		}
		p.i++
		return v, true
	case c == '-':
		p.i++
		v, ok := p.unary()
		return -v, ok
	case c >= '0' && c <= '9':
		j := p.i
		for j < len(p.s) && IdentByte(p.s[j]) {
			j++
		}
		lit := strings.TrimRight(strings.ToLower(p.s[p.i:j]), "ul")
		p.i = j
		v, err := strconv.ParseInt(lit, 0, 64)
		return v, err == nil
	case IdentByte(c):
		j := p.i
		for j < len(p.s) && IdentByte(p.s[j]) {
			j++
		}
		v, ok := p.macros[p.s[p.i:j]]
		p.i = j
		return v, ok
	}
	return 0, false
}

// scanDeclItem records file-scope variables declared by a declaration
// item: "static char buf[BUFSZ];", "char *name = NULL, path[256];".
func scanDeclItem(lx *checkers.Lexed, it checkers.Item, f *FileFacts) {
	toks := lx.Tokens[it.TokStart:it.TokEnd]
	if len(toks) < 3 || lx.Src[toks[len(toks)-1].Start] != ';' {
		return
	}
	depth := 0
	static := false
	var typ []string
	pointer := 0
	for k := 0; k < len(toks); k++ {
		t := toks[k]
		text := string(lx.Src[t.Start:t.End])
		switch {
		case t.Kind == checkers.TokPunct && (text == "(" || text == "{"):
			if text == "(" && depth == 0 && k > 0 && toks[k-1].Kind == checkers.TokIdent {
				return // a prototype
			}
			depth++
		case t.Kind == checkers.TokPunct && (text == ")" || text == "}"):
			depth--
		case depth > 0:
		case text == "static":
			static = true
		case text == "*":
			pointer++
		case text == "," || text == "=" || text == ";":
			pointer = 0
			if text == "=" {
				// skip the initializer up to the next ',' at depth 0
				for k+1 < len(toks) {
					nt := string(lx.Src[toks[k+1].Start:toks[k+1].End])
					if nt == "(" || nt == "{" {
						depth++
					} else if nt == ")" || nt == "}" {
						depth--
					} else if depth == 0 && (nt == "," || nt == ";") {
						break
					}
					k++
				}
			}
		case t.Kind == checkers.TokIdent:
			next := ""
			if k+1 < len(toks) {
				next = string(lx.Src[toks[k+1].Start:toks[k+1].End])
			}
			if next != "[" && next != "," && next != ";" && next != "=" {
				if pointer == 0 {
					typ = append(typ, text)
				}
				continue
			}
			if len(typ) == 0 || typ[0] == "typedef" {
				return
			}
			v := &Var{Name: text, Type: strings.Join(typeWords(typ), " "), Pointer: pointer, Global: true, Static: static}
			if next == "[" {
				end := k + 2
				for end < len(toks) && string(lx.Src[toks[end].Start:toks[end].End]) != "]" {
					end++
				}
				v.ArrayLen = -1
				var expr strings.Builder
				for _, st := range toks[k+2 : min(end, len(toks))] {
					expr.Write(lx.Src[st.Start:st.End])
				}
				if n, ok := evalConst(expr.String(), f.Macros); ok && n > 0 {
					v.ArrayLen = n
				}
				k = end
			}
			f.Globals[text] = v
		}
	}
}

// typeWords drops qualifiers and storage classes from a type's words.
func typeWords(ws []string) []string {
	var out []string
	for _, w := range ws {
		switch w {
		case "static", "extern", "const", "volatile", "register", "inline", "__thread", "thread_local":
		default:
			out = append(out, w)
		}
	}
	return out
}
