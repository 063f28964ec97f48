package c

import (
	"bytes"
	"sort"

	"github.com/jsec/jsec/checkers"
)

// Token queries for the memory family's triage (memory_triage*.go): a
// window on one item's tokens and the small questions triage asks of it.

// memLex wraps a token stream with the small queries triage needs.
type memLex struct {
	lx     *checkers.Lexed
	lo, hi int // the window: the item's tokens (or a function's, narrow)
	size   int // its length in bytes
	idx    int // the item's index
}

// memLexOf returns the window on item it of lx.
func memLexOf(lx *checkers.Lexed, it int) memLex {
	item := &lx.Items[it]
	return memLex{lx: lx, lo: item.TokStart, hi: item.TokEnd, size: item.End - item.Start, idx: it}
}

// memHugeItem is the item size past which triage assumes the state walk
// does not run (memFlowMaxBytes, with room for what an item holds beyond
// its function).
const memHugeItem = 24000

// huge reports whether the function around token tok is too large for
// the state walk (memFlowMaxBytes), so that Check reports none of the
// walk's findings there. An item that holds several functions (a C++
// class body) is measured by the function around tok; when the tokens do
// not show one, the answer is no.
func (m memLex) huge(tok int) bool {
	if m.size <= memHugeItem {
		return false
	}
	bodies := m.bodies()
	i := sort.Search(len(bodies), func(i int) bool { return bodies[i][1] > tok })
	if i == len(bodies) || bodies[i][0] >= tok {
		return false
	}
	open, close := bodies[i][0], bodies[i][1]
	return int(m.lx.Tokens[close].End-m.lx.Tokens[open].Start) > memFlowMaxBytes
}

var memBodiesSlot = checkers.NewMemoSlot()

// bodies returns the function bodies of the whole item, found once.
func (m memLex) bodies() [][2]int {
	full := memLexOf(m.lx, m.idx)
	return checkers.ItemMemo(m.lx, memBodiesSlot, m.idx, full.functionBodies)
}

// narrow returns m with its window cut down to the function around token
// tok (its header and body) when the item holds several functions (a C++
// class body): Check analyses one function at a time, and what the other
// methods do with a member of the same name does not reach it. The item's
// memos stay the whole item's.
func (m memLex) narrow(tok int) memLex {
	bodies := m.bodies()
	if len(bodies) < 2 {
		return m
	}
	i := sort.Search(len(bodies), func(i int) bool { return bodies[i][1] > tok })
	if i == len(bodies) || bodies[i][0] >= tok {
		return m
	}
	open, close := bodies[i][0], bodies[i][1]
	start := open
	for start > m.lo && !m.is(start-1, ";") && !m.is(start-1, "}") && !m.is(start-1, "{") {
		start--
	}
	m.lo, m.hi = start, close+1
	m.size = int(m.lx.Tokens[close].End) - int(m.lx.Tokens[start].Start)
	return m
}

// functionBodies returns the braces of the item's function bodies, in
// order: a "{" after the ")" of a parameter list (and qualifiers).
func (m memLex) functionBodies() [][2]int {
	lx := m.lx
	var out [][2]int
	for j := m.lo; j < m.hi; j++ {
		if !lx.Is(j, "{") {
			continue
		}
		c := lx.Close(j)
		if c < 0 {
			continue
		}
		k := j - 1
		for k > m.lo && (lx.Is(k, "const") || lx.Is(k, "override") || lx.Is(k, "final") || lx.Is(k, "noexcept") || lx.Is(k, "volatile")) {
			k--
		}
		if !lx.Is(k, ")") {
			continue // a class or namespace body, an initializer: look inside
		}
		if o := lx.Open(k); o > m.lo && lx.Kind(o-1) == checkers.TokIdent && !cppControlWords[lx.Text(o-1)] {
			out = append(out, [2]int{j, c})
			j = c
		}
	}
	return out
}

func newMemLex(lx *checkers.Lexed, tok int) (memLex, bool) {
	it := lx.ItemOf(tok)
	if it < 0 {
		return memLex{}, false
	}
	return memLexOf(lx, it), true
}

// p1 returns the byte of token i when the token is one byte long and lies
// in the item ("(", ";", "}" …), 0 otherwise: the hot scans switch on it
// instead of comparing each token with several strings.
func (m memLex) p1(i int) byte {
	if i < m.lo || i >= m.hi {
		return 0
	}
	return m.lx.Tokens[i].One
}

func (m memLex) is(i int, s string) bool {
	return i >= m.lo && i < m.hi && m.lx.Is(i, s)
}

func (m memLex) ident(i int) bool {
	return i >= m.lo && i < m.hi && m.lx.Kind(i) == checkers.TokIdent
}

