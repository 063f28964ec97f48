package c

import (
	"slices"

	"github.com/jsec/jsec/checkers"
)

// Triage of NULL tests (if) and NULL stores for c.null.deref.

// memTriageNull keeps an if that tests a pointer for NULL and
// dereferences it where it is NULL (in the NULL branch, a later operand
// of the condition, or after the if when only the NULL path continues),
// or dereferenced it before the test; and a NULL stored into a pointer
// that is dereferenced later.
func memTriageNull(lx *checkers.Lexed, tok int) bool {
	m, ok := newMemLex(lx, tok)
	if !ok || m.huge(tok) || m.firstBraceAfter(tok) {
		return false
	}
	if lx.Text(tok) != "if" {
		ps, pe, ok := m.target(tok)
		if !(m.is(tok+1, ";") || m.is(tok+1, ",") || m.is(tok+1, ")")) { // p = NULL; or (p = NULL)
			return false
		}
		if !ok {
			return m.is(tok-1, "=") && m.opaqueStoreMayReach(tok)
		}
		return m.storeMayReach(tok, m.storeThrough(ps), pe)
	}
	if !m.is(tok+1, "(") {
		return false
	}
	c := m.closeOf(tok + 1)
	if c < 0 {
		return true
	}
	found := false
	check := func(from, to int, nulls []memPath) {
		for _, p := range nulls {
			if !found && m.derefIn(p.at, p.end, from, to, true) {
				found = true
			}
		}
	}
	var plain []int
	f := m.condNull(tok+2, c, nil, memCondVisit{operand: check, plain: func(t int) { plain = append(plain, t) }})
	for _, v := range plain {
		if m.untestedDerefBefore(v, tok) {
			return true // a local dereferenced before the test
		}
	}
	if found || len(f.nullT) == 0 && len(f.nullF) == 0 {
		return found
	}
	thenEnd := m.stmtEnd(c + 1)
	check(c+1, thenEnd, f.nullT)
	if m.is(thenEnd, "else") {
		check(thenEnd+1, m.stmtEnd(thenEnd+1), f.nullF)
	}
	return found
}

// opaqueStoreMayReach decides a NULL store "lvalue = NULL" at tok into an
// lvalue target cannot follow ((*pp)->next = NULL, a[i].p = NULL), which
// the state walk may track: it may see the NULL when the same lvalue is
// dereferenced later in the store's block (or, in a loop, before it),
// before a straight rewrite of it. The lvalue is the statement's text up
// to the "=", after any statement keyword's condition, else, do or label
// in front of it; an lvalue it cannot delimit is kept.
func (m memLex) opaqueStoreMayReach(tok int) bool {
	if b := m.itemFirstBrace(); m.is(b-1, "=") {
		return false // a file-scope initializer ({ .f = NULL, … }): Check looks only in functions
	}
	eq := tok - 1
	s := m.lvalueStart(eq)
	for s < eq {
		switch {
		case m.is(s, "if") || m.is(s, "while") || m.is(s, "for") || m.is(s, "switch"):
			c := m.closeOf(s + 1)
			if !m.is(s+1, "(") || c < 0 || c >= eq {
				return true
			}
			s = c + 1
			continue
		case m.is(s, "else") || m.is(s, "do"):
			s++
			continue
		case m.is(s, "case") || m.is(s, "default") || m.ident(s) && m.is(s+1, ":") && !m.is(s+2, ":"):
			for s < eq && !m.is(s, ":") {
				s++
			}
			s++
			continue
		}
		break
	}
	if s >= eq {
		return true
	}
	depth := 0
	for k := s; k < eq; k++ {
		switch {
		case m.lx.Kind(k) == checkers.TokPreproc:
			return true
		case m.is(k, "(") || m.is(k, "["):
			depth++
			if m.is(k, "(") && m.is(k+1, "*") && m.ident(k+2) && m.is(k+3, ")") && m.is(k+4, "(") {
				// int (*cb)(void *) = NULL: a function pointer named cb.
				return m.nameStoreMayReach(tok, k+2)
			}
		case m.is(k, ")") || m.is(k, "]"):
			depth--
		case depth == 0 && (m.is(k, "=") || m.is(k, ",") || m.is(k, "?")):
			return true // not one lvalue
		}
	}
	open, close := m.enclosingBlock(tok)
	return m.loopMayReach(open, tok, s, eq-s) || m.derefBeforeWrite(tok+1, m.stmtEnd(tok), close, s, eq-s)
}

