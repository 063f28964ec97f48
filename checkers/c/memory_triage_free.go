package c

import (
	"slices"

	"github.com/jsec/jsec/checkers"
)

// Triage of free and delete: may anything before or after this release
// make it a double free, a use after free, a moved or a non-heap pointer?

// memTriageFree keeps a free whose pointer may be used or freed again
// later, that may not be the start of its block or not on the heap, or
// that C++ code may have allocated with new.
func memTriageFree(lx *checkers.Lexed, tok int) bool {
	m, ok := newMemLex(lx, tok)
	if !ok || m.funcBody() < 0 {
		return false // a prototype: Check looks only inside functions
	}
	m = m.narrow(tok)
	if lx.Text(tok) == "delete" {
		return m.triageDelete(tok)
	}
	if !m.is(tok+1, "(") {
		return false
	}
	closeTok := m.closeOf(tok + 1)
	if closeTok < 0 {
		return true
	}
	a := tok + 2
	for m.is(a, "(") && m.castEnd(a) > 0 { // (void *)p
		a = m.castEnd(a)
	}
	if m.is(a, "&") || m.lx.Kind(a) == checkers.TokString || m.is(a, "\"") {
		return true // free-non-heap
	}
	if !m.ident(a) && !(m.is(a, "*") && m.ident(a+1)) {
		return true
	}
	pe := m.pathEnd(a)
	if m.is(a, "*") {
		pe = m.pathEnd(a + 1) // free(*out)
	}
	if pe != closeTok {
		return m.is(pe, "+") // free(p + n); no rule looks at free(f(x)) or free(v[i])
	}
	return m.itemHasNew() || pe == a+1 && m.mayBeArray(a, tok) || !m.huge(tok) && m.usedAround(a, pe, tok, closeTok)
}

// siblingPath reports whether the mention at k of the root of the n-token
// path at p goes on to another member than the path does: s->a.len
// beside s->a.buf, which reads none of s->a.buf. A mention of the path
// itself, or of a prefix that is not followed by a member access (f(s)),
// is no sibling.
func (m memLex) siblingPath(k, p, n int) bool {
	j := 1
	for j < n && m.samePath(k+j, p+j, 1) {
		j++
	}
	return j < n && (m.is(p+j-1, "->") || m.is(p+j-1, ".")) && m.ident(k+j) && !m.is(k+j+1, "(")
}

// castEnd returns the token after a cast "( type )" starting at i, or -1.
func (m memLex) castEnd(i int) int {
	j := i + 1
	for m.ident(j) || m.is(j, "*") {
		j++
	}
	if j > i+1 && m.is(j, ")") && (m.is(j-1, "*") || m.ident(j-1) && memTypeSet[string(m.word(j-1))]) {
		return j + 1
	}
	return -1
}

var memTypeSet = func() map[string]bool {
	out := map[string]bool{}
	for _, w := range memTypeWords {
		out[w] = true
	}
	return out
}()

func (m memLex) itemHas(word string) bool {
	for j := m.lo; j < m.hi; j++ {
		if m.lx.Kind(j) == checkers.TokIdent && m.lx.Is(j, word) {
			return true
		}
	}
	return false
}

var memNewSlot, memFileArraysSlot = checkers.NewMemoSlot(), checkers.NewMemoSlot()

// itemHasNew reports a "new" in the item, found once per item.
func (m memLex) itemHasNew() bool {
	return checkers.ItemMemo(m.lx, memNewSlot, m.lx.ItemOf(m.lo), func() bool { return m.itemHas("new") })
}

// fileArrays returns the names declared as arrays at file scope: "name
// [" before any "{" in a short item (file-scope arrays are short
// declarations; a struct's members are no variables). Found once per
// file.
func (m memLex) fileArrays() map[string]bool {
	return checkers.Memoize(m.lx, memFileArraysSlot, func() map[string]bool {
		out := map[string]bool{}
		for _, it := range m.lx.Items {
			if it.TokEnd-it.TokStart > 64 {
				continue
			}
			for j := it.TokStart; j+1 < it.TokEnd; j++ {
				if m.lx.Is(j, "{") {
					break
				}
				if m.lx.Kind(j) == checkers.TokIdent && m.lx.Is(j+1, "[") {
					out[m.lx.Text(j)] = true
				}
			}
		}
		return out
	})
}

