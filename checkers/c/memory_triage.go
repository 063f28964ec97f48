package c

import (
	"slices"

	"github.com/jsec/jsec/checkers"
)

// Token-level triage for the memory family's common triggers. Each
// function returns false only when Check certainly reports nothing for
// the occurrence, so that its function need not be parsed; when in doubt
// it returns true. TestTriageSound (triage_sound_test.go) checks on real code that
// triage never hides a finding.

// memTriageAlloc keeps an allocation whose size does arithmetic, whose
// result is realloc'ed onto itself, used on the spot, or stored into a
// variable whose next use is not a NULL test (or that may leak).
func memTriageAlloc(lx *checkers.Lexed, tok int) bool {
	m, ok := newMemLex(lx, tok)
	if !ok || m.funcBody() < 0 {
		return false // a prototype: Check looks only inside functions
	}
	name := lx.Text(tok)
	if name == "new" {
		return m.triageNew(tok)
	}
	if !m.is(tok+1, "(") {
		return false
	}
	closeTok := m.closeOf(tok + 1)
	if closeTok < 0 {
		return true
	}
	if _, sized := memAllocSizeArgs[name]; sized && m.arith(tok+2, closeTok) {
		return true
	}
	ps, pe, ok := m.target(tok)
	if !ok {
		// Not stored: used on the spot (memset(malloc(n), ...)), returned,
		// or one arm of a conditional.
		switch {
		case m.huge(tok):
			return false
		case memAllocators[name] == memMayFail:
			return !m.is(m.castStart(tok)-1, "return") // return (T *)malloc(n): the caller checks
		}
		return m.unstoredMayLeak(tok)
	}
	if memReallocators[name] && memAllocators[name] != memAborts && m.samePath(ps, tok+2, pe-ps) && m.is(tok+2+pe-ps, ",") {
		return true // p = realloc(p, n)
	}
	if m.huge(tok) {
		return false
	}
	if pe-ps == 1 && m.localName(ps, tok) && m.mayLeak(ps, tok) {
		return true
	}
	if memAllocators[name] != memMayFail {
		return false
	}
	if m.is(ps-1, "=") {
		return true // p = q = malloc(n): an alias may be used first
	}
	if m.is(ps-1, "(") && m.is(closeTok+1, ")") {
		if after := closeTok + 2; m.is(after, "(") || m.is(after, "->") || m.is(after, "[") || m.unaryStar(ps-2) {
			return true // (p = malloc(n))->f: the value is used on the spot
		}
		if m.checkedUse(ps-1, closeTok+2) {
			return false // if ((p = malloc(n)) == NULL)
		}
	}
	next := m.nextPath(closeTok+1, ps, pe)
	return next >= 0 && !m.checkedUse(next, next+pe-ps) && m.uncheckedMayReach(tok, ps, pe-ps)
}

// castStart returns where the casts in front of the value at token i
// start ((char *)(void *)malloc(n) → the first "(").
func (m memLex) castStart(i int) int {
	for m.is(i-1, ")") {
		o := m.lx.Open(i - 1)
		if o <= m.lo {
			return i
		}
		for k := o + 1; k < i-1; k++ {
			if !m.ident(k) && !m.is(k, "*") && !m.is(k, "::") {
				return i
			}
		}
		i = o
	}
	return i
}

// unstoredMayLeak decides for an allocation that never fails and is not
// stored on its own (p = c ? xstrdup(s) : NULL, p = c ? NULL :
// (xstrdup(s))) whether it may leak: only when the expression around it
// is assigned to a local the ownership walk keeps. Passed to a call,
// tested or returned, the block is in no slot the state walk tracks, and
// the allocation cannot fail.
func (m memLex) unstoredMayLeak(tok int) bool {
	depth := 0
	for j := tok - 1; j > m.lo; j-- {
		switch m.p1(j) {
		case ')', ']':
			depth++
			continue
		case '(', '[':
			if depth > 0 {
				depth--
				continue
			}
			if m.is(j, "[") || m.ident(j-1) {
				return false // an argument, an index or a condition
			}
			continue // grouping: (c ? xstrdup(s) : NULL)
		}
		if depth > 0 {
			continue
		}
		switch {
		case m.is(j, "="):
			ps, pe, ok := m.target(j + 1)
			return ok && pe-ps == 1 && m.localName(ps, tok) && m.mayLeak(ps, tok)
		case m.is(j, ";") || m.is(j, "{") || m.is(j, "}") || m.is(j, ",") || m.is(j, "return"):
			return false
		}
	}
	return true
}

