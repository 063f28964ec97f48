package rust

import (
	"strconv"
	"strings"

	"github.com/jsec/jsec/checkers"
	"github.com/jsec/jsec/checkers/syntax"
)

// Declarations the unsafe, memory and ffi families read from tokens, so
// that the items holding them need not be parsed: the structs of the file
// and their field types, and the names brought in by use declarations.

// rawPointerField reports whether some struct in the file declares a field
// of that name with a raw pointer type (used for self.field receivers).
func rawPointerField(p *checkers.Pass, field string) bool {
	for _, st := range fileStructs(p) {
		for _, f := range st.fields {
			if f.name == field && (strings.HasPrefix(f.typ, "*const") || strings.HasPrefix(f.typ, "*mut")) {
				return true
			}
		}
	}
	return false
}

// structDef is a struct declared in the file, read from tokens (the
// struct's item need not have been parsed).
type structDef struct {
	name   string
	start  int // byte offset of the name
	fields []fieldDef
}

type fieldDef struct{ name, typ string }

type fileStructsKey struct{}

// fileStructs returns the structs of the file, by name, computed once.
func fileStructs(p *checkers.Pass) map[string]*structDef {
	return checkers.Memo(p, fileStructsKey{}, func() map[string]*structDef {
		lx := p.Lex
		out := map[string]*structDef{}
		for i := 0; i+1 < len(lx.Tokens); i++ {
			if lx.Kind(i) != checkers.TokIdent || !lx.Is(i, "struct") || lx.Kind(i+1) != checkers.TokIdent {
				continue
			}
			if lx.Is(i-1, ".") || lx.Is(i-1, "::") {
				continue
			}
			d := &structDef{name: lx.Text(i + 1), start: int(lx.Tokens[i+1].Start)}
			j := i + 2
			for j < len(lx.Tokens) && !lx.Is(j, "{") && !lx.Is(j, "(") && !lx.Is(j, ";") {
				if lx.Is(j, "<") {
					j = skipAngles(lx, j)
					continue
				}
				j++
			}
			if j < len(lx.Tokens) && !lx.Is(j, ";") {
				d.fields = structFields(lx, j)
			}
			if _, dup := out[d.name]; !dup {
				out[d.name] = d
			}
		}
		return out
	})
}

// skipAngles returns the index after the > that closes the < at i.
func skipAngles(lx *checkers.Lexed, i int) int {
	depth := 0
	for j := i; j < len(lx.Tokens); j++ {
		switch lx.Text(j) {
		case "<":
			depth++
		case ">":
			depth--
		case ">>":
			depth -= 2
		case "{", ";":
			return j
		}
		if depth <= 0 {
			return j + 1
		}
	}
	return len(lx.Tokens)
}

// structFields splits the field list that opens at token open ({ or ()
// into names and normalised type texts.
func structFields(lx *checkers.Lexed, open int) []fieldDef {
	end := lx.Close(open)
	if end < 0 {
		return nil
	}
	tuple := lx.Is(open, "(")
	var out []fieldDef
	start, depth := open+1, 0
	flush := func(a, b int) {
		for a < b && lx.Is(a, "#") {
			if c := lx.Close(a + 1); c > 0 && c < b {
				a = c + 1
			} else {
				break
			}
		}
		if a < b && lx.Is(a, "pub") {
			a++
			if lx.Is(a, "(") {
				a = lx.Close(a) + 1
			}
		}
		if a >= b || a <= 0 {
			return
		}
		f := fieldDef{name: strconv.Itoa(len(out))}
		if !tuple {
			if !lx.Is(a+1, ":") {
				return
			}
			f.name, a = lx.Text(a), a+2
		}
		f.typ = joinTokens(lx, a, b)
		out = append(out, f)
	}
	for j := open + 1; j < end; j++ {
		switch lx.Text(j) {
		case "(", "[", "{", "<":
			depth++
		case ")", "]", "}", ">":
			depth--
		case ">>":
			depth -= 2
		case ",":
			if depth == 0 {
				flush(start, j)
				start = j + 1
			}
		}
	}
	flush(start, end)
	return out
}

// joinTokens renders tokens [a, b) with a space only between two words:
// "*const u8", "Rc<RefCell<Node>>".
func joinTokens(lx *checkers.Lexed, a, b int) string {
	var sb strings.Builder
	for k := a; k < b; k++ {
		if k > a && (lx.Kind(k) != checkers.TokPunct && lx.Kind(k-1) != checkers.TokPunct ||
			lx.Is(k, "::") && (lx.Is(k-1, "mut") || lx.Is(k-1, "const") || lx.Is(k-1, "dyn"))) {
			sb.WriteByte(' ')
		}
		sb.WriteString(lx.Text(k))
	}
	return sb.String()
}

// normType renders a type node the way joinTokens renders field types.
func normType(p *checkers.Pass, n syntax.Node) string {
	if !n.Valid() {
		return ""
	}
	a, b := tokRange(p.Lex, n.Start(), n.End())
	return joinTokens(p.Lex, a, b)
}

type importsKey struct{}

// imported reports whether a use declaration of the file brings name in
// from a path that contains module ("ptr", "slice", "mem").
func imported(p *checkers.Pass, module, name string) bool {
	uses := checkers.Memo(p, importsKey{}, func() map[string][]string {
		lx := p.Lex
		out := map[string][]string{}
		for i := 0; i < len(lx.Tokens); i++ {
			if !lx.Is(i, "use") || lx.Kind(i) != checkers.TokIdent {
				continue
			}
			var mods []string
			j := i + 1
			for ; j < len(lx.Tokens) && !lx.Is(j, ";"); j++ {
				if lx.Kind(j) == checkers.TokIdent {
					mods = append(mods, lx.Text(j))
				}
			}
			for _, m := range mods {
				out[m] = append(out[m], mods...)
			}
			i = j
		}
		return out
	})
	for _, m := range uses[name] {
		if m == module {
			return true
		}
	}
	return false
}
