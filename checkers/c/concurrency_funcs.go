package c

import (
	"strings"

	"github.com/jsec/jsec/checkers"
	"github.com/jsec/jsec/checkers/syntax"
)

// This file holds what the concurrency and errors families know about the
// functions of a file as a whole: signal handlers and thread start routines
// are functions that hold no trigger of their own, so the engine has not
// parsed them; they are found by name in the token stream and parsed here
// on demand.

// funcDef is a function definition found in the token stream: its name
// token, the first token of its declaration, and its body's braces.
type funcDef struct {
	name                              string
	nameTok, startTok, open, closeTok int
}

// tokens returns the token range [from, to) of the definition's body.
func (d funcDef) body() (from, to int) { return d.open + 1, d.closeTok }

// funcIndex maps the name of every function defined in the file to its
// first definition.
type funcIndex map[string]funcDef

type funcIndexKey struct{}

// fileFuncs returns the file's function definitions, found from tokens
// once per file. It does not rely on items: the lexer joins everything
// after an "#else" into one item, functions included.
func fileFuncs(p *checkers.Pass) funcIndex {
	return checkers.Memo(p, funcIndexKey{}, func() funcIndex {
		idx := funcIndex{}
		for _, d := range scanFuncDefs(p.Lex) {
			if _, dup := idx[d.name]; !dup {
				idx[d.name] = d
			}
		}
		return idx
	})
}

// notFuncNames are keywords that look like "name (…) {".
var notFuncNames = map[string]bool{
	"if": true, "while": true, "for": true, "switch": true, "catch": true, "sizeof": true, "return": true,
	"__attribute__": true, "__attribute": true, "__declspec": true, "alignas": true, "_Alignas": true, "defined": true,
}

// scanFuncDefs finds "name ( … ) [qualifiers] {" at file level (braces of
// #else branches do not count, as for items) and skips the body.
func scanFuncDefs(lx *checkers.Lexed) []funcDef {
	var out []funcDef
	depth := 0
	n := len(lx.Tokens)
	containerClose := map[int]bool{} // "}" of namespaces and extern "C" blocks
	for i := 0; i < n; i++ {
		t := lx.Tokens[i]
		if t.Kind == checkers.TokPunct {
			if t.Flags&checkers.FlagAltBranch == 0 {
				switch lx.Text(i) {
				case "{":
					if containerOpen(lx, i) {
						containerClose[lx.Close(i)] = true
					} else {
						depth++
					}
				case "}":
					if !containerClose[i] {
						depth = max(depth-1, 0)
					}
				}
			}
			continue
		}
		if depth != 0 || t.Kind != checkers.TokIdent || !lx.Is(i+1, "(") || notFuncNames[lx.Text(i)] {
			continue
		}
		cl := lx.Close(i + 1)
		if cl < 0 {
			continue
		}
		j := cl + 1
		for j < n && lx.Kind(j) == checkers.TokIdent && !lx.Is(j+1, "(") {
			j++ // const, noexcept, override
		}
		if !lx.Is(j, "{") {
			continue
		}
		end := lx.Close(j)
		if end < 0 {
			continue
		}
		out = append(out, funcDef{name: lx.Text(i), nameTok: i, startTok: declStart(lx, i), open: j, closeTok: end})
		i = end
	}
	return out
}

// containerOpen reports whether the "{" at token i opens a namespace or an
// extern "C" block, whose contents are at file level.
func containerOpen(lx *checkers.Lexed, i int) bool {
	if lx.Kind(i-1) == checkers.TokString && lx.Is(i-2, "extern") {
		return true
	}
	j := i - 1
	for j >= 0 && (lx.Kind(j) == checkers.TokIdent && !lx.Is(j, "namespace") || lx.Is(j, "::")) {
		j--
	}
	return lx.Is(j, "namespace")
}

// declStart walks back from a function's name over its return type to the
// first token of the declaration.
func declStart(lx *checkers.Lexed, name int) int {
	j := name
	for j > 0 {
		k := j - 1
		if lx.Kind(k) == checkers.TokPreproc {
			break
		}
		if lx.Kind(k) == checkers.TokPunct {
			switch lx.Text(k) {
			case ";", "{", "}":
				return j
			case ")":
				// __attribute__((…)) before the name.
				op := openOf(lx, k)
				if op <= 0 {
					return j
				}
				j = op - 1
				continue
			}
		}
		j = k
	}
	return j
}

// openOf returns the "(" that the ")" at token k closes, or -1.
func openOf(lx *checkers.Lexed, k int) int {
	depth := 0
	for j := k; j >= 0; j-- {
		switch {
		case lx.Is(j, ")"):
			depth++
		case lx.Is(j, "("):
			depth--
			if depth == 0 {
				return j
			}
		}
	}
	return -1
}