// storeMayReach decides the NULL store at tok into the path [ps, pe).
func (m memLex) storeMayReach(tok, ps, pe int) bool {
	// Dereferences after an unconditional reassignment in the same
	// block cannot see the NULL.
	// Check reports only in the store's block.
	open, close := m.enclosingBlock(tok)
	if m.loopMayReach(open, tok, ps, pe-ps) {
		return true
	}
	if !m.derefBeforeWrite(tok+1, m.stmtEnd(tok), close, ps, pe-ps) {
		return false
	}
	if m.is(tok+1, ")") && m.derefBeforeWrite(tok+1, m.stmtEnd(tok), m.stmtEnd(tok), ps, pe-ps) {
		return true // (p = NULL) inside an expression that goes on to use p: the walks start after it
	}
	return m.nullMayReach(tok, ps, pe-ps)
}

// nameStoreMayReach is storeMayReach for the store at tok into the
// variable named at token v.
func (m memLex) nameStoreMayReach(tok, v int) bool { return m.storeMayReach(tok, v, v+1) }

// lvalueStart returns the first token of the operand that ends before
// the "=" at eq: after the last ";", "{", "}" or "," outside brackets.
func (m memLex) lvalueStart(eq int) int {
	depth := 0
	for k := eq - 1; k >= m.lo; k-- {
		switch m.p1(k) {
		case ')', ']':
			depth++
		case '(', '[':
			if depth--; depth < 0 {
				return k + 1
			}
		case ';', '{', '}', ',':
			if depth == 0 {
				return k + 1
			}
		}
	}
	return m.lo
}

// storeThrough returns where the stored path starts when the path at ps
// is a name that stars in front of it dereference: "*p = NULL" as the
// body of an if, a loop, an else or a do (if (c) *p = NULL;) stores into
// *p, as at a statement's start, where target takes the stars in. target
// leaves them out after any ")", which may end a macro that names a type
// (STACK_OF(X509) *certs = NULL; declares certs); after the ")" of a
// statement keyword's condition, or after else or do, an assignment's
// "*" can only dereference. Storing into p instead made every later *p
// a dereference of this NULL, which the state walk keys to *p's store.
func (m memLex) storeThrough(ps int) int {
	s := ps
	for m.is(s-1, "*") {
		s--
	}
	if s == ps || m.is(ps+1, "->") || m.is(ps+1, ".") || m.is(ps+1, "[") {
		return ps
	}
	switch {
	case m.is(s-1, "else") || m.is(s-1, "do"):
		return s
	case m.is(s-1, ")"):
		if o := m.lx.Open(s - 1); o > m.lo {
			switch m.text(o - 1) {
			case "if", "while", "for":
				return s
			}
		}
	}
	return ps
}

// nullTestAt reports whether the path [j, pe) is tested for NULL there:
// !p, p == NULL, NULL != p, or p alone as an operand of (, &&, ||.
func (m memLex) nullTestAt(j, pe int) bool {
	nullish := func(i int) bool { return m.is(i, "NULL") || m.is(i, "nullptr") || m.is(i, "0") }
	switch {
	case m.is(j-1, "!"):
		return true
	case (m.is(pe, "==") || m.is(pe, "!=")) && nullish(pe+1):
		return true
	case (m.is(j-1, "==") || m.is(j-1, "!=")) && nullish(j-2):
		return true
	}
	before := m.is(j-1, "(") || m.is(j-1, "&&") || m.is(j-1, "||")
	after := m.is(pe, ")") || m.is(pe, "&&") || m.is(pe, "||") || m.is(pe, "?")
	return before && after
}

