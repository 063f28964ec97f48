package c

import "github.com/jsec/jsec/checkers"

// memDA is a token-level definite-assignment walk used by triage: does a
// path from a point reach a use of a variable before every path has
// assigned it? It follows blocks, if/else, loops, switch, return, break,
// continue and goto over tokens, without parsing, and answers "may use"
// whenever the code is unusual (directives, labels it cannot place,
// unbalanced brackets). It is deliberately conservative: the state walk
// of flow.go must never find a use this walk does not.
type memDA struct {
	m    memLex
	name string
	// use decides whether the mention at token k uses the value (a read
	// for uninit; a dereference for NULL).
	use func(k int) bool
	// null: the walk tracks "may still be NULL"; a NULL test of the
	// variable then refines the branches it guards.
	null bool
	// must (with null) turns the NULL walk into its dual: "assigned" means
	// "holds something other than NULL on some path", joins are unions,
	// only a write of a value that cannot be NULL (a call, &x, a string,
	// new) or an ALL-CAPS macro argument sets it, any other write (NULL,
	// another variable) clears it, and the NULL branch of a test clears
	// it. The state walk reports a NULL dereference only where the
	// variable is NULL on every path.
	must bool
	// tested (with null): a NULL test of the variable settles it on both
	// branches. The variable holds a call's maybe-NULL result, which the
	// state walk turns into NULL in the NULL branch: a dereference there
	// is reported for the test, not for the call.
	tested bool
	// collect: record the uses (uses) instead of stopping at the first.
	collect bool
	uses    []int
	// leak turns the walk into its dual for ownership: "assigned" means
	// "released or handed off on some path", joins are unions, handoff
	// decides which mentions give the block away, and reaching a return
	// (or the end) with the block still owned on every path is a finding.
	leak    bool
	handoff func(k int) bool
	// exposed (leak): the variable's address is taken somewhere (&p,
	// &p->f), so the state walk forgets it at every call it knows
	// nothing of (flowAnalysis.markExposed): such a call statement hands
	// the block off.
	exposed bool
	// freed: the variable (or the path of n tokens at ps) was released;
	// every mention but a reassignment uses the dangling value.
	freed bool
	ps, n int
	found bool // a use while not definitely assigned (or gave up)
	// ownedGotos are the gotos taken (leak mode) still owning the block.
	ownedGotos []int
	ctx        []*memDACtx
	// gotos are the states the walk carried to each label (uninit mode):
	// a label every goto to which the walk saw, all before it, starts
	// from their join, as in the state walk's forward gotos.
	gotos map[string]*memDAGoto
}

// memDAGoto is what the walk saw of the gotos to one label.
type memDAGoto struct {
	state bool
	seen  map[int]bool // goto tokens walked
}

// memDACtx is a loop or switch: where break and continue send state.
type memDACtx struct {
	isSwitch  bool
	brkAll    bool // every break so far carried an assigned state
	contAll   bool
	brkAny    bool // some break carried an assigned state
	contAny   bool
	hasBreak  bool
	hasCont   bool
	caseEntry bool // the switch entry state, for case labels
}

// precise reports the walks whose labels join the gotos the walk saw
// (uninit, NULL, freed: "assigned" joins with and); the leak walk keeps
// "a label is reached from anywhere" (see label).
func (d *memDA) precise() bool { return !d.leak && !d.must }

// gotoFrom records the state a "goto L" at token k carries to L.
func (d *memDA) gotoFrom(k int, assigned bool) {
	if !d.precise() || !d.m.ident(k+1) {
		return
	}
	if d.gotos == nil {
		d.gotos = map[string]*memDAGoto{}
	}
	name := d.m.text(k + 1)
	g := d.gotos[name]
	if g == nil {
		g = &memDAGoto{state: d.identity(), seen: map[int]bool{}}
		d.gotos[name] = g
	}
	g.state = d.join(g.state, assigned)
	g.seen[k] = true
}

// label returns the state after the label at token k, entered by falling
// through with assigned (identity when control cannot fall in): the join
// with every goto to it when the walk saw them all, ahead of the label;
// assigned when a later goto jumps back to it (see backLabel); otherwise
// unassigned (reached from anywhere: an earlier goto, one in code the
// walk skipped, a computed goto).
func (d *memDA) label(k int, assigned bool) bool {
	if !d.precise() {
		// Leak: whatever the gotos carry, a block released or handed off
		// on the path that falls in is not owned on every path.
		return assigned
	}
	m := d.m
	name := m.text(k)
	g := d.gotos[name]
	n, labels, back := 0, 0, false
	for i := m.lx.Find(m.lo+1, m.hi, name); i >= 0; i = m.lx.Find(i+1, m.hi, name) {
		if m.is(i+1, ":") {
			labels++
		}
		if j := i - 1; m.is(j, "goto") || m.is(j, "&&") {
			if m.is(j, "&&") {
				return false
			}
			back = back || j > k
			n++
		}
	}
	if back {
		return m.backLabel(labels)
	}
	if n == 0 {
		return assigned
	}
	if g == nil || len(g.seen) != n {
		return false
	}
	return d.join(assigned, g.state)
}