// word returns the bytes of token i (nil outside the item); index maps
// with string(m.word(i)) so that no string is allocated.
func (m memLex) word(i int) []byte {
	if i < m.lo || i >= m.hi {
		return nil
	}
	t := m.lx.Tokens[i]
	return m.lx.Src[t.Start:t.End]
}

// notType reports whether token i of the item is one of memNotType's
// words: memNotTypeWords turns nearly every other name away before the
// map is asked.
func (m memLex) notType(i int) bool {
	return i >= m.lo && i < m.hi && memNotTypeWords.MayHave(m.lx, i) && memNotType[string(m.word(i))]
}

// memNotTypeWords is the WordSet of memNotType.
var memNotTypeWords = checkers.NewWordSet(memKeys(memNotType))

func (m memLex) text(i int) string {
	if i < m.lo || i >= m.hi {
		return ""
	}
	return m.lx.Text(i)
}

// closeOf returns the bracket closing the one at i, within the item.
func (m memLex) closeOf(i int) int {
	j := m.lx.Close(i)
	if j < 0 || j >= m.hi {
		return -1
	}
	return j
}

// pathEnd extends the identifier at i over -> f, . f and [k]; it returns
// the index just past the path.
func (m memLex) pathEnd(i int) int {
	j := i + 1
	for {
		switch {
		case (m.is(j, "->") || m.is(j, ".")) && m.ident(j+1):
			j += 2
		case m.is(j, "[") && m.lx.Kind(j+1) == checkers.TokNumber && m.is(j+2, "]"):
			j += 3
		default:
			return j
		}
	}
}

// samePath reports whether the tokens [a, a+n) equal [b, b+n).
func (m memLex) samePath(a, b, n int) bool {
	toks := m.lx.Tokens
	for k := 0; k < n; k++ {
		i, j := a+k, b+k
		if i >= m.hi || j >= m.hi {
			return false
		}
		// Most calls compare unrelated tokens: length and first byte
		// tell them apart without the source.
		if i >= m.lo && j >= m.lo && (toks[i].End-toks[i].Start != toks[j].End-toks[j].Start || toks[i].First != toks[j].First) {
			return false
		}
		if !bytes.Equal(m.word(i), m.word(j)) {
			return false
		}
	}
	return true
}

// target returns the token range of the lvalue that receives the value
// starting at token i ("p = (char *)malloc(n)" → "p"), or ok=false.
func (m memLex) target(i int) (start, end int, ok bool) {
	j := i - 1
	for m.is(j, ")") { // casts in front of the value
		open := j - 1
		for open > m.lo && !m.is(open, "(") {
			if !m.ident(open) && !m.is(open, "*") && !m.is(open, "::") && !m.is(open, "<") && !m.is(open, ">") {
				return 0, 0, false
			}
			open--
		}
		j = open - 1
	}
	for m.is(j, "(") { // (p = malloc(n))
		j--
	}
	if !m.is(j, "=") {
		return 0, 0, false
	}
	end = j
	k := j - 1
	for {
		switch {
		case m.is(k, "]"):
			for k > m.lo && !m.is(k, "[") {
				k--
			}
			k--
		case m.ident(k) && (m.is(k-1, "->") || m.is(k-1, ".")):
			k -= 2
		case m.ident(k):
			// *out = malloc(n), but not a declaration's "char **p".
			s := k
			for m.is(s-1, "*") {
				s--
			}
			if s < k && !m.ident(s-1) && !m.is(s-1, ")") && !m.is(s-1, "]") {
				k = s
			}
			return k, end, true
		default:
			return 0, 0, false
		}
	}
}

// nextPath returns the next occurrence after i of the path [ps, pe)
// (alone or as the base of a longer path), or -1.
func (m memLex) nextPath(i, ps, pe int) int {
	n := pe - ps
	for j := i; j < m.hi; j++ {
		if (m.lx.Kind(j) == checkers.TokIdent || m.is(ps, "*")) && m.samePath(j, ps, n) && !m.is(j-1, "->") && !m.is(j-1, ".") && !m.tagName(j) {
			return j
		}
	}
	return -1
}