// derefIn reports a dereference of the path [j, pe) within [from, to):
// p->f, p[i], *p, or (with calls) p handed to a call that dereferences
// its arguments.
func (m memLex) derefIn(j, pe, from, to int, calls bool) bool {
	n := pe - j
	top := 0 // brace depth of the region's own statements
	if m.is(from, "{") {
		top = 1
	}
	depth := 0
	for k := from; k < to; k++ {
		switch m.p1(k) {
		case '{':
			depth++
		case '}':
			depth--
		}
		if !m.samePath(k, j, n) || m.is(k-1, "->") || m.is(k-1, ".") || k == j {
			continue
		}
		e := k + n
		if depth == top && m.is(e, "=") && (m.is(k-1, ";") || m.is(k-1, "{") || m.is(k-1, "}")) {
			return false // p = …; as a statement of the region: later uses see the new value
		}
		if depth == top && n == 1 && m.macroStatementArg(k) {
			return false // FLEX_ALLOC_MEM(p, …); may assign p, as the state walk lets it
		}
		if (m.is(e, "->") || m.is(e, "[") || m.is(e, "(") || m.unaryStar(k-1) || calls && m.derefArg(k, e)) && !m.inSizeof(k) { // p(…) calls through p
			return true
		}
	}
	return false
}

// unaryStar reports a "*" at i that dereferences (not a multiplication,
// not a declarator).
func (m memLex) unaryStar(i int) bool {
	if !m.is(i, "*") {
		return false
	}
	p := i - 1
	if m.is(p, ",") && m.inDeclaration(p) {
		return false // int *a, *b;
	}
	if m.is(p, ")") {
		// The condition of an if, while, for or switch (if (c) *p = 0)
		// or a cast to a pointer type ((char **)*pp): a statement or an
		// operand starts here.
		o := m.lx.Open(p)
		return o > m.lo && (m.is(o-1, "if") || m.is(o-1, "while") || m.is(o-1, "for") || m.is(o-1, "switch")) || m.ptrCastEnd(p)
	}
	return !m.ident(p) && !m.is(p, "]") && m.lx.Kind(p) != checkers.TokNumber && !m.is(p, "*") || m.is(p, "return") || m.is(p, "else") || m.is(p, "do")
}

// inDeclaration reports whether token i lies in a declaration statement:
// one that starts with a type word, or with "name name" / "name *".
func (m memLex) inDeclaration(i int) bool {
	depth := 0
	for j := i; j >= m.lo; j-- {
		switch p := m.p1(j); p {
		case ')', ']':
			depth++
		case '(', '[':
			if depth == 0 {
				return false // inside a call or a condition
			}
			depth--
		case ';', '{', '}':
			f := j + 1
			for memDeclWords[string(m.word(f))] {
				f++
			}
			return memTypeSet[string(m.word(f))] || m.is(f, "union") || m.ident(f) && (m.ident(f+1) || m.is(f+1, "*"))
		}
	}
	return false
}

// memDeclWords are the qualifiers and storage classes a declaration may
// start with.
var memDeclWords = map[string]bool{"const": true, "static": true, "volatile": true, "register": true, "extern": true}