// arith reports a size computation Check may flag in [from, to): a * b of
// two run-time values, or a constant factor or an addition when the
// function reads external input.
func (m memLex) arith(from, to int) bool {
	for j := from; j < to; j++ {
		// A product has a left operand (not sizeof *p, not a cast's (T *)).
		mul := m.is(j, "*") && !m.is(j+1, ")") && !m.is(j+1, "*") && m.operandEnd(j-1) && !m.is(j-1, "sizeof")
		if !mul && !m.is(j, "+") {
			continue
		}
		if mul && !m.constOperand(j-1, true) && !m.constOperand(j+1, false) {
			return true
		}
		if m.externalInput() {
			return true
		}
	}
	return false
}

// constOperand reports whether the operand ending (left) or starting
// (right) at token i is a literal, a sizeof or an ALL_CAPS macro.
func (m memLex) constOperand(i int, left bool) bool {
	if m.lx.Kind(i) == checkers.TokNumber {
		return true
	}
	if left && m.is(i, ")") {
		for j := i - 1; j > m.lo; j-- {
			if m.is(j, "(") {
				return m.is(j-1, "sizeof")
			}
		}
	}
	if !left && m.is(i, "sizeof") {
		return true
	}
	return m.ident(i) && flowMacroName(m.text(i))
}

// externalInput reports whether the item mentions a source of program
// input (argv, getenv, fgets, recv …), which Trace could follow.
func (m memLex) externalInput() bool {
	if full := m.lx.Items[m.idx]; full.TokStart == m.lo && full.TokEnd == m.hi {
		// Asked per addition of every allocation size: once per item.
		return checkers.ItemMemo(m.lx, memInputSlot, m.idx, m.scanExternalInput)
	}
	return m.scanExternalInput()
}

var memInputSlot = checkers.NewMemoSlot()

// scanExternalInput is externalInput's scan of the window.
func (m memLex) scanExternalInput() bool {
	for j := m.lo; j < m.hi; j++ {
		if m.lx.Kind(j) != checkers.TokIdent || !exFactsWords().MayHave(m.lx, j) {
			continue // exFactsWords holds the words below (and more)
		}
		t := m.lx.Text(j)
		if t == "argv" {
			// Trace takes only main's argv for input, not c->argv.
			if !m.is(j-1, "->") && !m.is(j-1, ".") && inMainItem(m.lx, checkers.Item{TokStart: m.lo, TokEnd: m.hi}) {
				return true
			}
			continue
		}
		if _, ok := externalFills[t]; ok || externalReturns[t] || t == "optarg" {
			return true
		}
	}
	return false
}

// localName reports whether the identifier at i is declared in the item
// before tok (a local or a parameter, which die with the function).
func (m memLex) localName(i, tok int) bool {
	name := m.text(i)
	for j := m.lo; j < tok; j++ {
		if m.lx.Kind(j) != checkers.TokIdent || !m.lx.Is(j, name) {
			continue
		}
		prev := m.text(j - 1)
		if (prev == "*" || m.ident(j-1) && !memNotType[prev]) && (m.is(j+1, "=") || m.is(j+1, ";") || m.is(j+1, ",") || m.is(j+1, ")")) {
			return true
		}
	}
	return false
}

// memTriageMaybeNull keeps a maybe-NULL call whose result is used on the
// spot or stored and then used before any test.
func memTriageMaybeNull(lx *checkers.Lexed, tok int) bool {
	m, ok := newMemLex(lx, tok)
	if !ok || !m.is(tok+1, "(") || m.huge(tok) || m.funcBody() < 0 {
		return false
	}
	name := lx.Text(tok)
	if name == "mmap" {
		return true
	}
	closeTok := m.closeOf(tok + 1)
	if closeTok < 0 {
		return true
	}
	ps, pe, ok := m.target(tok)
	if !ok {
		return m.derefUse(tok, closeTok+1) || m.is(tok-1, "?") || m.is(tok-1, ":")
	}
	if m.is(ps-1, "=") {
		return true
	}
	if m.is(ps-1, "(") && m.is(closeTok+1, ")") && m.checkedUse(ps-1, closeTok+2) {
		return false
	}
	next := m.nextPath(closeTok+1, ps, pe)
	return next >= 0 && !m.checkedUse(next, next+pe-ps) && m.uncheckedMayReach(tok, ps, pe-ps)
}