// backLabel is the state after a label that a later goto jumps back to,
// given how many "name :" the item holds. The state walk forgets all it
// knows at such a label (flowAnalysis.labeled: havoc), so from there on
// it reports no read of an uninitialised variable, no dereference of a
// NULL and no use of a freed pointer: the precise walks go on assigned.
// That takes the label to be the function's only one of its name (with
// two, one may be in a lambda or a local class, whose gotos the state
// walk does not see) and no __label__ declaration (a GNU nested
// function's goto to its parent's label, which it does not see either);
// otherwise unassigned, as for a label reached from anywhere.
func (m memLex) backLabel(labels int) bool {
	return labels == 1 && m.lx.Find(m.lo, m.hi, "__label__") < 0
}

// join merges the states of two paths.
func (d *memDA) join(a, b bool) bool {
	if d.leak || d.must {
		return a || b
	}
	return a && b
}

// identity is the state of a path that does not exist.
func (d *memDA) identity() bool { return !d.leak && !d.must }

// mayUse runs the walk over the statements in [from, to) starting
// unassigned and reports whether a use may see the variable unassigned.
func (d *memDA) mayUse(from, to int) bool {
	if d.plain() {
		return d.mayRead(from, to)
	}
	a, f := d.seq(from, to, false, true)
	if d.leak && f && !a {
		d.found = true // falls off the end still owning the block
	}
	return d.found
}

// plain reports the uninitialised-read walk: no NULL, ownership, release
// or collecting mode.
func (d *memDA) plain() bool {
	return !d.null && !d.must && !d.tested && !d.collect && !d.leak && !d.exposed && !d.freed
}

// mayRead is mayUse for the plain walk, which stops at the first
// statement of [from, to) after which the variable is assigned on every
// path with nothing left ahead that could bring control in unassigned:
// from there no statement can make it unassigned again, so no use can
// see it so (the state only goes back through a label some goto
// reaches, a case label, or the other branch of an #if group, and none
// lies ahead; see quietFrom). The rest of the region, often most of the
// function, is not walked. (Walked, code the walk cannot follow there,
// a GNU statement expression say, made it give up: "may use" for a
// variable already assigned everywhere.)
func (d *memDA) mayRead(from, to int) bool {
	d.seqStop(from, to, true, false, true)
	return d.found
}

// quietFrom returns the first token of the quiet tail of [from, to): the
// tokens after its last directive, case or default label, and (in a
// function with a goto) statement label; from when there is none.
func (d *memDA) quietFrom(from, to int) int {
	m := d.m
	jumps := m.jumps()
	gotos := anyBetween(jumps.gotos, m.lo-1, m.hi)
	for j := to - 1; j >= from; j-- {
		t := &m.lx.Tokens[j]
		switch {
		case t.Kind == checkers.TokPreproc:
			return j + 1
		case t.Kind != checkers.TokIdent:
		case (t.First == 'c' || t.First == 'd') && (m.is(j, "case") || m.is(j, "default")):
			return j + 1
		case gotos && m.is(j+1, ":") && !m.is(j+2, ":"):
			return j + 1
		}
	}
	return from
}

// giveUp makes the answer "may use".
func (d *memDA) giveUp() { d.found = true }

// seq walks statements in [from, to), entered with the given state (or
// not at all when falls is false: then only labels lead in); it returns
// the state at the end and whether control can reach it.
func (d *memDA) seq(from, to int, assigned, falls bool) (bool, bool) {
	return d.seqStop(from, to, false, assigned, falls)
}

// seqStop is seq that, with stop, stops after the first statement that
// leaves the variable assigned with control falling through and only a
// quiet tail of the region ahead (mayRead; see quietFrom, asked once, at
// the first such statement).
func (d *memDA) seqStop(from, to int, stop, assigned, falls bool) (bool, bool) {
	if d.name == "" || !IdentByte(d.name[0]) {
		// A path that starts with no name (*p, (*pp)->f): the walk finds
		// the variable's mentions by its name, so it would see none.
		d.giveUp()
		return assigned, falls
	}
	quiet := to + 1 // the quiet tail's start; to + 1 while not known
	for k := from; k < to && !d.found; {
		if !falls {
			// Unreachable here: a case label joins the switch entry
			// state alone, a named label resets the state.
			assigned = d.identity()
		}
		next, a, f := d.stmt(k, to, assigned)
		if next <= k {
			d.giveUp()
			return false, true
		}
		k, assigned, falls = next, a, f
		if stop && assigned && falls {
			if quiet > to {
				quiet = d.quietFrom(k, to)
			}
			if k >= quiet {
				break
			}
		}
	}
	return assigned, falls
}

