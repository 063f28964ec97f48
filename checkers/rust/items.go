package rust

import (
	"strings"

	"github.com/jsec/jsec/checkers"
)

// buildItems splits the tokens into items (fn, impl, struct, trait, use,
// const …). Inline modules are containers: their items are items of their
// own, and a module marked #[cfg(test)] (or named tests) makes them test
// code, as does a #[test]/#[cfg(test)] attribute on the item itself.
func buildItems(lx *checkers.Lexed) {
	b := &builder{lx: lx}
	b.closes = b.matchBraces()
	b.run()
}

type builder struct {
	lx     *checkers.Lexed
	closes []int32
}

func (b *builder) punct(i int, c byte) bool {
	t := b.lx.Tokens[i]
	return t.Kind == checkers.TokPunct && t.End-t.Start == 1 && b.lx.Src[t.Start] == c
}

func (b *builder) matchBraces() []int32 {
	toks := b.lx.Tokens
	closes := make([]int32, len(toks))
	var stack []int32
	for i := range toks {
		closes[i] = -1
		if b.punct(i, '{') {
			stack = append(stack, int32(i))
		} else if b.punct(i, '}') && len(stack) > 0 {
			closes[stack[len(stack)-1]] = int32(i)
			stack = stack[:len(stack)-1]
		}
	}
	return closes
}

type open struct {
	index, close int
	test         bool
}

func (b *builder) run() {
	toks := b.lx.Tokens
	n := len(toks)
	var stack []open
	for i := 0; i < n; {
		limit, inTest := n, false
		if len(stack) > 0 {
			top := stack[len(stack)-1]
			if i >= top.close {
				b.lx.Containers[top.index].Span.End = int(toks[top.close].End)
				stack = stack[:len(stack)-1]
				i = top.close + 1
				continue
			}
			limit, inTest = top.close, top.test
		}
		if b.punct(i, ';') || b.punct(i, '}') {
			i++
			continue
		}
		if b.punct(i, '#') && i+1 < limit && b.punct(i+1, '!') {
			// Inner attribute #![...]: not an item.
			if i+2 < limit && b.punct(i+2, '[') {
				if end := b.lx.Close(i + 2); end > 0 && end < limit {
					i = end + 1
					continue
				}
			}
			i++
			continue
		}
		attrs, test := b.attributes(i, limit)
		if brace, name := b.moduleHeader(attrs, limit); brace >= 0 {
			parent := -1
			if len(stack) > 0 {
				parent = stack[len(stack)-1].index
			}
			t := inTest || test || name == "tests" || name == "test"
			b.lx.Containers = append(b.lx.Containers, checkers.Container{
				Kind: "mod", Name: name, Parent: parent, Test: t,
				Span: checkers.Span{Start: int(toks[i].Start), End: int(toks[n-1].End)},
			})
			cl := int(b.closes[brace])
			if cl < 0 || cl > limit {
				cl = limit
			}
			stack = append(stack, open{len(b.lx.Containers) - 1, cl, t})
			i = brace + 1
			continue
		}
		end := b.scanItem(attrs, limit)
		c := -1
		if len(stack) > 0 {
			c = stack[len(stack)-1].index
		}
		b.lx.Items = append(b.lx.Items, checkers.Item{
			Start: int(toks[i].Start), End: int(toks[end-1].End),
			TokStart: i, TokEnd: end, Container: c, Test: inTest || test,
		})
		i = end
	}
}

// attributes skips the outer attributes #[...] at i and returns the index
// of the first token after them and whether one marks test code.
func (b *builder) attributes(i, limit int) (int, bool) {
	test := false
	for i+1 < limit && b.punct(i, '#') && b.punct(i+1, '[') {
		end := b.lx.Close(i + 1)
		if end < 0 || end >= limit {
			return i, test
		}
		text := strings.Join(strings.Fields(string(b.lx.Src[b.lx.Tokens[i].Start:b.lx.Tokens[end].End])), "")
		if text == "#[test]" || strings.HasPrefix(text, "#[cfg(test") || strings.HasSuffix(text, "::test]") ||
			strings.HasPrefix(text, "#[bench]") || strings.Contains(text, "::test(") {
			test = true
		}
		i = end + 1
	}
	return i, test
}

// moduleHeader recognises "[pub[(…)]] mod name {" at i and returns the
// index of "{" and the name.
func (b *builder) moduleHeader(i, limit int) (int, string) {
	toks := b.lx.Tokens
	if i < limit && b.lx.Text(i) == "pub" {
		i++
		if i < limit && b.punct(i, '(') {
			if end := b.lx.Close(i); end > 0 {
				i = end + 1
			}
		}
	}
	if i+2 < limit && b.lx.Text(i) == "mod" && toks[i+1].Kind == checkers.TokIdent && b.punct(i+2, '{') {
		return i + 2, b.lx.Text(i + 1)
	}
	return -1, ""
}

// scanItem returns the index just past the item whose first token after
// its attributes is i.
func (b *builder) scanItem(i, limit int) int {
	toks := b.lx.Tokens
	depth := 0
	// angle counts open generic brackets in the header, where "=" binds an
	// associated type (Iterator<Item = T>) rather than starting an
	// initializer.
	angle := 0
	sawEq := false
	for j := i; j < limit; j++ {
		t := toks[j]
		if t.Kind != checkers.TokPunct {
			continue
		}
		if t.End-t.Start != 1 {
			if !sawEq && depth == 0 && b.lx.Is(j, ">>") {
				angle = max(0, angle-2)
			}
			continue
		}
		switch b.lx.Src[t.Start] {
		case '<':
			if !sawEq && depth == 0 {
				angle++
			}
		case '>':
			if !sawEq && depth == 0 && angle > 0 {
				angle--
			}
		case '(', '[':
			depth++
		case ')', ']':
			if depth > 0 {
				depth--
			}
		case '=':
			if depth == 0 && angle == 0 {
				sawEq = true
			}
		case ';':
			if depth == 0 {
				return j + 1
			}
		case '}':
			if j == i {
				return j + 1
			}
			return j
		case '{':
			cl := int(b.closes[j])
			if cl < 0 || cl >= limit {
				return limit
			}
			if depth > 0 || sawEq {
				j = cl
				continue
			}
			return cl + 1
		}
	}
	return limit
}