// untestedDerefBefore reports a dereference of the local at token v
// before token tok that no earlier NULL test of it guards.
func (m memLex) untestedDerefBefore(v, tok int) bool {
	name := m.text(v)
	// Start at the function body (an item may hold more than one
	// function) or after the last assignment of name before the test.
	from := m.outerBrace(tok)
	// One backward pass: the mentions that decide (a test first: a later
	// test is merely redundant; a dereference first: the test comes too
	// late) are collected until the last assignment of name, and the
	// earliest one after that assignment's statement decides. A label
	// lets a goto skip what comes before it (memDominatingDeref counts
	// only dereferences after the last one): the pass stops there too.
	type decision struct {
		at    int
		deref bool
	}
	var seen []decision
	// The pass looks at the mentions of name after the last label
	// before tok, and stops at that label when no assignment stops it
	// first.
	lab := m.lastLabelColon(from, tok)
	lo := max(from, lab) + 1
	stopped := false
	for k := m.lx.FindLast(lo, tok, name); k >= 0; k = m.lx.FindLast(lo, k, name) {
		if m.lx.Kind(k) != checkers.TokIdent || m.is(k-1, "->") || m.is(k-1, ".") {
			continue
		}
		if m.is(k+1, "=") || m.fieldStore(k) {
			// p = p->next reads the old value: start after it. A store
			// into p->f is a definition of p to Defs as well.
			from, stopped = m.stmtEnd(k), true
			break
		}
		if m.nullTestAt(k, k+1) && !m.unaryStar(k-1) {
			seen = append(seen, decision{k, false})
		} else if (m.is(k+1, "->") || m.is(k+1, "[") || m.unaryStar(k-1)) && !m.inSizeof(k) && m.mayDominate(k, tok) {
			seen = append(seen, decision{k, true})
		}
	}
	if !stopped && lab >= 0 {
		from = lab
	}
	for i := len(seen) - 1; i >= 0; i-- {
		if seen[i].at >= from {
			return seen[i].deref
		}
	}
	return false
}

// derefArg reports whether [k, e) is a whole argument of a call to a
// function known to dereference its arguments, or of a call through an
// unknown name when the argument is all there is.
func (m memLex) derefArg(k, e int) bool {
	if !(m.is(k-1, "(") || m.is(k-1, ",")) || !(m.is(e, ")") || m.is(e, ",")) {
		return false
	}
	depth, index := 0, 0
	for i := k - 1; i > m.lo; i-- {
		switch p := m.p1(i); {
		case p == ')' || p == ']':
			depth++
		case p == '[' || p == '(' && depth > 0:
			depth--
		case p == '(':
			return memHasInt(memDerefArgs[string(m.word(i-1))], index)
		case depth == 0 && p == ',':
			index++
		case p == ';' || p == '{' || p == '}':
			return false
		}
	}
	return false
}

// straightWrite returns the first write of the n-token path at ps
// ("path = …") after token i that runs on every path from i (same block,
// nothing in between that jumps in), or limit when there is none before
// it.
func (m memLex) straightWrite(i, ps, n, limit int) int {
	for k := i; k < limit; k++ {
		if m.straightWriteAt(i, k, ps, n) {
			return k
		}
	}
	return m.hi
}

// straightWriteAt reports whether token k starts a write of the n-token
// path at ps ("path = …") that runs on every path from token i. The
// whole path must match: s->r = … writes no part of s->q, and a NULL in
// s->q lives on past it.
func (m memLex) straightWriteAt(i, k, ps, n int) bool {
	if !m.ident(k) || !m.samePath(k, ps, n) || !m.is(k+n, "=") {
		return false
	}
	name := m.text(ps)
	s := k - 1
	if n == 1 && m.is(s, "*") {
		s-- // *p = …: the whole object p points to
	}
	return (m.is(s, ";") || m.is(s, "}")) && m.straightFrom(i, k) && !m.rhsMentions(k+n+1, name)
}

// derefBeforeWrite is derefBetween(from, stop, ps, n) where stop is the
// first straight write of the path's root from token i on
// (straightWrite(i, …, limit)), or limit: in one pass, which ends at the
// first dereference or write instead of finding the write first.
func (m memLex) derefBeforeWrite(from, i, limit, ps, n int) bool {
	name := m.text(ps)
	// A write and a mention of the path both start with name.
	for k := m.lx.Find(from, limit, name); k >= 0; k = m.lx.Find(k+1, limit, name) {
		if k >= i && m.straightWriteAt(i, k, ps, n) {
			return false
		}
		if m.derefAt(k, ps, n) {
			return true
		}
	}
	return false
}