// stmt walks the statement at k (ending before to) and returns the token
// after it, the state after it and whether control falls through.
func (d *memDA) stmt(k, to int, assigned bool) (next int, after, falls bool) {
	m := d.m
	if m.lx.Kind(k) == checkers.TokPreproc {
		return d.directive(k, to, assigned)
	}
	switch t := m.text(k); {
	case t == "{":
		c := m.closeOf(k)
		if c < 0 || c >= to {
			d.giveUp()
			return to, false, true
		}
		a, f := d.seq(k+1, c, assigned, true)
		return c + 1, a, f
	case t == "if":
		return d.ifStmt(k, to, assigned)
	case t == "while" || t == "for":
		return d.loop(k, to, assigned)
	case t == "do":
		return d.doStmt(k, to, assigned)
	case t == "switch":
		return d.switchStmt(k, to, assigned)
	case t == "return" || t == "throw":
		e := d.exprEnd(k+1, to)
		a := d.expr(k+1, e, assigned)
		if d.leak && t == "return" && !a {
			d.found = true
		}
		return e + 1, assigned, false
	case t == "break" || t == "continue":
		d.jump(t == "break", assigned)
		return k + 2, assigned, false
	case t == "goto":
		d.gotoFrom(k, assigned)
		if d.leak && !assigned {
			d.ownedGotos = append(d.ownedGotos, k)
		}
		return k + 3, assigned, false
	case t == "case" || t == "default":
		// A label inside a switch body: the entry state joins.
		e := k + 1
		for e < to && !m.is(e, ":") {
			e++
		}
		if len(d.ctx) == 0 || !d.ctx[len(d.ctx)-1].isSwitch {
			d.giveUp()
			return to, false, true
		}
		return e + 1, d.join(assigned, d.ctx[len(d.ctx)-1].caseEntry), true
	case t == "else" || t == "}":
		d.giveUp()
		return to, false, true
	case m.ident(k) && m.is(k+1, ":") && !m.is(k+2, ":"):
		return k + 2, d.label(k, assigned), true
	case t == ";":
		return k + 1, assigned, true
	}
	if memMacroLoop1(m, k) {
		return d.macroLoop(k, to, assigned)
	}
	e := d.exprEnd(k, to)
	// One pass for what the statement's identifiers say of it: a
	// declaration of the name (it shadows ours for the rest of this block)
	// and calls that do not return.
	falls = true
	mentions := false // expr has nothing to do without a mention or a ({
	calls := false    // an unknown call (exposed only)
	for j := k; j < e; j++ {
		if t := &m.lx.Tokens[j]; t.Kind != checkers.TokIdent {
			if t.One == '{' && m.is(j-1, "(") {
				mentions = true // a statement expression: expr gives up
			}
			continue
		}
		if m.lx.Is(j, d.name) {
			if d.declaresAt(j) {
				return to, assigned, true
			}
			mentions = true
		}
		if m.is(j+1, "(") {
			// The shape check spares most calls the set lookup.
			if falls && memNoReturnShape.may(&m.lx.Tokens[j]) && memNoReturnWords.MayHave(m.lx, j) {
				falls = !memNoReturn[string(m.word(j))]
			}
			calls = calls || d.exposed && memUnknownCall(string(m.word(j)))
		}
	}
	if mentions {
		assigned = d.expr(k, e, assigned)
	}
	return e + 1, assigned || calls, falls
}

// memNoReturnWords is the WordSet of memNoReturn, for the calls
// memNoReturnShape lets through.
var memNoReturnWords = checkers.NewWordSet(memKeys(memNoReturn))

// exprEnd returns the ";" that ends the expression statement at k.
func (d *memDA) exprEnd(k, to int) int {
	m := d.m
	for j := k; j < to; j++ {
		switch m.p1(j) {
		case '(', '[', '{':
			c := m.closeOf(j)
			if c < 0 || c >= to {
				return to
			}
			j = c
		case ';':
			return j
		case '}':
			return to
		case 0, '#':
			if m.lx.Kind(j) == checkers.TokPreproc {
				return to
			}
		}
	}
	return to
}

// declares reports a declaration of the variable's name in [k, e).
func (d *memDA) declares(k, e int) bool {
	m := d.m
	for j := k; j < e; j++ {
		if m.ident(j) && m.lx.Is(j, d.name) && d.declaresAt(j) {
			return true
		}
	}
	return false
}

// declaresAt reports whether the name at token j is being declared.
func (d *memDA) declaresAt(j int) bool {
	m := d.m
	switch {
	case m.is(j-1, "*"):
		return m.ident(j-2) && !m.notType(j-2) || m.is(j-2, "*") || m.is(j-2, ",") && m.inDeclaration(j-2)
	case m.ident(j - 1):
		return !m.notType(j-1) && (m.is(j+1, "=") || m.is(j+1, ";") || m.is(j+1, ","))
	case m.is(j-1, ","):
		// The second name of a declaration: int a, i; (not return a, i;)
		return (m.is(j+1, "=") || m.is(j+1, ";") || m.is(j+1, ",") || m.is(j+1, "[")) && m.inDeclaration(j-1) &&
			!m.notType(m.stmtStartBefore(j))
	}
	return false
}

// stmtStartBefore returns the first token of the statement that holds
// token j (after the last ";", "{" or "}" at its depth).
func (m memLex) stmtStartBefore(j int) int {
	depth := 0
	for k := j - 1; k >= m.lo; k-- {
		switch m.p1(k) {
		case ')', ']':
			depth++
		case '(', '[':
			depth--
		case ';', '{', '}':
			if depth <= 0 {
				return k + 1
			}
		}
	}
	return m.lo
}

// testOf reports whether the condition [from, to) is one NULL test of
// the variable, and whether it holds when the variable is NULL.
func (d *memDA) testOf(from, to int) (isNull, ok bool) {
	m := d.m
	at := from
	if m.is(at, "!") {
		at++
	}
	if !m.ident(at) || !m.lx.Is(at, d.name) {
		return false, false
	}
	if d.n > 1 && (!m.samePath(at, d.ps, d.n) || m.pathEnd(at) != at+d.n) {
		return false, false // a test of the root, not of the path
	}
	return m.simpleNullTest(from, to)
}

// expr scans the expression [from, to) for mentions and returns the
// state after it: uses are checked against the state before; a write
// (name = …, &name) counts when no && || ?: precedes it.
func (d *memDA) expr(from, to int, assigned bool) bool {
	return d.after(d.scan(from, to, assigned), assigned)
}

