package c

import (
	"maps"
	"strings"

	"github.com/jsec/jsec/checkers"
	"github.com/jsec/jsec/checkers/syntax"
)

// Statements of the memory-state walk (see flow.go).

// stmt interprets one statement from state s and returns the state after
// it (dead when control cannot fall through). It may modify s.
func (a *flowAnalysis) stmt(n syntax.Node, s *flowState) *flowState {
	if a.failed || !n.Valid() {
		return s
	}
	if a.budget--; a.budget < 0 {
		a.failed = true
		return s
	}
	if s.dead && !a.labelAnc[n.Index()] {
		return s
	}
	switch n.Kind() {
	case "compound_statement", "translation_unit":
		return a.seq(n, s)
	case "declaration":
		a.decl(n, s)
		return s
	case "expression_statement":
		if c := n.NamedChild(0); c.Valid() && !memVoidCast(c) {
			a.ev(c, s, useRead)
		}
		return s
	case "if_statement":
		return a.ifStmt(n, s)
	case "while_statement":
		return a.loop("while", Condition(n), n.Field("body"), syntax.Node{}, s)
	case "for_statement":
		return a.forStmt(n, s)
	case "for_range_loop":
		a.ev(n.Field("right"), s, useRead)
		return a.loop("range", n.Field("declarator"), n.Field("body"), syntax.Node{}, s)
	case "do_statement":
		return a.loop("do", Condition(n), n.Field("body"), syntax.Node{}, s)
	case "switch_statement":
		return a.switchStmt(n, s)
	case "break_statement", "continue_statement":
		return a.jump(n.Kind() == "break_statement", s)
	case "return_statement", "co_return_statement":
		if e := n.NamedChild(0); e.Valid() && e.Kind() != "comment" {
			a.ev(e, s, useReturn)
		}
		a.exit(n, s)
		return flowDead()
	case "throw_statement":
		if e := n.NamedChild(0); e.Valid() {
			a.ev(e, s, useEscape)
		}
		return flowDead()
	case "goto_statement":
		if lbl := n.Field("label"); lbl.Valid() && !a.back[lbl.Text()] {
			a.gotos[lbl.Text()] = flowMerge(a.gotos[lbl.Text()], s)
		}
		return flowDead()
	case "labeled_statement":
		return a.labeled(n, s)
	case "case_statement":
		return a.seq(n, s)
	case "try_statement":
		return a.tryStmt(n, s)
	case "preproc_if", "preproc_ifdef", "preproc_elif", "preproc_elifdef", "preproc_else":
		return a.preproc(n, s)
	case "ERROR":
		a.havoc(s)
		return s
	case "comment", "function_definition", "type_definition", "struct_specifier", "union_specifier",
		"enum_specifier", "class_specifier", "preproc_def", "preproc_function_def", "preproc_include",
		"preproc_call", "static_assert_declaration", "using_declaration", "alias_declaration",
		"namespace_alias_definition", "empty_statement":
		return s
	case "attributed_statement":
		for c := range n.NamedChildren() {
			if c.Kind() != "attribute_declaration" {
				s = a.stmt(c, s)
			}
		}
		return s
	}
	a.ev(n, s, useRead)
	return s
}

// seq interprets the statements of a block or a case in order.
func (a *flowAnalysis) seq(n syntax.Node, s *flowState) *flowState {
	skip := -1
	for c := range n.NamedChildren() {
		switch {
		case c.Index() == skip || c.FieldName() == "value":
		case memMacroLoop(c):
			// list_for_each(pos, head) { ... }: a loop macro.
			body := c.NextNamedSibling()
			skip = body.Index()
			s = a.loop("macro", c.NamedChild(0), body, syntax.Node{}, s)
		default:
			s = a.stmt(c, s)
		}
	}
	return s
}

func (a *flowAnalysis) ifStmt(n syntax.Node, s *flowState) *flowState {
	t, f := a.cond(Condition(n), s)
	then := a.stmt(n.Field("consequence"), t)
	if alt := n.Field("alternative"); alt.Valid() {
		if alt.Kind() == "else_clause" {
			alt = alt.NamedChild(0)
		}
		f = a.stmt(alt, f)
	}
	return flowMerge(then, f)
}

