package c

import (
	"github.com/jsec/jsec/checkers"
	"github.com/jsec/jsec/checkers/syntax"
)

// Calls, NULL tests and frees in the memory-state walk (see flow.go).

// call interprets a call: its arguments by what the callee does with
// them, then its effect on the path (no return, assertion).
func (a *flowAnalysis) call(n syntax.Node, s *flowState, mode flowUse) {
	name := CalleeName(n)
	if fnode := n.Field("function"); name == "" || a.slotOf(fnode) >= 0 {
		a.ev(fnode, s, useDeref) // a call through a pointer dereferences it
	}
	args := Args(n)
	prev := a.curCall
	a.curCall = name
	defer func() { a.curCall = prev }()
	// Most callees are none of the lists': one hash tells, not nine map
	// lookups.
	known := memCallWords.MayHaveString(name)
	switch {
	case known && memDeallocators[name] && len(args) > 0:
		for _, x := range args[1:] {
			a.ev(x, s, useRead)
		}
		a.free(args[0], n, s)
	case known && memReallocators[name] && len(args) > 0:
		a.ev(args[0], s, useArgKeep)
		for _, x := range args[1:] {
			a.ev(x, s, useRead)
		}
	case known && memNoReturn[name], !known && name != "" && memFileNoReturn(a.p.Lex)[name]:
		for _, x := range args {
			a.ev(x, s, useArgKeep)
		}
		s.dead = true
	case known && (memAssertions[name] || memRefutations[name]) && len(args) > 0:
		t, f := a.cond(args[0], s)
		if memRefutations[name] {
			t = f
		}
		*s = *t
	case known && memOutInit[name] && len(args) > 0:
		if slot := a.slotOf(args[0]); slot >= 0 {
			s.v[slot] = flowVal{bits: fbUnknown}
		}
		for _, x := range args[1:] {
			a.ev(x, s, useRead)
		}
	default:
		a.args(name, args, s, known)
	}
	if mode == useDeref || mode == useArgDeref {
		a.derefCall(n)
	}
}

// args evaluates the arguments of an ordinary call; listed is false when
// memCallWords says the callee is in none of the lists.
func (a *flowAnalysis) args(name string, args []syntax.Node, s *flowState, listed bool) {
	var derefs, writes []int
	var known, keep bool
	if listed {
		derefs, known = memDerefArgs[name]
		keep = known || memKeepArgs[name]
		writes = memWrites[name]
	}
	macro := !a.cpp && flowMacroName(name) || memBlockArg(args)
	for i, x := range args {
		switch {
		case known && memHasInt(derefs, i):
			a.ev(x, s, useArgDeref)
		case keep:
			a.ev(x, s, useArgKeep)
		case macro:
			a.ev(x, s, useMacroArg)
			a.killDependents(PathOf(x), s)
		default:
			a.ev(x, s, useArgUnknown)
		}
	}
	for _, i := range writes {
		if i < len(args) && !s.dead {
			a.killDependents(PathOf(memPointerBase(args[i])), s) // memmove(pool, pool + 1, n)
		}
	}
	if keep || s.dead {
		return
	}
	// An unknown call may change globals, and what it is given a pointer
	// to: forget slots rooted there.
	for i, sl := range a.slots {
		if sl.global || sl.exposed || sl.field && flowMentions(args, sl.root) {
			s.v[i] = flowVal{bits: fbUnknown}
		}
	}
}

// memCallWords holds the callees call and args look up.
var memCallWords = checkers.NewWordSet(memKeys(memDeallocators), memKeys(memReallocators), memKeys(memNoReturn),
	memKeys(memAssertions), memKeys(memRefutations), memKeys(memOutInit), memKeys(memDerefArgs), memKeys(memKeepArgs), memKeys(memWrites))

// derefCall reports a call result that is dereferenced on the spot:
// localtime(&t)->tm_year, memset(malloc(n), 0, n).
func (a *flowAnalysis) derefCall(n syntax.Node) {
	name := CalleeName(n)
	d := flowDiag{at: n, keys: []int32{int32(calleeKey(n))}, slot: -1, how: a.describe(n, useDeref)}
	switch {
	case memAllocators[name] == memMayFail:
		d.kind = fdUncheckedAlloc
	case a.mayReturnNull(n):
		d.kind = fdUncheckedCall
	default:
		return
	}
	if p := n.Parent(); p.Kind() == "argument_list" {
		d.how = "passed to " + CalleeName(p.Parent()) + "()"
	}
	a.diag(d)
}