// after returns the state after an expression the scan x walked.
func (d *memDA) after(x exprScan, assigned bool) bool {
	if d.must {
		if x.last >= 0 {
			assigned = x.last == 1
		}
		return assigned || x.orTrue
	}
	return assigned || x.wrote
}

// branches returns the states an if's condition in [from, to) leaves on
// its true and its false branch. In the uninit walk a pure chain of &&s
// enters the true branch only after every operand ran, and a pure chain
// of ||s the false branch: a write in any operand counts there, as in the
// state walk's cond.
func (d *memDA) branches(from, to int, assigned bool) (t, f bool) {
	x := d.scan(from, to, assigned)
	a := d.after(x, assigned)
	if d.null || d.leak || d.must || d.freed || x.directive {
		return a, a
	}
	return a || x.chain && x.wroteOp, a || x.orChain && x.orWrote
}

// chainTest reports whether a condition made of operands joined by &&
// alone holds a non-NULL test of the variable (the true branch sees it
// non-NULL), or one joined by || alone a NULL test (the false branch
// does), as the state walk's cond refines operand by operand.
func (d *memDA) chainTest(from, to int) (then, els bool) {
	m := d.m
	var ands, ors []int
	mentions := 0
	for k := from; k < to; k++ {
		if m.lx.Is(k, d.name) {
			mentions++ // the test's alone: another operand could assign it
		}
		switch p := m.p1(k); {
		case p == '(' || p == '[' || p == '{':
			if c := m.closeOf(k); c > k && c < to {
				k = c
			}
		case p == '?' || p == ',':
			return false, false
		case m.is(k, "&&"):
			ands = append(ands, k)
		case m.is(k, "||"):
			ors = append(ors, k)
		}
	}
	cuts, wantNull := ands, false
	if len(ors) > 0 {
		cuts, wantNull = ors, true
	}
	if len(cuts) == 0 || mentions != 1 {
		return false, false
	}
	start := from
	for _, cut := range append(cuts, to) {
		// Operands of ||s may hold &&s (a && b || !p); a test is one
		// whole operand.
		if isNull, ok := d.testOf(start, cut); ok && isNull == wantNull {
			return !wantNull, wantNull
		}
		start = cut + 1
	}
	return false, false
}

// scan walks the expression in [from, to) for the variable's mentions.
func (d *memDA) scan(from, to int, assigned bool) exprScan {
	m := d.m
	x := exprScan{chain: true, orChain: true, last: -1}
	for j := from; j < to && !d.found; j++ {
		// Dispatch on the token's kind and first byte: this loop sees
		// every token of every statement the walk crosses.
		t := &m.lx.Tokens[j]
		if t.Kind != checkers.TokIdent {
			d.exprPunct(j, t, &x)
			continue
		}
		if !m.lx.Is(j, d.name) {
			if m.is(j+1, "(") && memSizeofSet.MayHave(m.lx, j) && memSizeofWords[string(m.word(j))] {
				if c := m.closeOf(j + 1); c > 0 {
					j = c
				}
			}
			continue
		}
		if !m.noVariable(j) {
			d.exprMention(j, assigned, &x)
		}
	}
	return x
}

// exprScan is the state of one expr scan.
type exprScan struct {
	cond, wrote, guarded bool
	// In a chain of &&s at the top level, with no || or ?: before, an
	// operand runs only after the ones before it: f(&p) && *p reads p
	// written (chain: no other conditional operator so far; definite: an
	// earlier operand wrote; wroteOp: the current one did).
	depth                    int
	chain, definite, wroteOp bool
	// The same for a chain of ||s at the top level with no && or ?:
	// anywhere: an operand runs only after the ones before it were
	// false, so it sees their writes (orDefinite), and the false branch
	// sees every operand's (orWrote).
	orChain, orDefinite, orWrote bool
	directive                    bool // a directive inside the expression
	// must: the value of the last unconditional write (-1: none) and
	// whether a conditional one may store something other than NULL.
	last   int
	orTrue bool
}

// exprPunct follows the brackets and the conditional operators of an
// expression.
func (d *memDA) exprPunct(j int, t *checkers.Token, x *exprScan) {
	m := d.m
	switch n := t.End - t.Start; {
	case n == 1:
		switch t.First {
		case '(', '[':
			x.depth++
		case ')', ']':
			x.depth--
		case '?':
			x.cond, x.chain, x.orChain = true, false, false
		case '{':
			if m.is(j-1, "(") {
				d.giveUp() // a statement expression
			}
		}
	case n == 2 && (m.is(j, "&&") || m.is(j, "||")):
		x.cond = true
		if t.First == '&' && x.depth == 0 && x.chain {
			x.definite = x.definite || x.wroteOp
		} else {
			x.chain = false
		}
		if t.First == '|' && x.depth == 0 && x.orChain {
			x.orDefinite = x.orDefinite || x.orWrote
		} else {
			x.orChain = false
		}
	}
	if t.Kind == checkers.TokPreproc {
		x.directive = true
	}
}

