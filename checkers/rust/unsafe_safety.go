package rust

import (
	"sort"
	"strings"

	"github.com/jsec/jsec/checkers"
	"github.com/jsec/jsec/checkers/syntax"
)

// SAFETY comments, doc sections and function contracts, as the unsafe,
// memory and ffi families weigh them.

// safetyDocumented reports whether a SAFETY comment documents the unsafe
// code at n: HasSafetyComment, or a SAFETY line anywhere in the run of
// comments above n, its statement or its unsafe block (a long
// justification starts more than three lines up), or a comment that opens
// the unsafe block.
func safetyDocumented(p *checkers.Pass, n syntax.Node) bool {
	if HasSafetyComment(p, n) {
		return true
	}
	anchors := []int{n.Start()}
	if st := statementOf(n); st.Valid() {
		anchors = append(anchors, st.Start())
	}
	if tok := p.Lex.TokenAt(n.Start()); tok >= 0 {
		anchors = append(anchors, tokenStatementStart(p.Lex, tok))
	}
	u := n
	if u.Kind() != "unsafe_block" {
		u = UnsafeContext(n)
	}
	if u.Valid() {
		anchors = append(anchors, u.Start())
		if st := statementOf(u); st.Valid() {
			anchors = append(anchors, st.Start())
		}
		if u.Kind() == "unsafe_block" {
			if blk := u.NamedChild(0); blk.Valid() {
				first := blk.End()
				if c := blk.NamedChild(0); c.Valid() {
					first = c.Start()
				}
				for _, c := range commentsIn(p, blk.Start(), first) {
					if isSafetyText(c) {
						return true
					}
				}
			}
		}
	}
	for _, off := range anchors {
		for _, c := range commentRunBefore(p, off) {
			if isSafetyText(c) {
				return true
			}
		}
	}
	return false
}

// tokenStatementStart returns the offset of the first token after the ;,
// { or } that precedes token tok: where its statement starts, as far as
// tokens tell.
func tokenStatementStart(lx *checkers.Lexed, tok int) int {
	i := tok
	for i > 0 && !lx.Is(i-1, ";") && !lx.Is(i-1, "{") && !lx.Is(i-1, "}") {
		i--
	}
	return int(lx.Tokens[i].Start)
}

// safetyBeforeTokens reports whether a SAFETY comment precedes the unsafe
// keyword at tok or its statement (token view), or opens its block: the
// same anchors safetyDocumented uses, so a Triage that trusts it never
// drops a finding.
func safetyBeforeTokens(p *checkers.Lexed, tok int) bool {
	for _, off := range []int{int(p.Tokens[tok].Start), tokenStatementStart(p, tok)} {
		cs := p.Comments
		i := sort.Search(len(cs), func(i int) bool { return cs[i].End > off }) - 1
		for next := off; i >= 0; i-- {
			if !onlyAttrsBetween(p, cs[i].End, next) {
				break
			}
			if isSafetyText(string(p.Src[cs[i].Start:cs[i].End])) {
				return true
			}
			next = cs[i].Start
		}
	}
	return false
}

func isSafetyText(c string) bool {
	if strings.Contains(c, "SAFETY") {
		return true
	}
	l := strings.ToLower(c)
	return strings.Contains(l, "safety:") || strings.Contains(l, "# safety") || strings.Contains(l, "safety：")
}

// commentsIn returns the comments that lie within bytes [from, to).
func commentsIn(p *checkers.Pass, from, to int) []string {
	cs := p.Lex.Comments
	i := sort.Search(len(cs), func(i int) bool { return cs[i].Start >= from })
	var out []string
	for ; i < len(cs) && cs[i].End <= to; i++ {
		out = append(out, string(p.Lex.Src[cs[i].Start:cs[i].End]))
	}
	return out
}

// commentRunBefore returns the run of comments above off, each separated
// from the next by nothing but white space and #[...] attributes; nearest
// last.
func commentRunBefore(p *checkers.Pass, off int) []string {
	cs := p.Lex.Comments
	i := sort.Search(len(cs), func(i int) bool { return cs[i].End > off }) - 1
	var out []string
	next := off
	for ; i >= 0 && len(out) < 60; i-- {
		c := cs[i]
		if !onlyAttrsBetween(p.Lex, c.End, next) {
			break
		}
		out = append([]string{string(p.Lex.Src[c.Start:c.End])}, out...)
		next = c.Start
	}
	return out
}