// checkedUse reports whether the occurrence of a path at [i, e) is a
// NULL test that the state walk turns into a check: !p, p == NULL,
// NULL != p or p alone, as the condition of an if or while, an operand of
// && || ?:, or the argument of an assertion.
func (m memLex) checkedUse(i, e int) bool {
	nullish := func(k int) bool {
		return m.is(k, "NULL") || m.is(k, "nullptr") || m.is(k, "0") || m.is(k, "MAP_FAILED")
	}
	s := i
	switch {
	case m.is(i-1, "!"):
		s = i - 1
	case (m.is(e, "==") || m.is(e, "!=")) && nullish(e+1):
		e += 2
	case (m.is(i-1, "==") || m.is(i-1, "!=")) && nullish(i-2):
		s = i - 2
	case m.is(e, "==") || m.is(e, "!=") || m.is(i-1, "==") || m.is(i-1, "!="):
		return false // p == q checks only one branch
	}
	for m.is(s-1, "(") && m.is(e, ")") && m.closeOf(s-1) == e {
		f := m.text(s - 2)
		if f == "if" || f == "while" || memAssertions[f] || memRefutations[f] {
			return true
		}
		if m.ident(s-2) || m.is(s-2, ")") {
			return false // an argument of a call
		}
		s, e = s-1, e+1
	}
	return m.is(s-1, "&&") || m.is(s-1, "||") || m.is(e, "&&") || m.is(e, "||") || m.is(e, "?")
}

// derefUse reports whether [i, e) is dereferenced or handed to a call
// there: p->f, p[i], *p, f(p), p + n.
func (m memLex) derefUse(i, e int) bool {
	if m.is(e, "->") || m.is(e, "[") || m.is(i-1, "*") || m.is(e, "(") || m.is(e, "+") || m.is(e, "-") || m.is(e, ".") {
		return true
	}
	if m.is(e, "==") || m.is(e, "!=") || m.is(e, "?") || m.is(e, "&&") || m.is(e, "||") {
		return false // compared or tested right away: f(strchr(s, c) ? a : b)
	}
	if m.is(i-1, "(") && (m.is(i-2, "if") || m.is(i-2, "while")) {
		// if (strchr(s, c)): tested, no argument of a call.
		return !m.is(e, ")")
	}
	return m.is(i-1, "(") || m.is(i-1, ",")
}

// memNotType are keywords that precede an expression, not a declarator.
var memNotType = map[string]bool{
	"return": true, "case": true, "goto": true, "sizeof": true, "else": true, "do": true, "typeof": true,
	"delete": true, "throw": true, "co_return": true,
}

// jumpsOut reports a goto, break or continue in [from, to).
func (m memLex) jumpsOut(from, to int) bool {
	for k := from; k < to; k++ {
		if m.is(k, "goto") || m.is(k, "break") || m.is(k, "continue") {
			return true
		}
	}
	return false
}

// callOf returns the name of the call whose argument list holds token j.
func (m memLex) callOf(j int) string {
	depth := 0
	for i := j - 1; i > m.lo; i-- {
		switch p := m.p1(i); {
		case p == ')' || p == ']':
			depth++
		case p == '[' || p == '(' && depth > 0:
			depth--
		case p == '(':
			return m.text(i - 1)
		case p == ';' || p == '{' || p == '}':
			return ""
		}
	}
	return ""
}

// firstBraceAfter reports whether no "{" precedes tok in the item: the
// declaration is at file scope or in a parameter list, not in a body.
func (m memLex) firstBraceAfter(tok int) bool {
	return m.itemFirstBrace() >= tok
}

// itemFirstBrace returns the item's first "{" (TokEnd when it has none),
// found once per item.
func (m memLex) itemFirstBrace() int {
	return checkers.ItemMemo(m.lx, memFirstBraceSlot, m.idx, func() int {
		for k := m.lo; k < m.hi; k++ {
			if m.p1(k) == '{' {
				return k
			}
		}
		return m.hi
	})
}

var memFirstBraceSlot = checkers.NewMemoSlot()

// forUpdate returns the ")" closing a for header when token k lies in its
// update clause (after the second ";"), else -1.
func (m memLex) forUpdate(k int) int {
	depth, semis := 0, 0
	for j := k - 1; j > m.lo; j-- {
		switch p := m.p1(j); {
		case p == ')' || p == ']':
			depth++
		case p == '[' || p == '(' && depth > 0:
			depth--
		case p == '(':
			if semis == 2 && m.is(j-1, "for") {
				return m.closeOf(j)
			}
			return -1
		case depth == 0 && p == ';':
			if semis++; semis > 2 {
				return -1 // a for header holds two
			}
		case p == '{' || p == '}':
			return -1
		}
	}
	return -1
}

// mention returns the next mention of the variable name from token i
// (not a member name, not inside sizeof), or -1.
func (m memLex) mention(i int, name string) int { return m.mentionBefore(i, m.hi, name) }

// mentionBefore is mention that looks no further than token limit
// (exclusive): -1 when the first mention from i on is at or past it.
func (m memLex) mentionBefore(i, limit int, name string) int {
	end := min(limit, m.hi)
	for k := m.lx.Find(max(i, m.lo), end, name); k >= 0; k = m.lx.Find(k+1, end, name) {
		if !m.ident(k) || m.is(k-1, "->") || m.is(k-1, ".") || m.noVariable(k) {
			continue
		}
		if m.is(k-1, "(") && m.is(k-2, "sizeof") || m.is(k-1, "sizeof") {
			continue
		}
		return k
	}
	return -1
}