// exprMention applies the mention of the variable at token j: a guard, a
// write (by mode) or a use checked against the state before the
// expression.
func (d *memDA) exprMention(j int, assigned bool, x *exprScan) {
	m := d.m
	if d.null && d.guards(j) {
		x.guarded = true // p && p->x, !p || p->x: the rest sees p non-NULL
		return
	}
	if m.is(j-1, "->") || m.is(j-1, ".") {
		return
	}
	e := j + 1
	if d.n > 1 {
		if !m.samePath(j, d.ps, d.n) {
			// Another path through the same root: reassigning the
			// root gives the freed path a new base.
			if m.is(j+1, "=") || m.is(j-1, "*") && m.is(j+1, "=") {
				x.wrote = x.wrote || !x.cond
			}
			return
		}
		e = j + d.n
	}
	// &name writes it (through the address); &name->f does not.
	addr := m.addrTaken(j-1) && !m.is(e, "->") && !m.is(e, ".") && !m.is(e, "[")
	write := m.is(e, "=") && !m.unaryStar(j-1) || addr // *p = x writes through p
	switch {
	case d.freed:
		if write && !m.rhsMentions(e+1, d.name) {
			x.wrote = x.wrote || !x.cond
		} else if !assigned {
			d.found = true
		}
		return
	case d.leak:
		x.wrote = x.wrote || write || d.handoff(j)
		return
	case d.must:
		if macro := !write && d.opaqueArg(j) && flowMacroName(m.callOf(j)); write || macro {
			val := addr || macro || m.surelyNonNull(e+1)
			if x.cond {
				x.orTrue = x.orTrue || val
			} else {
				x.last, x.orTrue = 0, false
				if val {
					x.last = 1
				}
			}
			x.wroteOp = x.wroteOp || val
			return
		}
	}
	if !write && d.opaqueArg(j) && (!d.null || flowMacroName(m.callOf(j))) {
		// Handed to a macro or an unknown function: the state walk lets
		// it write the variable (FOO(x), f(x) in C++ by reference). A
		// NULL survives f(x) in C: only a macro counts for it (C++
		// references keep the walk conservative).
		write = true
	}
	if write {
		x.wrote = x.wrote || !x.cond
		x.wroteOp, x.orWrote = true, true
		return
	}
	if !assigned && !x.guarded && !(x.chain && x.definite) && !(x.orChain && x.orDefinite) && d.use(j) {
		if d.collect {
			d.uses = append(d.uses, j)
		} else {
			d.found = true
		}
	}
}

// surelyNonNull reports whether the value assigned from token i on can
// never be NULL to the state walk (flowAnalysis.classify): a call alone,
// &x, a string literal or new, after any casts.
func (m memLex) surelyNonNull(i int) bool {
	for m.is(i, "(") {
		c := m.closeOf(i)
		if c < 0 {
			return false
		}
		for k := i + 1; k < c; k++ {
			if !m.ident(k) && !m.is(k, "*") {
				return false // not a cast
			}
		}
		i = c + 1
	}
	switch {
	case m.is(i, "&") || m.is(i, "new") || m.lx.Kind(i) == checkers.TokString && m.lo <= i && i < m.hi:
		return true
	case m.ident(i) && m.is(i+1, "(") && !m.is(i, "NULL"):
		c := m.closeOf(i + 1)
		return c > 0 && (m.is(c+1, ";") || m.is(c+1, ",") || m.is(c+1, ")"))
	}
	return false
}

// memSizeofWords are the operators whose operand is not evaluated.
var memSizeofWords = map[string]bool{"sizeof": true, "_Alignof": true, "alignof": true, "typeof": true, "__typeof__": true}

// memSizeofSet is the WordSet of memSizeofWords.
var memSizeofSet = checkers.NewWordSet(memKeys(memSizeofWords))

func (d *memDA) ifStmt(k, to int, assigned bool) (int, bool, bool) {
	m := d.m
	if !m.is(k+1, "(") {
		d.giveUp()
		return to, false, true
	}
	c := m.closeOf(k + 1)
	if c < 0 || c >= to {
		d.giveUp()
		return to, false, true
	}
	aThen, aElse := d.branches(k+2, c, assigned)
	a := aThen && aElse
	isNull, ok := d.testOf(k+2, c)
	if !ok && d.null && !d.tested {
		// if (n && p): the true branch sees p non-NULL; if (n || !p)
		// the false branch.
		then, els := d.chainTest(k+2, c)
		return d.branchStmts(c+1, to, assigned, a || then, a || els)
	}
	if ok && (d.null || d.leak) {
		// "assigned" is "not NULL" for null, "not owned" for leak.
		nullState, otherState := a, true
		if d.leak {
			nullState, otherState = true, a
		}
		if d.must {
			nullState = false // the NULL branch holds NULL on every path
		}
		if d.tested {
			nullState = true
		}
		aThen, aElse = otherState, nullState
		if isNull {
			aThen, aElse = nullState, otherState
		}
	}
	return d.branchStmts(c+1, to, assigned, aThen, aElse)
}

// branchStmts walks an if's statement at k and its else, entered with
// the states of the condition's branches.
func (d *memDA) branchStmts(k, to int, assigned, aThen, aElse bool) (int, bool, bool) {
	m := d.m
	n1, a1, f1 := d.stmt(k, to, aThen)
	if d.plain() && n1 < to && m.lx.Kind(n1) == checkers.TokPreproc {
		if next, a, f, ok := d.elseArms(n1, to, aElse, a1, f1); ok {
			return next, a, f
		}
	}
	if !m.is(n1, "else") {
		if !f1 {
			return n1, aElse, true
		}
		return n1, d.join(a1, aElse), true
	}
	n2, a2, f2 := d.stmt(n1+1, to, aElse)
	switch {
	case f1 && f2:
		return n2, d.join(a1, a2), true
	case f1:
		return n2, a1, true
	case f2:
		return n2, a2, true
	}
	return n2, assigned, false
}