// uncheckedMayReach decides whether a dereference may see the maybe-NULL
// result that the call at token tok stored into the path at ps (n
// tokens) before a NULL test or a new value on every path: the
// definite-assignment walk in NULL mode, where a test settles both
// branches (memDA.tested). The state walk reports such a dereference
// anywhere in the function, so a call in an inner block is kept.
func (m memLex) uncheckedMayReach(tok, ps, n int) bool {
	open, close := m.enclosingBlock(tok)
	if open != m.funcBody() || m.inCondition(tok) {
		// A call in an if or loop condition that is no NULL test
		// (if ((p = malloc(n)) > 0) p[0] = 1;): the walk below starts
		// after the whole statement, past the uses in its body.
		return true
	}
	d := &memDA{m: m, name: m.text(ps), ps: ps, n: n, null: true, tested: true, use: func(k int) bool {
		return m.samePath(k, ps, n) && m.nullUse(k, n)
	}}
	d.seq(m.stmtEnd(tok), close, false, true)
	return d.found
}

// inCondition reports whether token tok lies in the condition of an if,
// while, for or switch (in a for header, before its first ";").
func (m memLex) inCondition(tok int) bool {
	depth := 0
	for j := tok - 1; j >= m.lo; j-- {
		switch m.p1(j) {
		case ')', ']':
			depth++
		case '[':
			depth--
		case '(':
			if depth > 0 {
				depth--
				continue
			}
			switch m.text(j - 1) {
			case "if", "while", "for", "switch":
				return true
			}
		case ';', '{', '}':
			if depth == 0 {
				return false
			}
		}
	}
	return false
}

// mayLeak decides whether the local at token v, allocated by the call at
// token call, may reach a return (or the end of the function) still
// owning the block on every path: the ownership walk of memDA, from the
// statement after the allocation.
//
// An allocation in an inner block is followed out of it, level by level
// (memLevel), to the end of the function. A path that skips the
// allocation may hold another fresh block, so past each level the walk
// goes on with the allocating path's state alone. A loop passes on what
// its breaks and continues carried; a later iteration that may start
// still owning the block is a candidate as soon as the loop body holds a
// return, goto or throw. A goto that leaves still owning the block is a
// candidate. Anything else around the block (a switch, a case, a macro)
// keeps the old answer: falling out or jumping out still owning it.
func (m memLex) mayLeak(v, call int) bool {
	name := m.text(v)
	d := &memDA{m: m, name: name, leak: true, use: func(int) bool { return false },
		handoff: func(k int) bool { return m.handsOffLeak(k) }, exposed: m.addressTaken(name)}
	open, close := m.enclosingBlock(call)
	body := m.funcBody()
	chain, ok := m.blockChain(open, close, body)
	if !ok {
		assigned, falls := d.seq(m.stmtEnd(call), close, false, true)
		return d.found || falls && !assigned || m.jumpsOut(call, close)
	}
	for i := len(chain) - 1; i >= 0; i-- {
		if chain[i].loop {
			d.ctx = append(d.ctx, &memDACtx{brkAll: true, contAll: true})
		}
	}
	// walked are the token ranges the walk went through: a goto that left
	// owning the block is harmless when its label lies ahead in them (the
	// walk went through the label) or behind it.
	walked := [][2]int{{m.stmtEnd(call), close}}
	assigned, falls := d.seq(walked[0][0], close, false, true)
	verdict := func(leak bool) bool {
		if d.found || leak {
			return true
		}
		for _, g := range d.ownedGotos {
			// A label behind the goto starts the state walk afresh
			// (flowAnalysis.back): no leak of this block comes of it.
			l := m.label(m.lo, m.text(g+1))
			if l < 0 || l > g && !memInRanges(walked, l) {
				return true
			}
		}
		return false
	}
	for _, lv := range chain {
		if d.found {
			return true
		}
		if lv.loop {
			ctx := d.ctx[len(d.ctx)-1]
			d.ctx = d.ctx[:len(d.ctx)-1]
			head := falls && assigned || ctx.contAny
			if (falls || ctx.hasCont) && !head && m.leavesIn(lv.open, lv.close) {
				return true // a later iteration may return still owning it
			}
			assigned = falls && assigned || ctx.contAny || ctx.brkAny
			falls = falls || ctx.hasBreak || ctx.hasCont
		}
		if !falls || assigned {
			// No path that allocated gets past this level, or one of them
			// released the block: past here it is not owned on every path.
			return verdict(false)
		}
		_, close := m.enclosingBlock(lv.st)
		walked = append(walked, [2]int{m.stmtEnd(lv.st), close})
		assigned, falls = d.seq(m.stmtEnd(lv.st), close, assigned, true)
	}
	return verdict(falls && !assigned)
}