// free releases the block arg names.
func (a *flowAnalysis) free(arg, call syntax.Node, s *flowState) {
	slot := a.slotOf(arg)
	if slot < 0 {
		a.ev(arg, s, useArgKeep)
		return
	}
	a.evBase(arg, s)
	key := call.Start()
	if call.Kind() == "call_expression" {
		key = calleeKey(call)
	}
	v := s.v[slot]
	if v.bits&fbUninit != 0 {
		a.diag(flowDiag{kind: fdUninit, at: Uncast(arg), keys: v.keys(fbUninit), slot: slot, must: v.bits == fbUninit, how: "freed"})
		s.v[slot] = flowVal{bits: fbUnknown}
		return
	}
	if v.bits&fbFreed != 0 {
		a.diag(flowDiag{kind: fdDoubleFree, at: call, keys: []int32{int32(key)}, extra: v.keys(fbFreed), slot: slot, must: v.bits == fbFreed})
	}
	if v.bits&fbMoved != 0 {
		a.diag(flowDiag{kind: fdFreeOffset, at: call, keys: []int32{int32(key)}, extra: v.keys(fbMoved), slot: slot, must: v.bits&fbMoved == v.bits})
	}
	if v.bits&^fbNull == 0 {
		return // free(NULL) does nothing
	}
	nv := flowOne(fbFreed, key)
	if v.bits&fbMaybeNull != 0 {
		nv = flowUnion(nv, v.without(^fbMaybeNull).recast(fbFailAlloc|fbFailCall, fbNull, -1))
	}
	s.v[slot] = nv
	a.killDependents(a.slots[slot].path, s)
}

// cond interprets a condition and returns the states in which it is true
// and false. s is consumed.
func (a *flowAnalysis) cond(n syntax.Node, s *flowState) (t, f *flowState) {
	if s.dead || !n.Valid() {
		return s, s.clone()
	}
	n = Unparen(n)
	switch n.Kind() {
	case "unary_expression":
		if BinaryOp(n) == "!" {
			f, t = a.cond(n.Field("argument"), s)
			return t, f
		}
	case "binary_expression":
		switch op := BinaryOp(n); op {
		case "&&":
			at, af := a.cond(n.Field("left"), s)
			bt, bf := a.cond(n.Field("right"), at)
			return bt, flowMerge(af, bf)
		case "||":
			at, af := a.cond(n.Field("left"), s)
			bt, bf := a.cond(n.Field("right"), af)
			return flowMerge(at, bt), bf
		case "==", "!=":
			if t, f, ok := a.nullTest(n, s); ok {
				if op == "!=" {
					return f, t
				}
				return t, f
			}
			if t, f, ok := a.sameAs(n, s); ok {
				if op == "!=" {
					return f, t
				}
				return t, f
			}
		}
	case "assignment_expression", "identifier", "field_expression", "cast_expression", "subscript_expression", "pointer_expression":
		a.ev(n, s, useRead)
		if slot := a.condSlot(n); slot >= 0 && !s.dead {
			isNull, notNull := a.refine(slot, s, n, false)
			return notNull, isNull
		}
		return s, s.clone()
	case "comma_expression":
		a.ev(n.Field("left"), s, useRead)
		return a.cond(n.Field("right"), s)
	case "declaration":
		a.decl(n, s)
		return s, s.clone()
	}
	a.ev(n, s, useRead)
	return s, s.clone()
}

// nullTest interprets "x == NULL" (or MAP_FAILED) and returns the states
// where it holds and where it does not.
func (a *flowAnalysis) nullTest(n syntax.Node, s *flowState) (t, f *flowState, ok bool) {
	x, other := n.Field("left"), n.Field("right")
	if flowNullish(x) {
		x, other = other, x
	}
	if !flowNullish(other) {
		return nil, nil, false
	}
	a.ev(x, s, useRead)
	slot := a.condSlot(x)
	if slot < 0 || s.dead {
		return s, s.clone(), true
	}
	t, f = a.refine(slot, s, n, Uncast(other).Text() == "MAP_FAILED")
	return t, f, true
}

// condSlot returns the slot a tested expression names: p, (p = f()).
func (a *flowAnalysis) condSlot(x syntax.Node) int {
	x = Uncast(x)
	if x.Kind() == "assignment_expression" {
		if BinaryOp(x) != "=" {
			return -1
		}
		x = x.Field("left")
	}
	return a.slotOf(x)
}

// refine splits s on whether slot is NULL (or MAP_FAILED when mapFailed).
// s is consumed; a branch no state can take is dead.
func (a *flowAnalysis) refine(slot int, s *flowState, at syntax.Node, mapFailed bool) (isNull, notNull *flowState) {
	v := s.v[slot]
	var nv, nn flowVal
	if mapFailed {
		nv = flowVal{bits: fbUnknown}
		nn = v.without(fbFailMmap)
	} else {
		if v.bits&fbFailMmap != 0 {
			a.diag(flowDiag{kind: fdMmapNull, at: at, keys: v.keys(fbFailMmap), slot: slot})
		}
		nv = v.without(^(fbMaybeNull | fbUnknown)).recast(fbFailAlloc|fbFailCall|fbUnknown, fbNull, a.condKey(at))
		nn = v.without(fbMaybeNull)
	}
	isNull = s.clone()
	isNull.v[slot] = nv
	notNull = s
	notNull.v[slot] = nn
	a.refineAliases(slot, v, isNull, notNull, a.condKey(at))
	if nv.bits == 0 {
		isNull = flowDead()
	}
	if nn.bits == 0 {
		notNull = flowDead()
	}
	return isNull, notNull
}