// mayBeArray reports whether the freed root identifier could name an
// array or point at non-heap storage: declared with [ ] in the item or at
// file scope, assigned a literal or an address, or assigned a name that
// is such an array (all before tok).
func (m memLex) mayBeArray(a, tok int) bool {
	f := m.arrayFacts()
	array := func(n string) bool {
		j, ok := f.arrays[n]
		return ok && j < tok || m.fileArrays()[n]
	}
	name := m.text(a)
	if array(name) {
		return true
	}
	for _, as := range f.assigns[name] {
		if int(as.at) >= tok {
			break
		}
		if as.lit || array(as.rhs) {
			return true
		}
	}
	return false
}

// memArrayFacts are what mayBeArray asks of the tokens of a window (an
// item, or the function narrow cut out of it), found in one pass over it:
// a pass from the window's start for every free was quadratic in a
// function with thousands of them (16 s for one of 1.2 MB).
type memArrayFacts struct {
	arrays  map[string]int         // names declared with [ ]: the first such token
	assigns map[string][]memAssign // "name = …" that mayBeArray weighs, in order
}

// memAssign is "name = rhs;" (or ","), with a literal or an address on
// the right (lit) or a name alone (rhs).
type memAssign struct {
	at  int32
	lit bool
	rhs string
}

var memArrayFactsSlot = checkers.NewMemoSlot()

// arrayFacts returns the memArrayFacts of m's window, found once per
// window of each item.
func (m memLex) arrayFacts() *memArrayFacts {
	byWindow := checkers.ItemMemo(m.lx, memArrayFactsSlot, m.idx, func() map[[2]int]*memArrayFacts {
		return map[[2]int]*memArrayFacts{}
	})
	key := [2]int{m.lo, m.hi}
	if f := byWindow[key]; f != nil {
		return f
	}
	f := &memArrayFacts{arrays: map[string]int{}, assigns: map[string][]memAssign{}}
	for j := m.lo; j < m.hi; j++ {
		if m.lx.Kind(j) != checkers.TokIdent {
			continue
		}
		if m.is(j+1, "[") {
			if _, seen := f.arrays[m.text(j)]; !seen && m.arrayDeclarator(j) {
				f.arrays[m.text(j)] = j
			}
			continue
		}
		if !m.is(j+1, "=") {
			continue
		}
		switch {
		case m.lx.Kind(j+2) == checkers.TokString || m.is(j+2, "&"):
			f.assigns[m.text(j)] = append(f.assigns[m.text(j)], memAssign{at: int32(j), lit: true})
		case m.ident(j+2) && (m.is(j+3, ";") || m.is(j+3, ",")) && !m.is(j+2, "NULL") && !m.is(j+2, "nullptr"):
			f.assigns[m.text(j)] = append(f.assigns[m.text(j)], memAssign{at: int32(j), rhs: m.text(j + 2)})
		}
	}
	byWindow[key] = f
	return f
}

// arrayDeclarator reports "T name[" at token j (name followed by "[").
func (m memLex) arrayDeclarator(j int) bool {
	return m.ident(j-1) && !m.notType(j-1) || m.is(j-1, "*") || m.is(j-1, ",") && m.inDeclaration(j-1)
}

// memLoop is the innermost loop around a free that usedBefore found: the
// end of its body, its update clause (-1: none) and its keyword (-1: a
// loop macro).
type memLoop struct{ end, update, kw int }