// addressTaken reports &name (or &name->f …) anywhere in the item.
func (m memLex) addressTaken(name string) bool {
	for j := m.lo + 1; j < m.hi; j++ {
		if m.lx.Is(j, name) && m.addrOf(j-1) {
			return true
		}
	}
	return false
}

// memInRanges reports whether token k lies in one of the ranges.
func memInRanges(rs [][2]int, k int) bool {
	for _, r := range rs {
		if r[0] <= k && k < r[1] {
			return true
		}
	}
	return false
}

// memLevel is a block around an allocation and the statement it belongs
// to (starting at token st): an if or else branch, a bare block or (loop)
// the body of a while, for or do loop.
type memLevel struct {
	open, close, st int
	loop            bool
}

// blockChain returns the levels from the block [open, close] out to the
// function body (not included); false when one of them is not an if
// branch, a bare block or a loop body.
func (m memLex) blockChain(open, close, body int) ([]memLevel, bool) {
	var chain []memLevel
	for open != body {
		st, loop := m.blockOwner(open)
		if st < 0 || len(chain) > 32 {
			return nil, false
		}
		chain = append(chain, memLevel{open, close, st, loop})
		open, close = m.enclosingBlock(st)
	}
	return chain, true
}

// blockOwner returns the first token of the statement in a block that
// the block at token open belongs to: the if (outermost of an else
// chain) whose branch it is, the loop whose body it is (loop), or the
// block itself; -1 for the body of a switch, a case, a macro or anything
// unusual.
func (m memLex) blockOwner(open int) (st int, loop bool) {
	j := open
	for {
		p := j - 1
		switch {
		case p < m.lo:
			return -1, false
		case m.is(p, "{") || m.is(p, "}") || m.is(p, ";"):
			return j, false
		case m.is(p, "do") && j == open:
			return p, true
		case m.is(p, ")"):
			o := m.lx.Open(p)
			if o <= m.lo {
				return -1, false
			}
			if j == open && (m.is(o-1, "while") || m.is(o-1, "for")) {
				return o - 1, true
			}
			if !m.is(o-1, "if") {
				return -1, false
			}
			j = o - 1
		case m.is(p, "else"):
			// The if this else belongs to, whose then-branch is a block.
			b := m.lx.Open(p - 1)
			if !m.is(p-1, "}") || b <= m.lo || !m.is(b-1, ")") {
				return -1, false
			}
			o := m.lx.Open(b - 1)
			if o <= m.lo || !m.is(o-1, "if") {
				return -1, false
			}
			j = o - 1
		default:
			return -1, false
		}
	}
}

// leavesIn reports a return, goto or throw in [from, to).
func (m memLex) leavesIn(from, to int) bool {
	for k := from; k < to; k++ {
		if m.is(k, "return") || m.is(k, "goto") || m.is(k, "throw") || m.is(k, "co_return") {
			return true
		}
	}
	return false
}