// onlyAttrsBetween reports whether the tokens in bytes [from, to) are all
// #[...] attributes.
func onlyAttrsBetween(lx *checkers.Lexed, from, to int) bool {
	a, b := tokRange(lx, from, to)
	for k := a; k < b; {
		if !lx.Is(k, "#") || !lx.Is(k+1, "[") {
			return false
		}
		end := lx.Close(k + 1)
		if end < 0 {
			return false
		}
		k = end + 1
	}
	return true
}

// isExported reports whether fn is a #[no_mangle]/#[export_name] extern
// function: C code calls it directly, so the ffi family owns its
// parameters.
func isExported(fn syntax.Node) bool {
	if !externABI(fn) {
		return false
	}
	for sib := fn.PrevSibling(); sib.Valid(); sib = sib.PrevSibling() {
		switch sib.Kind() {
		case "attribute_item":
			t := sib.Text()
			if strings.Contains(t, "no_mangle") || strings.Contains(t, "export_name") {
				return true
			}
		case "line_comment", "block_comment":
		default:
			return false
		}
	}
	return false
}

// externABI reports whether fn is defined with a foreign ABI that cannot
// unwind (extern "C", extern "system", bare extern).
func externABI(fn syntax.Node) bool {
	for c := range fn.Children() {
		if c.Kind() != "function_modifiers" {
			continue
		}
		for m := range c.Children() {
			if m.Kind() != "extern_modifier" {
				continue
			}
			abi := "C"
			for x := range m.Descendants() {
				if x.Kind() == "string_content" {
					abi = x.Text()
				}
			}
			return abi != "Rust" && !strings.HasSuffix(abi, "-unwind") && abi != "rust-call"
		}
	}
	return false
}

// unsafeFnDocumented reports whether fn is an unsafe fn: the caller takes
// on its contract. doc reports whether a "# Safety" section states it.
func unsafeFnContract(p *checkers.Pass, fn syntax.Node) (unsafeFn, doc bool) {
	if !fn.Valid() || !HasModifier(fn, "unsafe") {
		return false, false
	}
	return true, safetyHeading(docComments(p, fn))
}

// paramContract reports whether an unsafe fn's contract covers the risk
// in names: when one of them is a parameter of an unsafe fn, its callers
// must uphold the validity (stated or not: an undocumented pub unsafe fn
// is rust.unsafe.fn-no-safety-doc's finding). Extern fns that C calls
// with pointers it owns get adjust < 0.
func paramContract(p *checkers.Pass, s *memScope, names []string) (silent bool, adjust float64) {
	if !anyParam(s, names) {
		return false, 0
	}
	if isUnsafe, _ := unsafeFnContract(p, s.fn); isUnsafe {
		return true, 0
	}
	if externABI(s.fn) && !isExported(s.fn) {
		return false, -0.1 // a callback: the C library's contract usually promises valid pointers
	}
	return false, 0
}

// fnName returns a function item's name.
func fnName(fn syntax.Node) string { return fn.Field("name").Text() }

var (
	safetyHeadingRE = checkers.LazyRegexp(`(?im)(^|[\s"/*!]|\\n)#{1,6}[ \t]*safety\b`)
	safetyWordsRE   = checkers.LazyRegexp(`(?i)\bsafety\b|undefined behaviou?r|\bcaller must\b|\bmust (ensure|be valid|guarantee|point)\b`)
)

// docComments returns the doc comments (/// and /** */) and #[doc]
// attributes above an item, in order.
func docComments(p *checkers.Pass, item syntax.Node) []string {
	var out []string
	for sib := item.PrevSibling(); sib.Kind() == "attribute_item"; sib = sib.PrevSibling() {
		if t := sib.Text(); strings.Contains(t, "doc") {
			out = append(out, t)
		}
	}
	for _, c := range commentRunBefore(p, item.Start()) {
		if (strings.HasPrefix(c, "///") && !strings.HasPrefix(c, "////")) || (strings.HasPrefix(c, "/**") && !strings.HasPrefix(c, "/***")) {
			out = append(out, c)
		}
	}
	return out
}

// safetyHeading reports whether docs hold a "# Safety" heading, or come
// from a file (#[doc = include_str!(…)]) that jsec cannot see.
func safetyHeading(docs []string) bool {
	for _, d := range docs {
		if safetyHeadingRE().MatchString(d) || strings.Contains(d, "include_str") {
			return true
		}
	}
	return false
}