// itemDefName returns the name of the function an item defines, or "":
// the identifier before the first top-level parameter list of an item that
// ends with a body.
func itemDefName(lx *checkers.Lexed, it checkers.Item) string {
	if it.TokEnd-it.TokStart < 4 || !lx.Is(it.TokEnd-1, "}") {
		return ""
	}
	for j := it.TokStart; j < it.TokEnd; j++ {
		if lx.Kind(j) != checkers.TokPunct {
			continue
		}
		switch lx.Text(j) {
		case "=", ";", "{":
			return ""
		case "(":
			if j == it.TokStart || lx.Kind(j-1) != checkers.TokIdent || notFuncNames[lx.Text(j-1)] {
				return ""
			}
			return lx.Text(j - 1)
		}
	}
	return ""
}

// funcTree is a function definition and the pass to run the shared
// helpers (FuncScope, Defs) on: the engine's pass when the engine parsed
// the function, a private one over a private tree otherwise (the shared
// helpers memoize by node index, which would collide across trees).
type funcTree struct {
	Fn   syntax.Node
	Pass *checkers.Pass
	// Private is set when the function was parsed here: its findings have
	// no enclosing-function name in the report (the engine looks it up in
	// its own tree).
	Private bool
}

// withFunc calls f with the definition of the function named name in this
// file, parsing it when the engine did not; f is not called when the file
// defines no such function or it does not parse. The tree is only valid
// during f.
func withFunc(p *checkers.Pass, name string, f func(ft funcTree)) {
	d, ok := fileFuncs(p)[name]
	if !ok {
		return
	}
	lx := p.Lex
	at := int(lx.Tokens[d.nameTok].Start)
	if fn := EnclosingFunction(p.Tree.NodeAt(at)); fn.Valid() && fn.Field("body").Start() == int(lx.Tokens[d.open].Start) {
		f(funcTree{Fn: fn, Pass: p})
		return
	}
	parser := syntax.NewParser(p.Tree.Lang())
	defer parser.Close()
	start, end := int(lx.Tokens[d.startTok].Start), int(lx.Tokens[d.closeTok].End)
	tree, err := parser.Parse(p.File.Src, []syntax.Range{{Start: start, End: end}})
	if err != nil {
		return
	}
	fn := EnclosingFunction(tree.NodeAt(at))
	if !fn.Valid() || !fn.Field("body").Valid() {
		return
	}
	item := lx.ItemAt(start)
	var it *checkers.Item
	if item >= 0 {
		it = &lx.Items[item]
	}
	f(funcTree{Fn: fn, Pass: &checkers.Pass{File: p.File, Lex: lx, Tree: tree, Item: it}, Private: true})
}

// funcNameOf returns the function a callback argument names: "h" for h,
// &h, (void *(*)(void *))h; "" for anything else.
func funcNameOf(n syntax.Node) string {
	n = Uncast(n)
	if n.Kind() == "pointer_expression" && n.FirstChild().Text() == "&" {
		n = Uncast(n.Field("argument"))
	}
	if n.Kind() == "qualified_identifier" {
		n = n.Field("name")
	}
	if n.Kind() == "identifier" {
		return n.Text()
	}
	return ""
}

// threadsKey memoizes threadedFile.
type threadsKey struct{}

// threadedFile returns the offset of the first thread creation in the
// file (pthread_create, thrd_create, std::thread …), or -1: a token scan,
// once per file.
func threadedFile(p *checkers.Pass) int {
	return checkers.Memo(p, threadsKey{}, func() int {
		lx := p.Lex
		for i, t := range lx.Tokens {
			if t.Kind != checkers.TokIdent {
				continue
			}
			switch lx.Text(i) {
			case "pthread_create", "thrd_create", "_beginthreadex", "_beginthread", "CreateThread", "g_thread_new", "uv_thread_create":
				if lx.Is(i+1, "(") {
					return int(t.Start)
				}
			case "thread", "jthread":
				if lx.Is(i-1, "::") && lx.Is(i-2, "std") {
					return int(t.Start)
				}
			}
		}
		return -1
	})
}

// fileMentions reports whether identifier word occurs in the file's code.
func fileMentions(lx *checkers.Lexed, words ...string) bool {
	for i, t := range lx.Tokens {
		if t.Kind != checkers.TokIdent {
			continue
		}
		w := lx.Text(i)
		for _, x := range words {
			if w == x {
				return true
			}
		}
	}
	return false
}

// srcLine returns the 1-based line of byte offset off.
func srcLine(p *checkers.Pass, off int) int { return p.File.Lines().Line(off) }

// squash removes white space from an expression's text, for comparing
// arguments ("& s -> lock" and "&s->lock").
func squash(s string) string { return strings.Join(strings.Fields(s), "") }