// handsOffLeak reports whether the mention of an owned pointer at token
// j may give the block away (as the state walk sees it): returned,
// stored, passed to a call that is not a known reader, used in pointer
// arithmetic or cast. Dereferences, comparisons, tests and known readers
// keep it.
func (m memLex) handsOffLeak(j int) bool {
	switch {
	case m.is(j+1, "->") || m.is(j+1, "[") || m.is(j+1, ".") || m.unaryStar(j-1) || m.inSizeof(j):
		return false
	case m.is(j+1, "==") || m.is(j+1, "!=") || m.is(j-1, "==") || m.is(j-1, "!=") || m.is(j-1, "!"):
		return false
	case m.is(j+1, "<") || m.is(j+1, ">") || m.is(j+1, "<=") || m.is(j+1, ">=") || m.is(j-1, "<") || m.is(j-1, ">") || m.is(j-1, "<=") || m.is(j-1, ">="):
		return false
	case m.is(j+1, "&&") || m.is(j+1, "||") || m.is(j+1, "?") || m.is(j-1, "&&") || m.is(j-1, "||"):
		return false
	case m.is(j-1, "(") && m.is(j+1, ")") && (m.is(j-2, "if") || m.is(j-2, "while")):
		return false
	}
	if m.is(j-1, "(") && m.is(j+1, ")") && !m.ident(j-2) && !m.is(j-2, ")") && !m.is(j-2, "]") {
		// Grouping parentheses, no call: ((p)); as a statement does
		// nothing with p.
		o, c := j-1, j+1
		for m.is(o-1, "(") && m.is(c+1, ")") && !m.ident(o-2) && !m.is(o-2, ")") && !m.is(o-2, "]") {
			o, c = o-1, c+1
		}
		if (m.is(o-1, ";") || m.is(o-1, "{") || m.is(o-1, "}")) && m.is(c+1, ";") {
			return false
		}
	}
	if (m.is(j-1, "(") || m.is(j-1, ",")) && (m.is(j+1, ")") || m.is(j+1, ",")) {
		f := m.callOf(j)
		_, reads := memDerefArgs[f]
		return !reads && !memKeepArgs[f]
	}
	return true
}

// declStart reports whether the type keyword at tok starts a local
// declaration statement: it follows a statement boundary (optionally
// after qualifiers) inside a function body.
func (m memLex) declStart(tok int) (ok, static bool) {
	j := tok - 1
	for {
		switch m.text(j) {
		case "const", "volatile", "register", "auto", "__restrict", "restrict":
			j--
			continue
		case "static", "extern", "thread_local", "__thread", "_Thread_local":
			static = true
			j--
			continue
		}
		break
	}
	if j < m.lo {
		return false, false
	}
	if !m.is(j, ";") && !m.is(j, "{") && !m.is(j, "}") && !(m.is(j, ":") && !m.is(j-2, "?")) && m.lx.Kind(j) != checkers.TokPreproc {
		return false, false
	}
	return !m.firstBraceAfter(tok), static
}

// memDeclMemo remembers localDecl's last answer: the VLA and uninit
// triages ask it in turn about the same type word.
type memDeclMemo struct{ tok, end int }

var memDeclSlot = checkers.NewMemoSlot()

// localDecl returns the ";" ending the local, non-static declaration that
// starts at the type word tok, or -1 when there is none.
func (m memLex) localDecl(tok int) int {
	c := checkers.Memoize(m.lx, memDeclSlot, func() *memDeclMemo { return &memDeclMemo{tok: -1} })
	if c.tok != tok {
		c.tok, c.end = tok, -1
		if start, static := m.declStart(tok); start && !static {
			c.end = m.declEnd(tok)
		}
	}
	return c.end
}

// inClassBody reports whether token tok sits directly in the body of a
// class, struct or union (not in a parameter list): a member declaration,
// not a local or a parameter (Check finds no function around it).
func (m memLex) inClassBody(tok int) bool {
	open, _ := m.enclosingBlock(tok)
	if !m.is(open, "{") {
		return false
	}
	for k := tok - 1; k > open; k-- {
		if m.is(k, ")") || m.is(k, "]") {
			k = m.lx.Open(k) // a closed group: step over it
		} else if m.is(k, "(") || m.is(k, "[") {
			return false // inside a parameter list or an expression
		}
	}
	for k := open - 1; k >= m.lo; k-- {
		switch m.p1(k) {
		case ';', '{', '}', '(', ')', '=':
			return false
		}
		if m.is(k, "class") || m.is(k, "struct") || m.is(k, "union") {
			return true
		}
	}
	return false
}

// declEnd returns the ";" that ends the declaration starting at tok, or
// -1 when the statement is no plain declaration.
func (m memLex) declEnd(tok int) int {
	for k := tok; k < m.hi; k++ {
		switch m.p1(k) {
		case '(', '[', '{':
			c := m.closeOf(k)
			if c < 0 {
				return -1
			}
			k = c
		case ';':
			return k
		case '}':
			return -1
		}
	}
	return -1
}

// memTriageVLA keeps a local declaration with an array declarator whose
// size mentions a lowercase name (not a macro, not inside sizeof).
func memTriageVLA(lx *checkers.Lexed, tok int) bool {
	m, ok := newMemLex(lx, tok)
	if !ok {
		return false
	}
	end := m.localDecl(tok)
	if end < 0 || !hasOpenBracket(lx, tok, end) {
		return false // no "[" at all (more than nine local declarations in ten)
	}
	return m.vlaDeclarator(tok, end)
}