// derefAt reports whether token k starts a mention of the path [ps,
// ps+n) (not the path itself, nor a member of the same name) that
// dereferences or copies it (nullUse).
func (m memLex) derefAt(k, ps, n int) bool {
	return m.samePath(k, ps, n) && k != ps && !m.is(k-1, "->") && !m.is(k-1, ".") && m.nullUse(k, n)
}

// nullUse reports whether the mention of a path at k (n tokens) would
// dereference it, or copy it into a plain variable.
func (m memLex) nullUse(k, n int) bool {
	e := k + n
	if m.is(e, "->") || m.is(e, "[") || m.is(e, "(") || m.unaryStar(k-1) || m.derefArg(k, e) || m.castDeref(k, e) {
		return true // p(…) calls through the pointer
	}
	return m.is(k-1, "=") && m.ident(k-2) && !m.is(k-3, "->") && !m.is(k-3, ".") && (m.is(e, ";") || m.is(e, ","))
}

// castDeref reports a dereference of the mention [k, e) through pointer
// casts and parentheses around it: *((size_t *)m) = n, ((T *)p)->x,
// ((T *)p)[0]. The parentheses of a call, sizeof or a statement
// keyword's condition are no grouping.
func (m memLex) castDeref(k, e int) bool {
	s, t := k, e
	for {
		switch {
		case m.ptrCastEnd(s - 1):
			s = m.lx.Open(s - 1)
			continue
		case m.is(s-1, "(") && m.is(t, ")") && m.groupingAfter(s-2):
			s, t = s-1, t+1
			continue
		}
		break
	}
	return s != k && (m.is(t, "->") || m.is(t, "[") || m.unaryStar(s-1))
}

// groupingAfter reports whether a "(" after token j groups an expression
// rather than opening a call's arguments, sizeof's operand or a
// statement's condition: j is no name (but may be return or else), ")"
// or "]".
func (m memLex) groupingAfter(j int) bool {
	if m.ident(j) {
		return m.is(j, "return") || m.is(j, "else") || m.is(j, "do")
	}
	return !m.is(j, ")") && !m.is(j, "]")
}

// stmtEnd returns the token after the statement starting at i.
func (m memLex) stmtEnd(i int) int {
	switch {
	case m.is(i, "{"):
		if c := m.closeOf(i); c > 0 {
			return c + 1
		}
		return m.hi
	case m.is(i, "if") || m.is(i, "while") || m.is(i, "for") || m.is(i, "switch"):
		if !m.is(i+1, "(") {
			return m.hi
		}
		c := m.closeOf(i + 1)
		if c < 0 {
			return m.hi
		}
		e := m.stmtEnd(c + 1)
		if m.is(i, "if") && m.is(e, "else") {
			e = m.stmtEnd(e + 1)
		}
		return e
	case m.is(i, "do"):
		e := m.stmtEnd(i + 1)
		return m.stmtEnd(e) // while (...);
	}
	for k := i; k < m.hi; k++ {
		switch m.p1(k) {
		case '(', '[', '{':
			if c := m.closeOf(k); c > 0 {
				k = c
			}
		case ';':
			return k + 1
		case '}':
			return k
		}
	}
	return m.hi
}