// usedBefore looks at what comes before the free at tok of the path [a,
// pe) (whose root is name): whether a mention moves it, frees it in a way
// that may reach this free, or offsets it (used); and the innermost loop
// around tok (end -1 when none).
func (m memLex) usedBefore(a, pe, tok int, name string) (used bool, loop memLoop) {
	loopEnd, loopUpdate, loopKw := -1, -1, -1
	toks := m.lx.Tokens
	body := m.firstBraceIn(tok) // found once: asked of every ") {" below
	// The loops around tok, from the item's loop keywords and "name(…) {"
	// braces (found once per item), the innermost one winning.
	cands := m.loopCandidates()
	i, _ := slices.BinarySearch(cands, int32(m.lo))
	for _, j32 := range cands[i:] {
		j := int(j32)
		if j >= tok {
			break
		}
		if toks[j].Kind == checkers.TokIdent {
			if end, upd := m.loopSpan(j, tok); end > 0 && (loopEnd < 0 || end < loopEnd) {
				loopEnd, loopUpdate, loopKw = end, upd, j
			}
		} else if j-1 >= m.lo && j != body && m.macroLoopHolds(j, tok) {
			if end := m.closeOf(j); loopEnd < 0 || end < loopEnd {
				loopEnd, loopUpdate, loopKw = end, -1, -1
			}
		}
	}
	// The mentions of name before tok (a loop keyword is no name).
	mentioned := name
	if name == "for" || name == "while" || name == "do" {
		mentioned = ""
	}
	for j := m.lx.Find(m.lo, tok, mentioned); j >= 0; j = m.lx.Find(j+1, tok, mentioned) {
		if toks[j].Kind == checkers.TokIdent {
			if m.is(j+1, "++") || m.is(j-1, "++") || m.is(j+1, "--") || m.is(j-1, "--") || m.is(j+1, "+=") || m.is(j+1, "-=") {
				return true, memLoop{} // moved
			}
			freed := m.is(j-1, "(") && memDeallocators[string(m.word(j-2))] && m.is(j+pe-a, ")") ||
				(m.is(j-1, "delete") || m.is(j-1, "]") && m.is(j-2, "[") && m.is(j-3, "delete")) && m.is(j+pe-a, ";")
			if freed && m.samePath(j, a, pe-a) && m.pathEnd(j) == j+pe-a {
				if next, seg, _ := m.reachableNext(m.pathEnd(j)+1, a, pe); next >= 0 && !m.killedAt(seg, next, pe-a) && m.earlierFreeMayReach(j, pe-a) {
					return true, memLoop{} // freed before, and that free may reach this one
				}
			}
			if s := j - 1; m.is(a, "*") && m.is(s, "*") && m.samePath(s, a, pe-a) && m.pathEnd(j) == s+pe-a &&
				m.is(s-1, "(") && memDeallocators[string(m.word(s-2))] && m.is(s+pe-a, ")") {
				// free(*pp) before this free(*pp): the reach test above
				// follows paths that start with their name. Kept.
				return true, memLoop{}
			}
			if m.is(j+1, "=") && m.ident(j+2) && m.lx.Is(j+2, name) && (m.is(j+3, "+") || m.is(j+3, "-")) {
				return true, memLoop{} // p = p + n
			}
		}
	}
	return false, memLoop{loopEnd, loopUpdate, loopKw}
}

// earlierFreeMayReach decides, for an earlier free(p) at whose argument
// (the n-token path at j) reachableNext found a later mention, whether
// the released value may reach a mention before every path reassigned p:
// the definite-assignment walk of freedMayReach (a delete keeps the
// answer "may"). A loop around that free does not change the answer for
// the mentions after it: a path that goes round the loop passes only
// code that reassigns p or leaves it as it was, or that free again.
func (m memLex) earlierFreeMayReach(j, n int) bool {
	call := j - 2
	if !m.is(j-1, "(") || !m.ident(call) {
		return true
	}
	c := m.closeOf(j - 1)
	return c < 0 || m.freedMayReach(j, j+n, call, c)
}