// elseArms walks the arms of an if-else chain that an #if group splits:
// the group right after the then-statement (its state a1, falling through
// f1), each of its branches empty or "else …", and an else after it or
// none:
//
//	if (a) x = 1;
//	#ifdef V6
//	else if (b) x = 2;
//	#endif
//	else continue;
//
// Each configuration is a chain of its own: the then-statement, the arms
// of one branch (or none, when a branch is empty or the group may be
// compiled out), the else after the group taking the false path of the
// branch's last if. The state after it all joins them. ok is false, and
// nothing walked, when the group is not of that form.
func (d *memDA) elseArms(k, to int, aElse, a1, f1 bool) (next int, a, f, ok bool) {
	m := d.m
	switch memDirective(m, k) {
	case "if", "ifdef", "ifndef":
	default:
		return 0, false, false, false
	}
	branches, end := m.directiveGroup(k, to)
	if end < 0 {
		return 0, false, false, false
	}
	absent := len(branches) < 2 || memDirective(m, branches[len(branches)-1][0]-1) != "else"
	for _, b := range branches {
		if b[0] == b[1] {
			absent = true
		} else if !m.is(b[0], "else") || !m.balanced(b[0], b[1]) {
			return 0, false, false, false
		}
	}
	next = end + 1
	final := -1 // the statement of the else after the group
	if m.is(next, "else") {
		final = next + 1
		// Where it ends, from a walk that finds nothing (entered with
		// the state of a path that does not exist).
		next, _, _ = d.stmt(final, to, d.identity())
	}
	// tail walks what follows a chain's last if on its false path.
	tail := func(entry bool) (bool, bool) {
		if final < 0 {
			return entry, true
		}
		_, ta, tf := d.stmt(final, to, entry)
		return ta, tf
	}
	a, f = d.identity(), false
	add := func(ai, fi bool) {
		if fi {
			a, f = d.join(a, ai), true
		}
	}
	add(a1, f1)
	for _, b := range branches {
		if b[0] < b[1] {
			add(d.arm(b[0]+1, b[1], aElse, tail))
		}
	}
	if absent {
		add(tail(aElse))
	}
	if !f {
		return next, a1, false, true
	}
	return next, a, true, true
}

// arm walks the tokens [k, end) after an "else" in a branch of elseArms'
// group, entered with entry: "if (c) S", with an "else …" of its own or
// with tail taking its false path, or a last statement.
func (d *memDA) arm(k, end int, entry bool, tail func(bool) (bool, bool)) (bool, bool) {
	m := d.m
	if !m.is(k, "if") || !m.is(k+1, "(") {
		n, a, f := d.stmt(k, end, entry)
		if n != end {
			d.giveUp()
		}
		return a, f
	}
	c := m.closeOf(k + 1)
	if c < 0 || c >= end {
		d.giveUp()
		return false, true
	}
	aThen, aElse := d.branches(k+2, c, entry)
	n1, a1, f1 := d.stmt(c+1, end, aThen)
	var a2, f2 bool
	switch {
	case n1 < end && m.is(n1, "else"):
		a2, f2 = d.arm(n1+1, end, aElse, tail)
	case n1 == end:
		a2, f2 = tail(aElse)
	default:
		d.giveUp()
		return false, true
	}
	switch {
	case f1 && f2:
		return d.join(a1, a2), true
	case f1:
		return a1, true
	case f2:
		return a2, true
	}
	return entry, false
}

func (d *memDA) loop(k, to int, assigned bool) (int, bool, bool) {
	m := d.m
	if !m.is(k+1, "(") {
		d.giveUp()
		return to, false, true
	}
	c := m.closeOf(k + 1)
	if c < 0 || c >= to {
		d.giveUp()
		return to, false, true
	}
	var a, exit bool
	update := -1
	if m.is(k, "for") {
		s1 := d.exprEnd(k+2, c)
		if s1 >= c {
			d.giveUp()
			return to, false, true
		}
		if d.declares(k+2, s1) {
			return m.stmtEnd(k), assigned, true // the loop has its own variable
		}
		a = d.expr(k+2, s1, assigned)
		s2 := d.exprEnd(s1+1, c)
		if s2 >= c {
			d.giveUp()
			return to, false, true
		}
		a, exit = d.branches(s1+1, s2, a)
		update = s2 + 1
	} else {
		a, exit = d.branches(k+2, c, assigned)
	}
	// a: the state entering the body; exit: leaving by the condition.
	ctx := &memDACtx{brkAll: true, contAll: true}
	d.ctx = append(d.ctx, ctx)
	n, a1, f1 := d.stmt(c+1, to, a)
	d.ctx = d.ctx[:len(d.ctx)-1]
	back := f1 || ctx.hasCont
	if d.leak || d.must {
		end := f1 && a1 || ctx.contAny
		if update > 0 {
			end = d.expr(update, c, end)
		}
		return n, a || end || ctx.brkAny, true
	}
	endAssigned := (!f1 || a1) && (!ctx.hasCont || ctx.contAll)
	if update > 0 {
		d.expr(update, c, endAssigned && back)
	}
	return n, exit || back && endAssigned, true
}