// hasOpenBracket reports a "[" token in [from, to): one compare per
// token, ahead of the declarator walk.
func hasOpenBracket(lx *checkers.Lexed, from, to int) bool {
	for _, t := range lx.Tokens[from:to] {
		if t.One == '[' {
			return true
		}
	}
	return false
}

// vlaDeclarator reports an array declarator of variable size among the
// declarators of the local declaration [tok, end).
func (m memLex) vlaDeclarator(tok, end int) bool {
	depth := 0
	for k := tok; k < end; k++ {
		switch {
		case m.is(k, "(") || m.is(k, "{"):
			depth++
		case m.is(k, ")") || m.is(k, "}"):
			depth--
		case depth == 0 && m.is(k, "="):
			// skip the initializer to the next declarator
			for k+1 < end && !(m.is(k+1, ",") && depth == 0) {
				k++
				if m.is(k, "(") || m.is(k, "{") {
					depth++
				} else if m.is(k, ")") || m.is(k, "}") {
					depth--
				}
			}
		case depth == 0 && m.is(k, "[") && m.ident(k-1):
			c := m.closeOf(k)
			if c > 0 && m.variableSize(k+1, c) {
				return !m.inClassBody(tok) // a member is no local
			}
		}
	}
	return false
}

// variableSize reports an array size expression in [from, to) that names
// a variable: a name that is not ALL_CAPS, outside sizeof.
func (m memLex) variableSize(from, to int) bool {
	for k := from; k < to; k++ {
		if m.is(k, "sizeof") || m.is(k, "_Alignof") || m.is(k, "alignof") {
			if m.is(k+1, "(") {
				k = m.closeOf(k + 1)
				if k < 0 {
					return true
				}
			} else {
				k++
			}
			continue
		}
		if m.is(k, "ARRAY_SIZE") && m.is(k+1, "(") {
			if k = m.closeOf(k + 1); k < 0 {
				return true
			}
			continue // a constant to Check (memConstExpr), whatever its argument
		}
		if m.ident(k) && !flowMacroName(m.text(k)) && !m.is(k+1, "(") {
			return true
		}
	}
	return false
}

// memTriageUninit keeps a local "T [*]name;" declaration (without
// initialiser) when the variable's first later mention might read it:
// not an unconditional assignment or address-of in the same block.
func memTriageUninit(lx *checkers.Lexed, tok int) bool {
	m, ok := newMemLex(lx, tok)
	if !ok || m.huge(tok) {
		return false
	}
	end := m.localDecl(tok)
	if end < 0 {
		return false
	}
	structType := m.is(tok, "struct") || m.is(tok, "union")
	for k := tok + 1; k < end; k++ {
		switch {
		case m.is(k, "("):
			c := m.closeOf(k)
			if c < 0 {
				continue
			}
			if m.is(m.skipFuncQualifiers(c+1), "{") {
				// f(…) { … }: a function defined here (a method in a
				// class body, a GCC nested function) declares no local;
				// what its body declares has type words of its own.
				return false
			}
			k = c
		case m.is(k, "[") || m.is(k, "{"):
			if c := m.closeOf(k); c > 0 {
				k = c
			}
		case m.is(k, "="):
			for k+1 < end && !m.is(k+1, ",") {
				k++
				if m.is(k, "(") || m.is(k, "{") || m.is(k, "[") {
					if c := m.closeOf(k); c > 0 {
						k = c
					}
				}
			}
		case m.ident(k) && (m.is(k+1, ";") || m.is(k+1, ",")):
			if structType && !m.is(k-1, "*") || m.funcQualifier(k) {
				continue
			}
			if m.firstUseMayRead(k, end) && m.uninitMayRead(k, end) {
				return !m.inClassBody(tok) // a member is no local
			}
		}
	}
	return false
}

// funcQualifier reports whether token k, an identifier, qualifies the
// function declarator before it rather than naming a variable: const,
// volatile and noexcept (reserved words, never a name), and override and
// final right after the declarator's ")" or one of those (elsewhere they
// are ordinary names): int get() const; void f() const override;
// (A variable named final or override declared with a macro for its type,
// LIST_HEAD(x) final;, would be taken for a qualifier too.)
func (m memLex) funcQualifier(k int) bool {
	switch m.text(k) {
	case "const", "volatile", "noexcept":
		return true
	case "override", "final":
		switch m.text(k - 1) {
		case ")", "const", "volatile", "noexcept", "&", "&&":
			return true
		}
	}
	return false
}