func (a *flowAnalysis) forStmt(n syntax.Node, s *flowState) *flowState {
	if init := n.Field("initializer"); init.Valid() {
		if init.Kind() == "declaration" {
			a.decl(init, s)
		} else {
			a.ev(init, s, useRead)
		}
	}
	// C++ for loops may hold several initializers under other names.
	for c := range n.NamedChildren() {
		if c.Kind() == "declaration" && c.FieldName() == "" {
			a.decl(c, s)
		}
	}
	return a.loop("for", n.Field("condition"), n.Field("body"), n.Field("update"), s)
}

// jump handles break and continue: the state goes to the innermost target.
func (a *flowAnalysis) jump(isBreak bool, s *flowState) *flowState {
	for i := len(a.loops) - 1; i >= 0; i-- {
		l := a.loops[i]
		if isBreak {
			l.brk = flowMerge(l.brk, s)
			break
		}
		if !l.isSwitch {
			l.cont = flowMerge(l.cont, s)
			break
		}
	}
	return flowDead()
}

func (a *flowAnalysis) labeled(n syntax.Node, s *flowState) *flowState {
	lbl := n.Field("label").Text()
	if g := a.gotos[lbl]; g != nil {
		s = flowMerge(s, g)
	}
	if a.back[lbl] && !s.dead {
		a.havoc(s)
	}
	for c := range n.NamedChildren() {
		if c.FieldName() != "label" {
			s = a.stmt(c, s)
		}
	}
	return s
}

// loop interprets a loop: its head state is iterated to a fixed point
// without recording diagnostics, then the body runs once more from it.
// kind is "while", "for", "do" or "range".
func (a *flowAnalysis) loop(kind string, cond, body, update syntax.Node, s *flowState) *flowState {
	if s.dead && !a.labelAnc[body.Index()] {
		return s
	}
	head := s.clone()
	rec := a.record
	// The first pass records what it finds: when the head state is
	// already the fixed point, the recording pass would repeat it
	// exactly (the same head, the same budget), so its results stand.
	// Otherwise what it recorded is dropped.
	var saved []flowDiag
	var savedSeen map[[2]int]int
	if rec {
		saved, savedSeen = append([]flowDiag(nil), a.diags...), maps.Clone(a.seen)
	}
	budget := a.budget
	exit, back := a.loopOnce(kind, cond, body, update, head.clone())
	if next := flowMerge(s, back); !next.same(head) || a.failed {
		if rec {
			a.diags, a.seen = saved, savedSeen
		}
		head = next
		exit, back = a.iterate(kind, cond, body, update, s, head)
	} else if a.budget -= budget - a.budget; a.budget < 0 {
		a.failed = true // as the recording pass would have
	}
	if !back.dead && !exit.dead && kind != "do" {
		// A variable the body always writes counts as written after the
		// loop: loops that might run zero times are rarely meant to.
		for i := range exit.v {
			if exit.v[i].bits&fbUninit != 0 && back.v[i].bits&fbUninit == 0 {
				exit.v[i] = exit.v[i].without(fbUninit)
				if exit.v[i].bits == 0 {
					exit.v[i] = back.v[i]
				}
			}
		}
	}
	return exit
}

// iterate runs the passes of a loop whose first pass did not reach its
// fixed point, from head, then the recording pass. Each pass records
// too: the pass that finds its head is the fixed point is the recording
// pass (the same head, the same budget, charged twice), so its results
// stand; the others' are dropped.
func (a *flowAnalysis) iterate(kind string, cond, body, update syntax.Node, s, head *flowState) (exit, back *flowState) {
	rec := a.record
	var saved []flowDiag
	var savedSeen map[[2]int]int
	for i := 1; i < 3 && !a.failed; i++ {
		if rec {
			saved, savedSeen = append([]flowDiag(nil), a.diags...), maps.Clone(a.seen)
		}
		budget := a.budget
		ex, bk := a.loopOnce(kind, cond, body, update, head.clone())
		next := flowMerge(s, bk)
		if next.same(head) && !a.failed {
			if a.budget -= budget - a.budget; a.budget < 0 {
				a.failed = true // as the recording pass would have
			}
			return ex, bk
		}
		if rec {
			a.diags, a.seen = saved, savedSeen
		}
		if next.same(head) {
			break
		}
		head = next
	}
	return a.loopOnce(kind, cond, body, update, head)
}