func (d *memDA) doStmt(k, to int, assigned bool) (int, bool, bool) {
	m := d.m
	ctx := &memDACtx{brkAll: true, contAll: true}
	d.ctx = append(d.ctx, ctx)
	n, a1, f1 := d.stmt(k+1, to, assigned)
	d.ctx = d.ctx[:len(d.ctx)-1]
	if !m.is(n, "while") || !m.is(n+1, "(") {
		d.giveUp()
		return to, false, true
	}
	c := m.closeOf(n + 1)
	if c < 0 || c >= to {
		d.giveUp()
		return to, false, true
	}
	if d.leak || d.must {
		a := d.expr(n+2, c, f1 && a1 || ctx.contAny)
		return c + 2, a || ctx.brkAny, true
	}
	endAssigned := (!f1 || a1) && (!ctx.hasCont || ctx.contAll) && (f1 || ctx.hasCont)
	a := d.expr(n+2, c, endAssigned)
	after := a && (!ctx.hasBreak || ctx.brkAll)
	return c + 2, after, true
}

func (d *memDA) switchStmt(k, to int, assigned bool) (int, bool, bool) {
	m := d.m
	if !m.is(k+1, "(") {
		d.giveUp()
		return to, false, true
	}
	c := m.closeOf(k + 1)
	if c < 0 || c >= to || !m.is(c+1, "{") {
		d.giveUp()
		return to, false, true
	}
	a := d.expr(k+2, c, assigned)
	end := m.closeOf(c + 1)
	if end < 0 || end >= to {
		d.giveUp()
		return to, false, true
	}
	ctx := &memDACtx{isSwitch: true, brkAll: true, contAll: true, caseEntry: a}
	d.ctx = append(d.ctx, ctx)
	a1, f1 := d.seq(c+2, end, d.identity(), false)
	d.ctx = d.ctx[:len(d.ctx)-1]
	if len(d.ctx) > 0 && ctx.hasCont {
		d.jump(false, ctx.contAll)
	}
	hasDefault := false
	for j := c + 2; j < end; j++ {
		hasDefault = hasDefault || m.is(j, "default") && m.is(j+1, ":")
	}
	if d.leak || d.must {
		return end + 1, f1 && a1 || ctx.brkAny || !hasDefault && a, true
	}
	after := (!f1 || a1) && (!ctx.hasBreak || ctx.brkAll) && (hasDefault || a)
	return end + 1, after, true
}

// macroLoop walks "name(args) { body }" as a loop.
func (d *memDA) macroLoop(k, to int, assigned bool) (int, bool, bool) {
	m := d.m
	c := m.closeOf(k + 1)
	a := d.expr(k+2, c, assigned)
	ctx := &memDACtx{brkAll: true, contAll: true}
	d.ctx = append(d.ctx, ctx)
	n, a1, f1 := d.stmt(c+1, to, a)
	d.ctx = d.ctx[:len(d.ctx)-1]
	if d.leak || d.must {
		return n, a || f1 && a1 || ctx.contAny || ctx.brkAny, true
	}
	return n, a, true
}

// memMacroLoop1 reports "name ( … ) {" at k, where name is no keyword: a
// loop macro; or "name ( … )" followed by a statement keyword or by a
// call, which no call can be: a loop macro with a one-statement body
// (for_each_string_list_item(item, list) if (…) …; … strbuf_addf(…);).
func memMacroLoop1(m memLex, k int) bool {
	if !m.ident(k) || !m.is(k+1, "(") || m.notType(k) {
		return false
	}
	c := m.closeOf(k + 1)
	if c <= 0 {
		return false
	}
	switch m.text(c + 1) {
	case "{", "if", "for", "while", "do", "switch", "return":
		return true
	}
	// "name(…) f(…);": no call is followed by a name either.
	return m.ident(c+1) && m.is(c+2, "(")
}

// jump records a break or continue in the innermost loop or switch.
func (d *memDA) jump(isBreak bool, assigned bool) {
	for i := len(d.ctx) - 1; i >= 0; i-- {
		c := d.ctx[i]
		if isBreak {
			c.hasBreak = true
			c.brkAll = c.brkAll && assigned
			c.brkAny = c.brkAny || assigned
			return
		}
		c.hasCont = true
		c.contAll = c.contAll && assigned
		c.contAny = c.contAny || assigned
		if !c.isSwitch {
			return
		}
	}
}

// directive walks a preprocessor directive at k: the branches of an
// #if group as alternatives (as the state walk does), anything else as
// nothing. Groups whose branches are not whole statements give up.
func (d *memDA) directive(k, to int, assigned bool) (int, bool, bool) {
	m := d.m
	switch memDirective(m, k) {
	case "if", "ifdef", "ifndef":
	case "else", "elif", "elifdef", "elifndef":
		// The walk started inside a group: the other branches are another
		// configuration, where the variable is not this one.
		return d.skipGroup(k, to), assigned, true
	default: // #endif of a group the walk started in, #define, #pragma …
		return k + 1, assigned, true
	}
	branches, end := m.directiveGroup(k, to)
	if end < 0 {
		d.giveUp()
		return to, false, true
	}
	hasElse := len(branches) > 1 && memDirective(m, branches[len(branches)-1][0]-1) == "else"
	outA, outF := d.identity(), false
	if !hasElse {
		outA, outF = assigned, true // the whole group may be compiled out
	}
	for _, b := range branches {
		if !m.balanced(b[0], b[1]) {
			d.giveUp()
			return to, false, true
		}
		a, f := d.seq(b[0], b[1], assigned, true)
		if f {
			outA, outF = d.join(outA, a), true
		}
	}
	return end + 1, outA, outF
}