// skipFuncQualifiers returns the first token from k on that is not a
// qualifier of a function declarator (const, volatile, noexcept, override,
// final, & and &&): what follows a parameter list's ")".
func (m memLex) skipFuncQualifiers(k int) int {
	for k < m.hi {
		switch m.text(k) {
		case "const", "volatile", "noexcept", "override", "final", "&", "&&":
			k++
			continue
		}
		return k
	}
	return k
}

// firstUseMayRead reports whether the first mention of the variable
// declared at token v (after the declaration ending at end) may read it.
// It may not when that mention writes it unconditionally (x = …, &x in a
// plain statement, a for-loop initialiser) at the top level of its block,
// every later mention lies inside that block, no goto before the write
// can jump past it and no case label after it can be entered directly.
func (m memLex) firstUseMayRead(v, end int) bool {
	name := m.text(v)
	k := m.mention(end+1, name)
	if k < 0 {
		return false
	}
	if hdrClose := m.forUpdate(k); hdrClose > 0 {
		// for (…; …; i += n) { n = …; }: the update runs after the body.
		k = m.mention(hdrClose+1, name)
		if k < 0 || !m.is(hdrClose+1, "{") || k > m.closeOf(hdrClose+1) {
			return true
		}
	}
	write := m.is(k+1, "=") && (m.is(k-1, ";") || m.is(k-1, "}") || m.is(k-1, "{") || m.is(k-1, "(") && (m.is(k-2, "for") || m.uncondStatement(k)))
	addr := m.addrTaken(k-1) && m.uncondStatement(k) // &x may write x; a & x reads it
	if !write && !addr {
		return true
	}
	open, close := m.enclosingBlock(k)
	if open < end {
		open = end // the declaration's own block: start after it
	}
	jumps := m.jumps()
	if anyBetween(jumps.gotos, end, k) || anyBetween(jumps.labels, k, close) {
		return true // a goto may skip the write; a case label may enter after it
	}
	if !m.preprocBalanced(end+1, k) {
		return true
	}
	if !m.straightFrom(open+1, k) {
		return true
	}
	_, scope := m.enclosingBlock(v)
	// Only a mention before the end of the variable's scope counts.
	next := m.mentionBefore(close, scope, name)
	for next >= 0 && m.forUpdate(next) > 0 && m.forUpdate(next)+1 == open {
		next = m.mentionBefore(next+1, scope, name) // the update clause of the loop whose body this is
	}
	return next >= 0
}

// memJumps are the tokens of a file that move control within a function:
// its goto statements and its case and default labels, in token order.
type memJumps struct{ gotos, labels []int32 }

// jumps returns the file's memJumps, which the lexer recorded.
func (m memLex) jumps() memJumps {
	f := fileLexFacts(m.lx)
	return memJumps{f.gotos, f.labels}
}

// anyBetween reports whether the sorted list holds a token strictly
// between lo and hi.
func anyBetween(toks []int32, lo, hi int) bool {
	i, _ := slices.BinarySearch(toks, int32(lo+1))
	return i < len(toks) && int(toks[i]) < hi
}

// uncondStatement reports whether token k sits in a statement that runs
// in full whenever it starts: an expression statement or declaration,
// not a branch, loop header or short-circuit operand.
func (m memLex) uncondStatement(k int) bool {
	depth := 0
	for j := k - 1; j >= m.lo; j-- {
		switch p := m.p1(j); {
		case p == ')' || p == ']':
			depth++
		case p == '(' || p == '[':
			depth--
		case p == '?' || m.is(j, "&&") || m.is(j, "||"):
			return false
		case depth <= 0 && (p == ';' || p == '{' || p == '}'):
			switch m.text(j + 1) {
			case "if", "while", "switch":
				// Only inside the condition, which always runs.
				c := m.closeOf(j + 2)
				return m.is(j+2, "(") && c > k
			case "for", "do", "else", "case", "default", "return":
				return false
			}
			return true
		}
	}
	return false
}