// enclosingBlock returns the braces of the innermost block around token
// k (a for statement's parentheses count as part of its block).
func (m memLex) enclosingBlock(k int) (open, close int) {
	for j := k - 1; j >= m.lo; j-- {
		switch m.p1(j) {
		case '}':
			if o := m.lx.Open(j); o >= m.lo {
				j = o // a closed block before k: skip it
			}
		case '{':
			c := m.closeOf(j)
			if c >= 0 && c < k {
				continue // unreachable with balanced braces; keep looking outwards
			}
			if c < 0 {
				c = m.hi
			}
			return j, c
		}
	}
	return m.lo, m.hi
}

// preprocBalanced reports whether every conditional directive between
// tokens from and to is closed before to: the code at to is compiled
// whenever the code at from is.
func (m memLex) preprocBalanced(from, to int) bool {
	depth := 0
	for j := from; j < to; j++ {
		if m.lx.Kind(j) != checkers.TokPreproc {
			continue
		}
		d, _ := directiveWord(m.lx.Src[m.lx.Tokens[j].Start:m.lx.Tokens[j].End])
		switch d {
		case "if", "ifdef", "ifndef":
			depth++
		case "endif":
			depth--
		case "else", "elif", "elifdef", "elifndef":
			if depth == 0 {
				return false
			}
		}
		if depth < 0 {
			return false
		}
	}
	return depth == 0
}

// straightFrom reports whether token k is reached from token from on
// every path: same block depth, and no label, case, goto or directive in
// between.
func (m memLex) straightFrom(from, k int) bool {
	depth := 0
	for j := from; j < k; j++ {
		switch m.p1(j) {
		case '{':
			depth++
		case '}':
			depth--
			if depth < 0 {
				return false
			}
		case 0:
			if c := m.lx.Tokens[j].First; (c == 'c' || c == 'd' || c == 'g') && (m.is(j, "case") || m.is(j, "default") || m.is(j, "goto")) {
				return false
			}
		}
	}
	return depth == 0 && m.preprocBalanced(from, k)
}

// tagName reports whether the name at k is a struct, union or enum tag
// (struct auth *authp), never a variable of that name.
func (m memLex) tagName(k int) bool {
	return m.is(k-1, "struct") || m.is(k-1, "union") || m.is(k-1, "enum")
}

// noVariable reports a mention of a name at token j that is no use of a
// variable to the state walk: a struct, union or enum tag (struct commit
// *commit), or the operand of a "(void)x;" statement, which the walk
// skips (memVoidCast).
func (m memLex) noVariable(j int) bool {
	switch m.p1(j - 1) {
	case 0:
		return m.is(j-1, "struct") || m.is(j-1, "union") || m.is(j-1, "enum")
	case ')':
		return m.is(j-2, "void") && m.is(j-3, "(") && m.is(j+1, ";") && (m.is(j-4, ";") || m.is(j-4, "{") || m.is(j-4, "}"))
	}
	return false
}

// addrOf reports whether the "&" at token j takes an address: nothing
// that ends an operand precedes it (a & x reads x), or a cast to a pointer
// type does ("(char *)&x"). A name before it (even return) counts as an
// operand: the answer is then "no", the safe side for every walk.
func (m memLex) addrOf(j int) bool {
	if !m.is(j, "&") {
		return false
	}
	switch m.lx.Kind(j - 1) {
	case checkers.TokIdent, checkers.TokNumber, checkers.TokString, checkers.TokChar:
		return false
	}
	if m.is(j-1, ")") {
		return m.ptrCastEnd(j - 1)
	}
	return !m.is(j-1, "]") && !m.is(j-1, "++") && !m.is(j-1, "--")
}

// addrTaken is addrOf as the state walk reads it: it also takes
// (NAME)&x for an address, a cast to a type the parser could not know
// (flowAnalysis.binary), where a bitwise and of a parenthesised name would
// be spelled the same.
func (m memLex) addrTaken(j int) bool {
	return m.addrOf(j) || m.is(j, "&") && m.is(j-1, ")") && m.ident(j-2) && m.is(j-3, "(")
}

// ptrCastEnd reports a cast to a pointer type whose ")" is token c:
// "(char *)", "(struct sockaddr **)". No expression ends in "*", so the
// "&" after it takes an address rather than a bitwise and.
func (m memLex) ptrCastEnd(c int) bool {
	return m.is(c, ")") && m.is(c-1, "*") && m.lx.Open(c) >= m.lo
}
