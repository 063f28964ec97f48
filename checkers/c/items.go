package c

import (
	"github.com/jsec/jsec/checkers"
)

// buildItems splits the token stream into top-level items: function
// definitions, declarations (up to their ';'), and classes, structs and
// initialisers with their braces. Namespaces and extern "C" blocks are
// containers: their contents become items of their own, so that a hit in
// one function of a large namespace parses that function only.
//
// pairs are the braces the lexer paired (braceMatcher): open and close
// token indices, in the order they closed.
func buildItems(lx *checkers.Lexed, cpp bool, pairs []int32) {
	b := itemBuilder{lx: lx, cpp: cpp}
	buf, _ := closesPool.Get()
	b.closes = closesOf(buf, len(lx.Tokens), pairs)
	b.run()
	closesPool.Put(b.closes[:0])
}

// closesOf returns the closes table of n tokens from the brace pairs (a
// later pair of the same "{" wins, as in braceMatcher's walk), in buf
// when it has room.
func closesOf(buf []int32, n int, pairs []int32) []int32 {
	closes := buf[:0]
	if cap(closes) < n {
		closes = make([]int32, n, checkers.Headroom(n))
	}
	closes = closes[:n]
	clear(closes)
	for k := 0; k+1 < len(pairs); k += 2 {
		closes[pairs[k]] = pairs[k+1] + 1
	}
	return closes
}

// closesPool recycles the closes table, which lives only while the items
// are built.
var closesPool checkers.FreeList[[]int32]

type itemBuilder struct {
	lx  *checkers.Lexed
	cpp bool
	// closes holds, for each "{" token, 1 + the index of its "}" (0
	// when it has none).
	closes []int32
}

// closeOf returns the "}" of the "{" at i, or -1.
func (b *itemBuilder) closeOf(i int) int { return int(b.closes[i]) - 1 }

func (b *itemBuilder) text(i int) string { return b.lx.Text(i) }

func (b *itemBuilder) isPunct(i int, c byte) bool {
	t := &b.lx.Tokens[i]
	return t.Kind == checkers.TokPunct && t.One == c
}

// structural reports whether token i counts for item structure: braces in
// #else branches do not.
func (b *itemBuilder) structural(i int) bool {
	return b.lx.Tokens[i].Flags&checkers.FlagAltBranch == 0
}

type openContainer struct {
	index int // into lx.Containers
	close int // token index of its "}"
}

func (b *itemBuilder) run() {
	toks := b.lx.Tokens
	n := len(toks)
	var stack []openContainer
	for i := 0; i < n; {
		limit := n
		if len(stack) > 0 {
			top := stack[len(stack)-1]
			if i >= top.close {
				b.lx.Containers[top.index].Span.End = int(toks[top.close].End)
				stack = stack[:len(stack)-1]
				i = top.close + 1
				continue
			}
			limit = top.close
		}
		t := toks[i]
		if t.Kind == checkers.TokPreproc || b.isPunct(i, ';') || b.isPunct(i, '}') {
			i++
			continue
		}
		if open, kind, name := b.containerHeader(i, limit); open >= 0 {
			parent := -1
			if len(stack) > 0 {
				parent = stack[len(stack)-1].index
			}
			b.lx.Containers = append(b.lx.Containers, checkers.Container{
				Kind: kind, Name: name, Parent: parent,
				Span: checkers.Span{Start: int(t.Start), End: int(toks[n-1].End)},
			})
			cl := b.closeOf(open)
			if cl < 0 || cl > limit {
				cl = limit
			}
			stack = append(stack, openContainer{len(b.lx.Containers) - 1, cl})
			i = open + 1
			continue
		}
		end := b.scanItem(i, limit)
		b.emit(i, end, stack)
		i = end
	}
}

func (b *itemBuilder) emit(start, end int, stack []openContainer) {
	toks := b.lx.Tokens
	// Trailing directives are not part of the item.
	for end > start && toks[end-1].Kind == checkers.TokPreproc {
		end--
	}
	if end <= start {
		return
	}
	c := -1
	if len(stack) > 0 {
		c = stack[len(stack)-1].index
	}
	b.lx.Items = append(b.lx.Items, checkers.Item{
		Start: int(toks[start].Start), End: int(toks[end-1].End),
		TokStart: start, TokEnd: end, Container: c,
	})
}

// containerHeader recognises "namespace [name] {" and `extern "C" {` at
// token i and returns the index of the "{", the kind and the name.
func (b *itemBuilder) containerHeader(i, limit int) (open int, kind, name string) {
	toks := b.lx.Tokens
	switch b.text(i) {
	case "namespace":
		if !b.cpp {
			return -1, "", ""
		}
		j := i + 1
		for j < limit && (toks[j].Kind == checkers.TokIdent || b.lx.Is(j, "::")) {
			name += b.text(j)
			j++
		}
		if j < limit && b.isPunct(j, '{') {
			return j, "namespace", name
		}
	case "extern":
		if i+2 < limit && toks[i+1].Kind == checkers.TokString && b.isPunct(i+2, '{') {
			return i + 2, "extern", b.text(i + 1)
		}
	}
	return -1, "", ""
}

// attributeParen reports whether the "(" at j opens the arguments of an
// attribute (__attribute__((packed)), alignas(8), __declspec(x)) rather
// than a parameter list.
func (b *itemBuilder) attributeParen(j int) bool {
	if j == 0 {
		return false
	}
	switch b.text(j - 1) {
	case "__attribute__", "__attribute", "__declspec", "alignas", "_Alignas", "__aligned", "DECLSPEC_ALIGN":
		return true
	}
	return false
}

// scanItem returns the index just past the item that starts at token i.
func (b *itemBuilder) scanItem(i, limit int) int {
	toks := b.lx.Tokens
	depth := 0
	// aggregate: a struct/union/enum/class keyword was seen at depth 0 and
	// no parameter list followed it, so "{" opens a body that needs ";".
	// "struct conn *lookup(int fd) {" is a function, not a struct.
	sawEq, aggregate := false, false
	for j := i; j < limit; j++ {
		t := toks[j]
		switch t.Kind {
		case checkers.TokPreproc:
			continue
		case checkers.TokIdent:
			if depth == 0 && !sawEq {
				switch b.text(j) {
				case "struct", "union", "enum", "class", "typedef":
					aggregate = true
				}
			}
			continue
		case checkers.TokPunct:
		default:
			continue
		}
		if t.End-t.Start != 1 {
			continue
		}
		if !b.structural(j) && (b.isPunct(j, '}') || b.isPunct(j, '{') && b.closeOf(j) < 0) {
			continue // an #else branch's brace that the first branch balances
		}
		switch b.lx.Src[t.Start] {
		case '(':
			if depth == 0 && aggregate && !sawEq && !b.attributeParen(j) {
				aggregate = false
			}
			depth++
		case '[':
			depth++
		case ')', ']':
			if depth > 0 {
				depth--
			}
		case '=':
			if depth == 0 {
				sawEq = true
			}
		case ';':
			if depth == 0 {
				return j + 1
			}
		case '}':
			// A closer that is not ours: the item ends before it.
			if j == i {
				return j + 1
			}
			return j
		case '{':
			cl := b.closeOf(j)
			if cl < 0 || cl >= limit {
				return limit
			}
			if depth > 0 || sawEq || aggregate {
				j = cl // an initializer, a struct body, a lambda: go on to ';'
				continue
			}
			// A function body. A function-try-block goes on with "catch".
			if b.cpp && cl+1 < limit && b.text(cl+1) == "catch" {
				j = cl
				continue
			}
			return cl + 1
		}
	}
	return limit
}