// refineAliases applies a NULL test of slot to the other slots holding
// the same call result (p = q = malloc(n); if (!q) ...): they share the
// origin of their maybe-NULL state.
func (a *flowAnalysis) refineAliases(slot int, v flowVal, isNull, notNull *flowState, key int) {
	const fail = fbFailAlloc | fbFailCall | fbFailMmap
	keys := v.keys(fail)
	if len(keys) == 0 {
		return
	}
	for j := range a.slots {
		if j == slot || isNull.v[j].bits&fail == 0 {
			continue
		}
		shared := false
		for _, k := range isNull.v[j].keys(fail) {
			shared = shared || flowHasKey(keys, k)
		}
		if !shared {
			continue
		}
		isNull.v[j] = flowDropKeys(isNull.v[j], fail|fbFresh|fbValid, keys)
		isNull.v[j] = flowUnion(isNull.v[j], flowOne(fbNull, key))
		notNull.v[j] = flowDropKeys(notNull.v[j], fail, keys)
		if notNull.v[j].bits == 0 {
			notNull.v[j] = flowVal{bits: fbValid}
		}
	}
}

// flowDropKeys removes the origins with a bit in mask and a key in keys,
// and the bits in mask no origin supports any more.
func flowDropKeys(v flowVal, mask flowBits, keys []int32) flowVal {
	bits := v.bits
	var org []flowOrigin
	for _, o := range v.origins() {
		if o.bit&mask != 0 && flowHasKey(keys, o.key) {
			continue
		}
		org = append(org, o)
	}
	for b := flowBits(1); b != 0 && b <= fbFreed; b <<= 1 {
		if b&mask == 0 || bits&b == 0 {
			continue
		}
		supported := false
		for _, o := range org {
			supported = supported || o.bit == b
		}
		if !supported {
			bits &^= b
		}
	}
	return mkFlowVal(bits, org)
}

// condKey returns the trigger offset of a test: the if/while keyword of
// the statement whose condition holds it, else the test itself.
func (a *flowAnalysis) condKey(at syntax.Node) int {
	n := at
	for p := n.Parent(); p.Valid(); n, p = p, p.Parent() {
		switch p.Kind() {
		case "parenthesized_expression", "condition_clause", "unary_expression", "cast_expression":
			continue
		case "binary_expression":
			if op := BinaryOp(p); op == "&&" || op == "||" {
				continue
			}
		case "if_statement", "while_statement", "do_statement", "for_statement":
			if n.FieldName() == "condition" {
				return p.Start()
			}
		}
		break
	}
	return at.Start()
}

// flowMacroName reports ALL_CAPS names, which in C are macros that may
// write their arguments.
func flowMacroName(name string) bool {
	letters := 0
	for i := 0; i < len(name); i++ {
		c := name[i]
		switch {
		case c >= 'A' && c <= 'Z':
			letters++
		case c == '_' || c >= '0' && c <= '9':
		default:
			return false
		}
	}
	return letters >= 2
}

// flowMentions reports whether an identifier named name occurs in args.
func flowMentions(args []syntax.Node, name string) bool {
	for _, x := range args {
		for m := range x.Descendants() {
			if m.Kind() == "identifier" && m.Text() == name {
				return true
			}
		}
	}
	return false
}

func memHasInt(xs []int, x int) bool {
	for _, v := range xs {
		if v == x {
			return true
		}
	}
	return false
}

// memBlockArg reports a call given a block of statements, which only a
// macro can take: kh_foreach(h, k, v, { ... }).
func memBlockArg(args []syntax.Node) bool {
	for _, x := range args {
		if x.Is("compound_statement", "initializer_list") {
			return true
		}
	}
	return false
}

// sameAs interprets "p == q" between a slot and another lvalue: where it
// holds, the code treats p as a valid pointer (rhs == lhs && rhs[1]).
func (a *flowAnalysis) sameAs(n syntax.Node, s *flowState) (t, f *flowState, ok bool) {
	l, r := n.Field("left"), n.Field("right")
	slot := a.slotOf(l)
	other := r
	if slot < 0 {
		slot, other = a.slotOf(r), l
	}
	if slot < 0 || PathOf(other) == "" {
		return nil, nil, false
	}
	a.ev(l, s, useRead)
	a.ev(r, s, useRead)
	if s.dead {
		return s, s.clone(), true
	}
	f = s.clone()
	if v := s.v[slot]; v.bits&(fbFailAlloc|fbFailCall|fbFailMmap) != 0 {
		s.v[slot] = v.without(fbFailAlloc | fbFailCall | fbFailMmap)
		if s.v[slot].bits == 0 {
			s.v[slot] = flowVal{bits: fbValid}
		}
	}
	return s, f, true
}

// memPointerBase strips pointer arithmetic: pool + 1 → pool.
func memPointerBase(n syntax.Node) syntax.Node {
	n = Uncast(n)
	for n.Kind() == "binary_expression" && (BinaryOp(n) == "+" || BinaryOp(n) == "-") {
		n = Uncast(n.Field("left"))
	}
	return n
}