// usedAround reports whether the freed path [a, pe) may be the target of
// a use after free, a double free or a moved pointer: it was moved or
// freed before, a goto jumps back over the free, or a later mention (or
// the next iteration of a loop around the free) may see it freed.
func (m memLex) usedAround(a, pe, tok, closeTok int) bool {
	name := m.text(a)
	if name == "*" {
		name = m.text(a + 1)
	}
	used, loop := m.usedBefore(a, pe, tok, name)
	if used {
		return true
	}
	loopEnd, loopUpdate, loopKw := loop.end, loop.update, loop.kw
	if m.jumpsBack(tok, closeTok) {
		return true
	}
	next, seg, ended := m.reachableNext(closeTok+1, a, pe)
	if ended && loopEnd > 0 {
		// reachableNext walks out of the loop's body as if it fell
		// through: a return after the loop ends no path that goes round
		// it again (for (…) { use(p); if (c) free(p); } return 0;). Only
		// a return inside the body ends them all.
		body := m
		body.hi = min(body.hi, loopEnd)
		_, _, ended = body.reachableNext(closeTok+1, a, pe)
	}
	if ended {
		return false // every path from the free returns first
	}
	rootKill := m.hi
	if pe-a > 1 && !m.is(a, "*") {
		rootKill = m.straightWrite(closeTok+1, a, 1, m.hi) // form = next: a new base
	}
	killed := next >= 0 && (m.killedAt(seg, next, pe-a) || rootKill < next)
	if loopEnd > 0 {
		if next >= 0 && !killed && (next < loopEnd || m.jumpsOut(closeTok, loopEnd)) {
			return true // a use later in the body, or after a jump out of the loop
		}
		// The next iteration runs the body again: safe only if the
		// pointer is reassigned after the free inside the body, by the
		// loop's update clause, or declared afresh in the body.
		return !(killed && next < loopEnd || rootKill < loopEnd || loopUpdate > 0 && m.assigns(loopUpdate, name) ||
			pe-a == 1 && m.declaredBetween(m.loopStart(loopEnd), tok, name) || loopKw >= 0 && m.loopReassigns(loopKw, loopEnd, name))
	}
	if next < 0 || killed || rootKill < m.hi && next > rootKill || m.onlyWrites(next, a, pe) {
		return false
	}
	if m.is(a, "*") {
		return true
	}
	return m.freedMayReach(a, pe, tok, closeTok)
}

// freedMayReach runs the definite-assignment walk from the statement of
// the free at tok: may a mention of the freed path [a, pe) see it before
// every path reassigned it? Mentions after the free's block count when
// the block may end (or jump out) with it still freed.
func (m memLex) freedMayReach(a, pe, tok, closeTok int) bool {
	open, close := m.enclosingBlock(tok)
	d := &memDA{m: m, name: m.text(a), freed: true, ps: a, n: pe - a, use: func(int) bool { return true }}
	start := m.stmtEnd(closeTok)
	if m.is(start, "else") {
		start = m.stmtEnd(start + 1) // if (x) free(p); else …
	}
	assigned, falls := d.seq(start, close, false, true)
	// Walk out through the enclosing blocks while the free may still be
	// live at their end; a jump out of a block gives up.
	for !d.found {
		if m.jumpsOut(tok, close) {
			return m.nextPath(close, a, pe) >= 0 // a jump out: do not guess
		}
		if open == m.funcBody() || !(falls && !assigned) {
			return false
		}
		next := close + 1
		switch {
		case m.is(next, "else"):
			next = m.stmtEnd(next + 1)
		case m.is(next, "while") || m.is(open-1, "do") || m.is(open-1, ":"):
			return true // a do-while or case body: do not guess
		}
		o, c := m.enclosingBlock(open)
		if o >= open || !m.is(o, "{") {
			// No block to walk out to (a free outside any function body,
			// in broken code): let Check decide.
			return true
		}
		open, close = o, c
		assigned, falls = d.seq(next, close, false, true)
	}
	return d.found
}

// onlyWrites reports whether every mention of the path [a, pe) from
// token from on assigns it (p = …): nothing can use a freed value.
func (m memLex) onlyWrites(from, a, pe int) bool {
	n := pe - a
	for k := from; k < m.hi; k++ {
		if (m.lx.Kind(k) == checkers.TokIdent || m.is(a, "*")) && m.samePath(k, a, n) && !m.is(k-1, "->") && !m.is(k-1, ".") && k != a {
			if !m.is(k+n, "=") || m.is(k-1, "&") || m.unaryStar(k-1) { // *p = x writes through p
				return false
			}
		}
	}
	return true
}

// loopStart returns the "{" that opens the loop body closing at end, or
// the item start for a braceless body.
func (m memLex) loopStart(end int) int {
	if m.is(end, "}") {
		depth := 0
		for k := end; k > m.lo; k-- {
			if m.is(k, "}") {
				depth++
			} else if m.is(k, "{") {
				depth--
				if depth == 0 {
					return k
				}
			}
		}
	}
	return end
}

// declaredBetween reports a declaration of name in (from, to): "T name;"
// or "T *name = …".
func (m memLex) declaredBetween(from, to int, name string) bool {
	for j := from + 1; j < to; j++ {
		if m.ident(j) && m.lx.Is(j, name) && (m.is(j-1, "*") || m.ident(j-1) && !m.notType(j-1)) &&
			(m.is(j+1, "=") || m.is(j+1, ";") || m.is(j+1, ",")) {
			return true
		}
	}
	return false
}