// simpleNullTest recognises a condition that is one NULL test of one
// path, and says whether its true branch is the NULL one: !p, p == NULL
// (true) or p, p != NULL (false).
func (m memLex) simpleNullTest(from, to int) (nullIsThen, ok bool) {
	nullish := func(i int) bool { return m.is(i, "NULL") || m.is(i, "nullptr") || m.is(i, "0") }
	neg := false
	if m.is(from, "!") {
		neg, from = true, from+1
	}
	if !m.ident(from) {
		return false, false
	}
	pe := m.pathEnd(from)
	switch {
	case pe == to:
		return neg, true
	case neg:
		return false, false
	case pe+2 == to && m.is(pe, "==") && nullish(pe+1):
		return true, true
	case pe+2 == to && m.is(pe, "!=") && nullish(pe+1):
		return false, true
	}
	return false, false
}

// inSizeof reports whether token k is an operand of sizeof.
func (m memLex) inSizeof(k int) bool {
	depth := 0
	for j := k - 1; j > m.lo && k-j < 16; j-- {
		switch p := m.p1(j); {
		case p == ')':
			depth++
		case p == '(':
			if depth == 0 {
				return m.is(j-1, "sizeof")
			}
			depth--
		case p == ';' || p == '{' || p == '}':
			return false
		case p == 0 && m.is(j, "sizeof"):
			return true
		}
	}
	return false
}

// nullMayReach decides whether a dereference may see the NULL stored at
// token tok into the path at ps (n tokens), up to the end of the store's
// block (Check reports NULL dereferences keyed to a store only there).
// The state walk reports one only where the variable is NULL on every
// path and this store's NULL is on one of them, so a dereference must
// pass two walks: one that may still see this store (no write on some
// path), and one where nothing but NULL was stored on every path (memDA's
// must mode).
func (m memLex) nullMayReach(tok, ps, n int) bool {
	_, close := m.enclosingBlock(tok)
	from := m.stmtEnd(tok)
	use := func(k int) bool { return m.samePath(k, ps, n) && m.nullUse(k, n) }
	some := &memDA{m: m, name: m.text(ps), ps: ps, n: n, null: true, collect: true, use: use}
	m.walkAfterStore(some, tok, ps, from, close, true)
	if some.found || len(some.uses) == 0 {
		return some.found
	}
	every := &memDA{m: m, name: m.text(ps), ps: ps, n: n, null: true, must: true, collect: true, use: use}
	m.walkAfterStore(every, tok, ps, from, close, false)
	if every.found {
		return true
	}
	for _, u := range every.uses {
		if slices.Contains(some.uses, u) {
			return true
		}
	}
	return false
}

// loopMayReach decides whether a dereference before the NULL store at
// tok, in the store's block (from its "{" at open), may see the store's
// NULL on a later iteration of a loop around it: the state walk goes
// round loops and reports such a dereference (keyed to this store) where
// every path holds NULL, and the walks of nullMayReach only go forward
// from the store. With no dereference of the path at ps (n tokens)
// before the store in the block, or no loop around it, it may not. With
// the innermost loop's body in braces, every path from the store back
// into the block starts that body again, so the NULL and must walks run
// over the body from its start, entered in the worst state (the NULL may
// be live; NULL on every path), and a dereference before the store that
// both reach may see it. A loop body without braces (the store in it, a
// dereference in its header) is kept.
func (m memLex) loopMayReach(open, tok, ps, n int) bool {
	name := m.text(ps)
	deref := false
	for k := m.lx.Find(max(open+1, m.lo), ps, name); k >= 0 && !deref; k = m.lx.Find(k+1, ps, name) {
		deref = m.derefAt(k, ps, n)
	}
	if !deref {
		return false
	}
	body, looped := m.loopBodyAround(tok)
	if !looped || body < 0 || body > open {
		return looped
	}
	bodyClose := m.closeOf(body)
	if bodyClose < tok {
		return true
	}
	use := func(k int) bool { return m.samePath(k, ps, n) && m.nullUse(k, n) }
	some := &memDA{m: m, name: name, ps: ps, n: n, null: true, collect: true, use: use}
	some.seq(body+1, bodyClose, false, true)
	if some.found {
		return true
	}
	every := &memDA{m: m, name: name, ps: ps, n: n, null: true, must: true, collect: true, use: use}
	every.seq(body+1, bodyClose, false, true)
	if every.found {
		return true
	}
	for _, u := range every.uses {
		if u > open && u < ps && slices.Contains(some.uses, u) {
			return true
		}
	}
	return false
}