// loopOnce runs one iteration from head and returns the state leaving the
// loop and the state going back to its head.
func (a *flowAnalysis) loopOnce(kind string, cond, body, update syntax.Node, head *flowState) (exit, back *flowState) {
	ctx := &flowLoop{}
	a.loops = append(a.loops, ctx)
	defer func() { a.loops = a.loops[:len(a.loops)-1] }()
	constant, truth := false, false
	if kind != "macro" && kind != "range" {
		constant, truth = flowConstCond(cond, a.scope)
	}
	switch kind {
	case "do":
		out := flowMerge(a.stmt(body, head), ctx.cont)
		switch {
		case constant && !truth:
			exit, back = out, flowDead()
		case constant:
			a.ev(cond, out, useRead)
			exit, back = flowDead(), out
		default:
			back, exit = a.cond(cond, out)
		}
	default:
		var t, f *flowState
		switch {
		case kind == "macro":
			// The macro may assign its arguments on every iteration.
			for _, x := range Args(cond) {
				a.ev(x, head, useMacroArg)
				a.killDependents(PathOf(x), head)
			}
			t, f = head, head.clone()
		case kind == "range":
			// for (T *x : v): x takes a new value on every iteration.
			if slot, ok := a.byPath[declIdent(cond)]; ok && !head.dead {
				head.v[slot] = flowVal{bits: fbUnknown}
				a.killDependents(a.slots[slot].path, head)
			}
			t, f = head, head.clone()
		case !cond.Valid() || constant && truth:
			if cond.Valid() {
				a.ev(cond, head, useRead)
			}
			t, f = head, flowDead()
		case constant:
			t, f = flowDead(), head
		default:
			t, f = a.cond(cond, head)
		}
		out := flowMerge(a.stmt(body, t), ctx.cont)
		if update.Valid() && !out.dead {
			a.ev(update, out, useRead)
		}
		exit, back = f, out
	}
	return flowMerge(exit, ctx.brk), back
}

// flowConstCond evaluates a constant loop condition (while (1), do ...
// while (0)).
func flowConstCond(cond syntax.Node, s *Scope) (constant, truth bool) {
	if !cond.Valid() {
		return false, false
	}
	c := Unparen(cond)
	if c.Kind() == "true" || c.Text() == "true" {
		return true, true
	}
	if c.Kind() == "false" || c.Text() == "false" {
		return true, false
	}
	v, ok := IntValue(c, s.Consts())
	return ok, v != 0
}

func (a *flowAnalysis) switchStmt(n syntax.Node, s *flowState) *flowState {
	a.ev(Condition(n), s, useRead)
	ctx := &flowLoop{isSwitch: true}
	a.loops = append(a.loops, ctx)
	cur := flowDead()
	hasDefault := false
	for c := range n.Field("body").NamedChildren() {
		if c.Kind() == "case_statement" {
			if !c.Field("value").Valid() {
				hasDefault = true
			}
			cur = flowMerge(cur, s)
		}
		cur = a.stmt(c, cur)
	}
	a.loops = a.loops[:len(a.loops)-1]
	out := flowMerge(cur, ctx.brk)
	if !hasDefault {
		out = flowMerge(out, s)
	}
	return out
}

// tryStmt runs the body, then each handler from the union of the states
// the body could throw from (approximated by its entry and exit).
func (a *flowAnalysis) tryStmt(n syntax.Node, s *flowState) *flowState {
	entry := s.clone()
	out := a.stmt(n.Field("body"), s)
	res := out
	for c := range n.NamedChildren() {
		if c.Kind() == "catch_clause" {
			h := flowMerge(entry, out)
			a.havoc(h)
			res = flowMerge(res, a.stmt(c.Field("body"), h))
		}
	}
	return res
}

// preproc treats #if/#else branches inside a function as alternatives.
func (a *flowAnalysis) preproc(n syntax.Node, s *flowState) *flowState {
	if n.Kind() == "preproc_if" || n.Kind() == "preproc_elif" {
		switch Unparen(n.Field("condition")).Text() {
		case "0":
			if alt := n.Field("alternative"); alt.Valid() {
				return a.preproc(alt, s)
			}
			return s
		case "1":
			for c := range n.NamedChildren() {
				if c.FieldName() == "" {
					s = a.stmt(c, s)
				}
			}
			return s
		}
	}
	entry := s.clone()
	for c := range n.NamedChildren() {
		switch c.FieldName() {
		case "condition", "name", "alternative":
			continue
		}
		if c.Kind() == "preproc_call" && strings.ReplaceAll(c.Field("directive").Text(), " ", "") == "#error" {
			s = flowDead() // this configuration does not compile
		}
		s = a.stmt(c, s)
	}
	if alt := n.Field("alternative"); alt.Valid() {
		return flowMerge(s, a.preproc(alt, entry))
	}
	if n.Kind() == "preproc_else" {
		return s
	}
	return flowMerge(s, entry) // the whole #if may be compiled out
}