// reachableNext returns the next mention of the path [a, pe) that the
// path from token from (the ";" after a free) can reach, following
// unconditional returns, calls that do not return and forward gotos in
// the straight-line code, and stepping over the else branch of an if
// whose then-branch it leaves, and the token where the last straight
// segment before it starts. It falls back to the plain next mention on
// break, continue, do-while ends and directives.
func (m memLex) reachableNext(from, a, pe int) (next, seg int, ended bool) {
	n := pe - a
	depth, returning := 0, false
	seg = from
	for k := from; k < m.hi; k++ {
		if (m.lx.Kind(k) == checkers.TokIdent || m.is(a, "*")) && m.samePath(k, a, n) && !m.is(k-1, "->") && !m.is(k-1, ".") && !m.tagName(k) {
			return k, seg, false
		}
		stmt := m.is(k-1, ";") || m.is(k-1, "{") || m.is(k-1, "}")
		switch {
		case m.is(k, "{"):
			depth++
		case m.is(k, "}"):
			depth--
			if depth < 0 {
				if m.is(k+1, "else") {
					// Out of the then-block that holds the free: the else
					// branch is not on this path.
					k = m.stmtEnd(k+2) - 1
					seg, depth = k+1, 0
					continue
				}
				if m.is(k+1, "while") {
					return m.nextPath(k, a, pe), from, false
				}
				depth = 0
			}
		case k == from+1 && m.is(k, "else") && m.is(from, ";"):
			// if (x) free(p); else …: the else branch is not on this path.
			k = m.stmtEnd(k+1) - 1
			seg = k + 1
			continue
		case m.is(k, "break") || m.is(k, "continue") || m.lx.Kind(k) == checkers.TokPreproc:
			return m.nextPath(k, a, pe), from, false
		case depth == 0 && stmt && (m.is(k, "return") || m.ident(k) && m.is(k+1, "(") && memNoReturn[string(m.word(k))]):
			returning = true // return, or exit(…), abort(): the path ends
		case returning && m.is(k, ";"):
			return -1, seg, true
		case depth == 0 && stmt && m.is(k, "goto") && m.ident(k+1):
			lbl := m.label(k+1, m.text(k+1))
			if lbl < 0 {
				return m.nextPath(k, a, pe), from, false
			}
			k, seg = lbl, lbl+2
		}
	}
	return -1, seg, false
}

// label returns the token of "name :" after token i, or -1.
func (m memLex) label(i int, name string) int {
	for k := i + 1; k+1 < m.hi; k++ {
		if m.ident(k) && m.lx.Is(k, name) && m.is(k+1, ":") && (m.is(k-1, ";") || m.is(k-1, "}") || m.is(k-1, "{")) {
			return k
		}
	}
	return -1
}

// loopSpan returns, for the loop whose keyword is at j, the end of its
// body when the body holds tok (else -1), and the start of a for loop's
// update clause (else -1).
func (m memLex) loopSpan(j, tok int) (end, update int) {
	body, update := j+1, -1
	if !m.is(j, "do") {
		if !m.is(body, "(") {
			return -1, -1
		}
		cl := m.closeOf(body)
		if cl < 0 {
			return m.hi, -1
		}
		if m.is(j, "for") {
			semis := 0
			for k := body + 1; k < cl; k++ {
				if m.is(k, ";") {
					semis++
					if semis == 2 {
						update = k + 1
					}
				}
			}
		}
		body = cl + 1
	}
	if body > tok {
		return -1, -1
	}
	if m.is(body, "{") {
		end = m.closeOf(body)
		if end < 0 {
			end = m.hi
		}
		if end > tok {
			return end, update
		}
		return -1, -1
	}
	for k := body; k < m.hi; k++ {
		if m.is(k, ";") {
			if k >= tok {
				return k, update
			}
			return -1, -1
		}
	}
	return m.hi, update
}