// loopBodyAround finds the innermost while, for or do statement of the
// item that goes on past token tok (its header or its body holds tok;
// the while of a do … while counts too, which only keeps more): looped
// reports one, and body is the "{" of its body, -1 when the body has no
// braces.
func (m memLex) loopBodyAround(tok int) (body int, looped bool) {
	body = -1
	for k := m.lo; k < tok; k++ {
		c := m.lx.Tokens[k].First
		if (c != 'w' && c != 'f' && c != 'd') || !(m.is(k, "while") || m.is(k, "for") || m.is(k, "do")) || m.stmtEnd(k) <= tok {
			continue
		}
		looped, body = true, -1
		switch {
		case m.is(k, "do") && m.is(k+1, "{"):
			body = k + 1
		case !m.is(k, "do") && m.is(k+1, "("):
			if c := m.closeOf(k + 1); c > 0 && m.is(c+1, "{") {
				body = c + 1
			}
		}
	}
	return body, looped
}

// walkAfterStore walks d over the rest of the block of the NULL store at
// token tok (its path at ps; from is the token after its statement, close
// the block's "}"), starting with the store's NULL. When the store is the
// whole then-branch of an if without braces that starts a statement of
// the block (if (c) p = NULL; else …), from is that if's else: the else
// branch is the other path, walked with elseEntry (for the "may still see
// this store" walk, assigned: this NULL is not on that path; for the must
// walk, not assigned: the path may hold NULL too), and the walk goes on
// after the if statement with the two paths joined, as memDA.branchStmts
// joins an if's branches. Any other else there is left to seq, which gives
// up on it.
func (m memLex) walkAfterStore(d *memDA, tok, ps, from, close int, elseEntry bool) {
	if m.is(from, "else") && from == tok+2 && m.is(ps-1, ")") {
		if o := m.lx.Open(ps - 1); o > m.lo+1 && m.is(o-1, "if") && (m.p1(o-2) == ';' || m.p1(o-2) == '{' || m.p1(o-2) == '}') {
			end, a, falls := d.stmt(from+1, close, elseEntry)
			state := false // the then-branch: this store, falling through
			if falls {
				state = d.join(state, a)
			}
			d.seq(end, close, state, true)
			return
		}
	}
	d.seq(from, close, false, true)
}

// mayDominate reports whether the code at token k may run on every path
// to token t, as Check's memDominates decides: it may not when a block
// around k that ends before t is the body of an if, a loop, a switch, a
// function or a macro (") {"), an else or a do.
func (m memLex) mayDominate(k, t int) bool {
	if m.conditionalOperand(k) {
		return false
	}
	open, close := m.enclosingBlock(k)
	for close < t {
		p := open - 1
		if m.is(p, ")") || m.is(p, "else") || m.is(p, "do") {
			return false
		}
		if !m.is(p, ";") && !m.is(p, "{") && !m.is(p, "}") {
			return true
		}
		open, close = m.enclosingBlock(open)
	}
	return true
}

// funcBody returns the "{" of the item's function body.
func (m memLex) funcBody() int {
	for k := m.lo; k < m.hi; k++ {
		if m.is(k, "{") {
			return k
		}
	}
	return -1
}