// decl interprets a declaration: initialisers assign, bare declarators
// leave tracked variables uninitialised.
func (a *flowAnalysis) decl(n syntax.Node, s *flowState) {
	if v := n.Field("value"); v.Valid() {
		// if (T x = e): a condition declaration.
		slot := -1
		if i, ok := a.byPath[declIdent(n.Field("declarator"))]; ok {
			slot = i
		}
		a.assignValue(slot, v, s)
		return
	}
	for d := range n.NamedChildren() {
		if d.FieldName() != "declarator" || s.dead {
			continue
		}
		a.arrayDims(d, s)
		a.killDependents(declIdent(d), s) // a new variable of that name
		if d.Kind() == "init_declarator" {
			slot := -1
			if name := declIdent(d.Field("declarator")); name != "" {
				slot = a.slotOf(d.Field("declarator").Field("declarator"))
				if i, ok := a.byPath[name]; ok {
					slot = i
				}
			}
			val := d.Field("value")
			if val.Kind() == "initializer_list" || val.Kind() == "argument_list" {
				a.ev(val, s, useEscape)
				if slot >= 0 {
					s.v[slot] = flowVal{bits: fbUnknown}
				}
				continue
			}
			a.assignValue(slot, val, s)
			continue
		}
		name := declIdent(d)
		slot, ok := a.byPath[name]
		if !ok {
			continue
		}
		if a.slots[slot].uninit[d.Index()] {
			s.v[slot] = flowOne(fbUninit, n.Field("type").Start())
		} else {
			s.v[slot] = flowVal{bits: fbUnknown}
		}
	}
}

// arrayDims evaluates the size expressions of array declarators (VLAs).
func (a *flowAnalysis) arrayDims(d syntax.Node, s *flowState) {
	for d.Valid() {
		switch d.Kind() {
		case "array_declarator":
			if sz := d.Field("size"); sz.Valid() {
				a.ev(sz, s, useRead)
			}
			d = d.Field("declarator")
		case "init_declarator", "pointer_declarator":
			d = d.Field("declarator")
		default:
			return
		}
	}
}

// havoc forgets everything: the slots may hold anything now.
func (a *flowAnalysis) havoc(s *flowState) {
	if s.dead {
		return
	}
	for i := range s.v {
		s.v[i] = flowVal{bits: fbUnknown}
	}
}

// memVoidCast reports "(void)x;", which silences a warning and reads
// nothing.
func memVoidCast(e syntax.Node) bool {
	e = Unparen(e)
	return e.Kind() == "cast_expression" && e.Field("type").Text() == "void" && Uncast(e).Kind() == "identifier"
}

// memMacroLoop reports the head of a loop macro: a call statement with no
// semicolon, followed by its body (list_for_each(pos, head) { ... }).
func memMacroLoop(n syntax.Node) bool {
	if n.Kind() != "expression_statement" || n.NamedChild(0).Kind() != "call_expression" || !n.NextNamedSibling().Valid() {
		return false
	}
	var last syntax.Node
	for c := range n.Children() {
		last = c
	}
	return last.IsMissing()
}

type parseTroubleKey struct{ fn int }

// memParseTrouble reports parse errors in fn other than loop macros,
// found once per function.
func memParseTrouble(p *checkers.Pass, fn syntax.Node) bool {
	return checkers.Memo(p, parseTroubleKey{fn.Index()}, func() bool { return memParseTroubleWalk(fn) })
}

func memParseTroubleWalk(fn syntax.Node) bool {
	bad := false
	fn.Walk(func(n syntax.Node) bool {
		switch {
		case bad:
		case n.IsError():
			bad = true
		case n.IsMissing():
			bad = !memMacroLoop(n.Parent())
		}
		return !bad
	})
	return bad
}