// uninitMayRead runs the definite-assignment walk for the variable
// declared at token v, over the rest of its block.
func (m memLex) uninitMayRead(v, end int) bool {
	_, scope := m.enclosingBlock(v)
	name := m.text(v)
	d := &memDA{m: m, name: name, use: func(int) bool { return true }}
	return d.mayUse(end+1, m.lastMentionCut(name, end+1, scope))
}

// lastMentionCut returns where a walk over the statements in [from, to)
// may stop for name: after the statement of the block that holds its last
// mention, since no later statement mentions it. The cut lies outside
// every #if group and between whole statements (not before an else, nor
// before the while of a do).
func (m memLex) lastMentionCut(name string, from, to int) int {
	last := -1
	for j := m.lx.FindLast(from, to, name); j >= 0; j = m.lx.FindLast(from, j, name) {
		if m.ident(j) {
			last = j
			break
		}
	}
	if last < 0 {
		return from
	}
	return m.cutAfter(from, to, last)
}

// memGroups follows the #if groups of a forward walk: groups counts
// those opened in the walk; outer is set between the #else of a group the
// walk started in and its #endif.
type memGroups struct {
	groups int
	outer  bool
}

// directive steps over the directive named d.
func (g *memGroups) directive(d string) {
	switch d {
	case "if", "ifdef", "ifndef":
		g.groups++
	case "endif":
		if g.groups > 0 {
			g.groups--
		} else {
			g.outer = false
		}
	case "else", "elif", "elifdef", "elifndef":
		if g.groups == 0 {
			g.outer = true
		}
	}
}

// outside reports a point of the walk outside every #if group and every
// #else branch.
func (g *memGroups) outside() bool { return g.groups == 0 && !g.outer }

// memDepthDelta is what a token starting with each byte adds to the
// bracket depth: one for an opening bracket, minus one for a closing one.
var memDepthDelta = [256]int8{'(': 1, '[': 1, '{': 1, ')': -1, ']': -1, '}': -1}

// cutAfter returns the start of the first statement of [from, to) after
// token last, outside every #if group and between whole statements (see
// lastMentionCut); to when there is none.
func (m memLex) cutAfter(from, to, last int) int {
	depth := 0
	var g memGroups
	// Before last no statement can end the cut: only the bracket depth
	// and the #if groups matter there. The depth is a sum over the tokens'
	// first bytes (a directive's, '#', counts nothing), the groups come
	// from the file's few directives: no per-token branches.
	start := from
	if pre := min(last, to); pre > from {
		for _, t := range m.lx.Tokens[from:pre] {
			depth += int(memDepthDelta[t.First])
		}
		dirs := directiveToks(m.lx)
		i, _ := slices.BinarySearch(dirs, int32(from))
		for ; i < len(dirs) && int(dirs[i]) < pre; i++ {
			g.directive(memDirective(m, int(dirs[i])))
		}
		start = pre
	}
	for j := start; j < to; j++ {
		t := &m.lx.Tokens[j]
		if t.Kind == checkers.TokPreproc {
			g.directive(memDirective(m, j))
			continue
		}
		// A statement ends at a ";" or "}" at depth 0 (not before an
		// else, nor a "}" before the while of a do); asked only from
		// last on, where the cut may be.
		switch t.First {
		case '(', '[', '{':
			depth++
		case ')', ']':
			depth--
		case '}':
			depth--
			if depth == 0 && j >= last && g.outside() && !m.is(j+1, "else") && !m.is(j+1, "while") {
				return j + 1
			}
		case ';':
			if depth == 0 && j >= last && g.outside() && !m.is(j+1, "else") {
				return j + 1
			}
		}
	}
	return to
}

// triageNew keeps a new expression that may fail (nothrow), sizes an
// array with arithmetic, or is held by a local that may leak.
func (m memLex) triageNew(tok int) bool {
	j := tok + 1
	if m.is(j, "(") {
		c := m.closeOf(j)
		for k := j; k < c; k++ {
			if m.is(k, "nothrow") {
				return true
			}
		}
		j = c + 1
	}
	end := m.stmtEnd(tok)
	for k := j; k < end; k++ {
		if m.is(k, "[") {
			if c := m.closeOf(k); c > 0 && m.arith(k+1, c) {
				return true
			}
			break
		}
		if m.is(k, "(") || m.is(k, "{") || m.is(k, ";") {
			break
		}
	}
	ps, pe, ok := m.target(tok)
	return ok && !m.huge(tok) && pe-ps == 1 && m.localName(ps, tok) && m.mayLeak(ps, tok)
}