// directiveGroup returns the branches of the #if group whose #if (#ifdef,
// #ifndef) is token k, each the tokens between two of its directives, and
// its #endif: end is -1 when the group does not end before to.
func (m memLex) directiveGroup(k, to int) (branches [][2]int, end int) {
	start, depth, end := k+1, 0, -1
	for j := k + 1; j < to && end < 0; j++ {
		if m.lx.Kind(j) != checkers.TokPreproc {
			continue
		}
		switch memDirective(m, j) {
		case "if", "ifdef", "ifndef":
			depth++
		case "endif":
			if depth == 0 {
				branches = append(branches, [2]int{start, j})
				end = j
			}
			depth--
		case "else", "elif", "elifdef", "elifndef":
			if depth == 0 {
				branches = append(branches, [2]int{start, j})
				start = j + 1
			}
		}
	}
	return branches, end
}

// memDirective returns the name of the directive token k (if, else …).
func memDirective(m memLex, k int) string {
	t := m.lx.Tokens[k]
	name, _ := directiveWord(m.lx.Src[t.Start:t.End])
	return name
}

// balanced reports whether the brackets in [from, to) pair up.
func (m memLex) balanced(from, to int) bool {
	depth := 0
	for j := from; j < to; j++ {
		switch m.p1(j) {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
			if depth < 0 {
				return false
			}
		}
	}
	return depth == 0
}

// skipGroup returns the token after the #endif that closes the group
// whose #else (or #elif) is at k.
func (d *memDA) skipGroup(k, to int) int {
	m := d.m
	depth := 0
	for j := k + 1; j < to; j++ {
		if m.lx.Kind(j) != checkers.TokPreproc {
			continue
		}
		switch memDirective(m, j) {
		case "if", "ifdef", "ifndef":
			depth++
		case "endif":
			if depth == 0 {
				return j + 1
			}
			depth--
		}
	}
	return to
}

// guards reports a test of the variable at j after which the rest of its
// expression only runs when the variable is not NULL: "p &&", "p != NULL
// &&", "!p ||", "p == NULL ||".
func (d *memDA) guards(j int) bool {
	m := d.m
	e := j + 1
	if d.n > 1 {
		// The walk follows a path (p->f): only a test of that path
		// guards it, not one of its root.
		if !m.samePath(j, d.ps, d.n) || m.pathEnd(j) != j+d.n {
			return false
		}
		e = j + d.n
	}
	neg := m.is(j-1, "!")
	if m.is(e, "==") || m.is(e, "!=") {
		if !(m.is(e+1, "NULL") || m.is(e+1, "nullptr") || m.is(e+1, "0")) || neg {
			return false
		}
		neg = m.is(e, "==")
		e += 2
	}
	if !(m.is(j-1, "(") || m.is(j-1, "!") || m.is(j-1, "&&") || m.is(j-1, "||")) {
		return false
	}
	return !neg && m.is(e, "&&") || neg && m.is(e, "||")
}

// opaqueArg reports a bare argument (the whole argument is the variable)
// of a call that is no known reader, releaser or dereferencer: a macro or
// a function the state walk lets write its argument.
func (d *memDA) opaqueArg(j int) bool {
	m := d.m
	if !(m.is(j-1, "(") || m.is(j-1, ",")) || !(m.is(j+1, ")") || m.is(j+1, ",")) {
		return false
	}
	f := m.callOf(j)
	if f == "" || memNotType[f] || f == "if" || f == "while" || f == "switch" || f == "for" {
		return false
	}
	if c := m.argsClose(j); c > 0 && !m.callParen(m.lx.Open(c)) {
		return false // grouping parentheses, no call: x = (n); reads n
	}
	_, reads := memDerefArgs[f]
	return !reads && !memKeepArgs[f] && !memDeallocators[f] && !memReallocators[f]
}

// callParen reports whether the "(" at o opens a call's arguments: a
// name, or a ")" or "]" that ends no statement keyword's condition
// ((*fp)(x), not if (c) (x)), stands before it.
func (m memLex) callParen(o int) bool {
	if o <= m.lo {
		return true
	}
	p := o - 1
	if m.ident(p) {
		return true
	}
	if m.is(p, ")") {
		switch m.text(m.lx.Open(p) - 1) {
		case "if", "while", "for", "switch":
			return false
		}
		return true
	}
	return m.is(p, "]")
}

// argsClose returns the ")" that closes the brackets around token j, or
// -1.
func (m memLex) argsClose(j int) int {
	depth := 0
	for k := j + 1; k < m.hi; k++ {
		switch m.p1(k) {
		case '(', '[':
			depth++
		case ']':
			depth--
		case ')':
			if depth == 0 {
				return k
			}
			depth--
		case ';', '{', '}':
			return -1
		}
	}
	return -1
}

// memUnknownCall reports a callee the state walk treats as an ordinary
// call it knows nothing of (flowAnalysis.args without keep).
func memUnknownCall(w string) bool {
	if _, known := memDerefArgs[w]; known {
		return false
	}
	switch w {
	case "if", "while", "for", "switch", "return", "sizeof", "_Alignof", "alignof", "typeof", "__typeof__", "defined":
		return false
	}
	return !memKeepArgs[w] && !memDeallocators[w] && !memReallocators[w] && !memNoReturn[w] &&
		!memAssertions[w] && !memRefutations[w] && !memOutInit[w]
}