// loopReassigns reports whether each iteration of the while or for loop
// at kw (its body ending at end) assigns name before anything mentions
// it: the condition starts with (name = …) and the header mentions name
// nowhere else, or the header never mentions name and the body's first
// mention is an unconditional name = ….
func (m memLex) loopReassigns(kw, end int, name string) bool {
	if !m.is(kw, "while") && !m.is(kw, "for") || !m.is(kw+1, "(") {
		return false
	}
	cl := m.closeOf(kw + 1)
	if cl < 0 || cl >= end {
		return false
	}
	from := kw + 2
	if m.is(kw, "for") {
		from = m.exprStmtEnd(from, cl) + 1 // the condition, after the init clause
	}
	j := from
	for m.is(j, "(") {
		j++
	}
	assigned := m.ident(j) && m.lx.Is(j, name) && m.is(j+1, "=")
	for k := kw + 2; k < cl; k++ {
		if m.lx.Is(k, name) && !(assigned && k == j) {
			return false // (p = p->next) reads the old value; so may an update clause
		}
	}
	if assigned {
		return true
	}
	if !m.is(cl+1, "{") {
		return false
	}
	for k := cl + 2; k < end; k++ {
		if m.ident(k) && m.lx.Is(k, name) && !m.is(k-1, "->") && !m.is(k-1, ".") {
			return m.killedAt(cl+2, k, 1)
		}
	}
	return false
}

// exprStmtEnd returns the ";" ending the clause that starts at i, before
// to (or to).
func (m memLex) exprStmtEnd(i, to int) int {
	for k := i; k < to; k++ {
		switch m.p1(k) {
		case '(', '[', '{':
			if c := m.closeOf(k); c > k && c < to {
				k = c
			}
		case ';':
			return k
		}
	}
	return to
}

// assigns reports whether the for-update clause starting at i assigns
// the variable name (p = next).
func (m memLex) assigns(i int, name string) bool {
	for k := i; k < m.hi && !m.is(k, ")"); k++ {
		if m.ident(k) && m.lx.Is(k, name) && m.is(k+1, "=") && !m.is(k-1, "->") && !m.is(k-1, ".") {
			return true
		}
	}
	return false
}

// jumpsBack reports a goto after token c to a label before token tok.
func (m memLex) jumpsBack(tok, c int) bool {
	for j := c; j < m.hi; j++ {
		if !m.is(j, "goto") || !m.ident(j+1) {
			continue
		}
		lbl := m.text(j + 1)
		for k := m.lo; k < tok; k++ {
			if m.ident(k) && m.lx.Is(k, lbl) && m.is(k+1, ":") {
				return true
			}
		}
	}
	return false
}

// firstBraceIn returns the first "{" of the item (of m's window) before
// token tok, or tok when there is none: the function body's, where the
// scans ask whether a "{" is the body's.
func (m memLex) firstBraceIn(tok int) int {
	for k := m.lo; k < tok; k++ {
		if m.p1(k) == '{' {
			return k
		}
	}
	return tok
}

// loopCandidates returns, in token order, where usedAround looks for the
// loops around a free: the item's for, while and do keywords and its "{"
// right after a ")" (a loop macro's body, or any other block), found once
// per item (on the whole item: a narrowed memLex takes the part in its
// range).
func (m memLex) loopCandidates() []int32 {
	return checkers.ItemMemo(m.lx, memLoopCandSlot, m.idx, func() []int32 {
		full := memLexOf(m.lx, m.idx)
		toks := m.lx.Tokens
		var out []int32
		for j := full.lo; j < full.hi; j++ {
			isIdent := toks[j].Kind == checkers.TokIdent
			switch c := toks[j].First; {
			case isIdent && (c == 'f' && full.is(j, "for") || c == 'w' && full.is(j, "while") || c == 'd' && full.is(j, "do")),
				!isIdent && full.p1(j) == '{' && full.is(j-1, ")"):
				out = append(out, int32(j))
			}
		}
		return out
	})
}

var memLoopCandSlot = checkers.NewMemoSlot()

// macroLoopHolds reports whether "name(...) {" at brace j is a loop
// macro whose body holds tok.
func (m memLex) macroLoopHolds(j, tok int) bool {
	depth := 0
	for k := j - 1; k > m.lo; k-- {
		if m.is(k, ")") {
			depth++
		} else if m.is(k, "(") {
			depth--
			if depth == 0 {
				f := m.text(k - 1)
				if !m.ident(k-1) || f == "if" || f == "switch" || f == "while" || f == "for" {
					return false
				}
				return m.closeOf(j) > tok
			}
		}
	}
	return false
}