// conditionalOperand reports whether token k lies in a right operand of
// || or && or in a branch of ?: within its statement, where memDominates
// stops too. A && counts only inside brackets: at a statement's top level
// it may be a C++ rvalue reference (auto&& r = p->x;).
func (m memLex) conditionalOperand(k int) bool {
	depth := 0
	and, sep := false, false // an && of the current group; a comma passed in it
	for j := k - 1; j > m.lo; j-- {
		switch m.p1(j) {
		case ')', ']':
			depth++
			continue
		case '(', '[':
			if depth > 0 {
				depth--
				continue
			}
			if and {
				return true
			}
			sep = false // out into the enclosing group
			continue
		case ';', '{', '}':
			if depth == 0 {
				return false
			}
		case ',':
			if depth == 0 {
				sep = true
			}
		case '?':
			if depth == 0 && !sep {
				return true
			}
		}
		if depth > 0 || sep || !m.operandEnd(j-1) {
			continue
		}
		switch {
		case m.is(j, "||"):
			return true
		case m.is(j, "&&"):
			and = true
		}
	}
	return false
}

// operandEnd reports whether token i can end an operand (so that an
// operator after it is binary: a && b, not &&label).
func (m memLex) operandEnd(i int) bool {
	switch m.p1(i) {
	case ')', ']':
		return true
	}
	k := m.lx.Kind(i)
	return k == checkers.TokNumber || k == checkers.TokString || k == checkers.TokChar || m.ident(i) && !m.is(i, "return") && !m.is(i, "case")
}

// macroStatementArg reports whether token k is the whole first argument
// of an ALL_CAPS macro called as a statement (ALLOC_ARRAY(p, n);): the
// state walk lets the macro assign it (in C++ any unknown call may, by
// reference).
func (m memLex) macroStatementArg(k int) bool {
	if !m.is(k-1, "(") || !(m.is(k+1, ",") || m.is(k+1, ")")) || !m.ident(k-2) {
		return false
	}
	if s := k - 3; !m.is(s, ";") && !m.is(s, "{") && !m.is(s, "}") {
		return false
	}
	f := string(m.word(k - 2))
	_, reads := memDerefArgs[f]
	return flowMacroName(f) && !reads && !memKeepArgs[f] && !memDeallocators[f] && !memReallocators[f]
}

// labelColon reports whether the ":" at token k ends a statement label
// ("name:" at a statement's start, not case or default).
// outerBrace returns the outermost brace of the item around token tok
// (the function body), or the item's first token when there is none.
func (m memLex) outerBrace(tok int) int {
	for j := m.lo; j < tok; j++ {
		if m.is(j, "{") || m.is(j, "(") || m.is(j, "[") {
			c := m.closeOf(j)
			if c < 0 || c > tok {
				if m.is(j, "{") {
					return j
				}
				continue
			}
			j = c
		}
	}
	return m.lo
}

// lastLabelColon returns the last label colon (labelColon) strictly
// between tokens from and to, or -1: it asks labelColon of the file's
// ":" tokens there (lexFacts.colons), from the last one back.
func (m memLex) lastLabelColon(from, to int) int {
	colons := fileLexFacts(m.lx).colons
	i, _ := slices.BinarySearch(colons, int32(to))
	for i--; i >= 0 && int(colons[i]) > from; i-- {
		if m.labelColon(int(colons[i])) {
			return int(colons[i])
		}
	}
	return -1
}

func (m memLex) labelColon(k int) bool {
	return m.ident(k-1) && !m.is(k+1, ":") && (m.is(k-2, ";") || m.is(k-2, "{") || m.is(k-2, "}")) &&
		!m.is(k-1, "case") && !m.is(k-1, "default")
}

// memAssignOps are the assignment operators.
var memAssignOps = map[string]bool{"=": true, "+=": true, "-=": true, "*=": true, "/=": true, "%=": true,
	"&=": true, "|=": true, "^=": true, "<<=": true, ">>=": true}

// fieldStore reports a store into a path rooted at token k (p->f = x,
// p->n += 1, p[0] = c), which Defs counts as a definition of p.
func (m memLex) fieldStore(k int) bool {
	pe := m.pathEnd(k)
	return pe > k+1 && memAssignOps[m.text(pe)] && !m.is(k-1, "&") && !m.is(k-1, "*")
}