// killedAt reports whether the mention of the freed path at token next
// (n tokens long) assigns it unconditionally on the straight path from
// token from, with no label, case, goto, continue or directive in
// between.
func (m memLex) killedAt(from, next, n int) bool {
	// f(&p, …) in a statement that runs in full: the call may store a
	// new value, and the state walk lets it.
	outArg := m.is(next-1, "&") && (m.is(next-2, "(") || m.is(next-2, ",")) &&
		(m.is(next+n, ")") || m.is(next+n, ",")) && m.uncondStatement(next)
	if !outArg {
		if !m.is(next+n, "=") || !(m.is(next-1, ";") || m.is(next-1, "}") || m.is(next-1, "{")) {
			return false
		}
		for k := next + n + 1; k < m.hi && !m.is(k, ";"); k++ {
			if m.samePath(k, next, 1) && !m.siblingPath(k, next, n) {
				return false // p = p->next reads the old value first
			}
		}
	}
	// Control may leave blocks (the caller follows the path out of them
	// and looks after loops) and enter plain ones ({ p = NULL; }), not
	// the body of an if, a loop or a switch.
	for k := from; k < next; k++ {
		switch {
		case m.is(k, "{"):
			if !m.is(k-1, ";") && !m.is(k-1, "{") && !m.is(k-1, "}") {
				return false
			}
		case m.is(k, "case") || m.is(k, "default") || m.is(k, "goto") || m.is(k, "continue") || m.is(k, ":"):
			return false
		case m.lx.Kind(k) == checkers.TokPreproc:
			return false
		}
	}
	return true
}

// rhsMentions reports a mention of name from token i to the end of its
// statement.
func (m memLex) rhsMentions(i int, name string) bool {
	for k := i; k < m.hi && !m.is(k, ";"); k++ {
		if m.ident(k) && m.lx.Is(k, name) && !m.is(k-1, "->") && !m.is(k-1, ".") {
			return true
		}
	}
	return false
}

// triageDelete keeps a delete whose pointer may be used or deleted again
// later, or whose allocations in the file do not all match its form.
func (m memLex) triageDelete(tok int) bool {
	a := tok + 1
	array := m.is(a, "[")
	if array {
		a += 2
	}
	if !m.ident(a) {
		return m.is(a, "this") || m.is(a, "*") || m.is(a, "(")
	}
	if m.namedCastStatement(a) {
		// delete reinterpret_cast<T *>(p);: Check follows no path through
		// a named cast (PathOf, the state walk), so none of its rules
		// can fire here.
		return false
	}
	pe := m.pathEnd(a)
	if !m.is(pe, ";") {
		return true
	}
	want := "new"
	if array {
		want = "new[]"
	}
	name := m.text(pe - 1) // a member's name, or the variable
	if k := memMemberAllocKind(m.lx, name); k != "" && k != want || m.allocKindOtherThan(name, tok, want) {
		return true
	}
	return !m.huge(tok) && m.usedAround(a, pe, tok, pe)
}

// namedCastStatement reports whether the tokens from a are a C++ named
// cast, static_cast<…>(…) and its kin, that ends the statement.
func (m memLex) namedCastStatement(a int) bool {
	switch m.text(a) {
	case "static_cast", "reinterpret_cast", "const_cast", "dynamic_cast":
	default:
		return false
	}
	e := m.lx.AngleEnd(a + 1)
	if e < 0 || e >= m.hi || !m.is(a+1, "<") {
		return false
	}
	c := m.closeOf(e + 1)
	return m.is(e+1, "(") && c > 0 && m.is(c+1, ";")
}

// allocKindOtherThan reports an assignment of name before tok in the
// item from an allocation of another kind than want.
func (m memLex) allocKindOtherThan(name string, tok int, want string) bool {
	for j := m.lo; j < tok; j++ {
		if !m.ident(j) || !m.lx.Is(j, name) || !m.is(j+1, "=") {
			continue
		}
		for k := j + 2; k < tok && !m.is(k, ";"); k++ {
			if kind := memTokenAllocKind(m.lx, k); kind != "" {
				if kind != want {
					return true
				}
				break
			}
		}
	}
	return false
}
