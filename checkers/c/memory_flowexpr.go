package c

import (
	"strings"

	"github.com/jsec/jsec/checkers/syntax"
)

// Expressions of the memory-state walk (see flow.go).

// flowUse says how an expression's value is used by its parent.
type flowUse uint8

const (
	useRead       flowUse = iota // read: compared, tested, used in arithmetic on integers
	useDeref                     // *p, p->f, p[i]
	useAddr                      // &p->f, &p[i]: address arithmetic through p
	useEscape                    // stored, thrown: ownership may leave
	useArgKeep                   // passed to a call that neither keeps, frees nor dereferences it
	useArgDeref                  // passed to a call that dereferences it
	useArgUnknown                // passed to a call jsec knows nothing about
	useAlias                     // pointer arithmetic: p + n
	useMacroArg                  // passed to an ALL_CAPS macro: may be written
	useReturn                    // returned
	useMember                    // s.f: part of a struct variable
)

func (u flowUse) derefs() bool { return u == useDeref || u == useArgDeref || u == useAddr }

// ev interprets an expression for its effects on the slots.
func (a *flowAnalysis) ev(n syntax.Node, s *flowState, mode flowUse) {
	if s.dead || a.failed || !n.Valid() {
		return
	}
	if a.budget--; a.budget < 0 {
		a.failed = true
		return
	}
	n = Unparen(n)
	if slot := a.slotOf(n); slot >= 0 {
		a.evBase(n, s)
		a.use(slot, n, s, mode)
		return
	}
	switch n.Kind() {
	case "identifier", "number_literal", "string_literal", "char_literal", "null", "true", "false", "nullptr",
		"concatenated_string", "raw_string_literal", "field_identifier", "sizeof_expression", "alignof_expression",
		"offsetof_expression", "type_descriptor", "lambda_expression", "comment", "this", "user_defined_literal",
		"qualified_identifier", "template_function", "generic_expression", "macro_type_specifier":
	case "cast_expression":
		a.ev(n.Field("value"), s, mode)
	case "field_expression", "subscript_expression":
		a.evBase(n, s)
	case "pointer_expression":
		if n.FirstChild().Text() == "&" {
			a.addrOf(n.Field("argument"), s)
		} else {
			a.ev(n.Field("argument"), s, useDeref)
		}
	case "assignment_expression":
		a.assign(n, s)
		if slot := a.slotOf(n.Field("left")); slot >= 0 && !s.dead && mode != useRead {
			a.use(slot, n.Field("left"), s, mode) // the assigned value goes on: f(p = g())
		}
	case "update_expression":
		a.update(n, s, mode)
	case "call_expression":
		a.call(n, s, mode)
	case "binary_expression":
		a.binary(n, s, mode)
	case "unary_expression":
		a.ev(n.Field("argument"), s, useRead)
	case "conditional_expression":
		t, f := a.cond(n.Field("condition"), s)
		a.ev(n.Field("consequence"), t, mode)
		a.ev(n.Field("alternative"), f, mode)
		*s = *flowMerge(t, f)
	case "comma_expression":
		a.ev(n.Field("left"), s, useRead)
		a.ev(n.Field("right"), s, mode)
	case "delete_expression":
		a.free(n.NamedChild(n.NamedChildCount()-1), n, s)
	case "compound_statement":
		*s = *a.stmt(n, s)
	case "gnu_asm_expression":
		a.asm(n, s)
	case "ERROR":
		a.havoc(s)
	case "declaration":
		a.decl(n, s)
	default:
		for c := range n.NamedChildren() {
			if c.Kind() != "type_descriptor" && c.FieldName() != "type" {
				a.ev(c, s, useEscape)
			}
		}
	}
}

// evBase evaluates what an lvalue path goes through: s in s->buf, p in
// p[i] and *p.
func (a *flowAnalysis) evBase(n syntax.Node, s *flowState) {
	n = Uncast(n)
	switch n.Kind() {
	case "field_expression":
		if n.Field("operator").Text() == "->" {
			a.ev(n.Field("argument"), s, useDeref)
		} else {
			a.ev(n.Field("argument"), s, useMember)
		}
	case "subscript_expression":
		a.ev(n.Field("argument"), s, useDeref)
		if idx := n.Field("index"); idx.Valid() {
			a.ev(idx, s, useRead)
		} else {
			for c := range n.Field("indices").NamedChildren() {
				a.ev(c, s, useRead)
			}
		}
	case "pointer_expression":
		if n.FirstChild().Text() == "*" {
			a.ev(n.Field("argument"), s, useDeref)
		}
	}
}

// use applies a use of slot's value at n.
func (a *flowAnalysis) use(slot int, n syntax.Node, s *flowState, mode flowUse) {
	sl := &a.slots[slot]
	v := s.v[slot]
	if sl.loose && mode != useRead && mode != useAlias && mode != useEscape && mode != useReturn {
		s.v[slot] = flowVal{bits: fbUnknown}
		return
	}
	if v.bits&fbUninit != 0 {
		// An unknown callee may be a macro that assigns its argument
		// (atomicGet(src, dst)) or, in C++, take it by reference.
		if mode != useMacroArg && mode != useMember && mode != useArgUnknown {
			a.diag(flowDiag{kind: fdUninit, at: n, keys: v.keys(fbUninit), slot: slot, must: v.bits == fbUninit, how: a.describe(n, mode)})
		}
		s.v[slot] = flowVal{bits: fbUnknown}
		return
	}
	switch mode {
	case useMember, useMacroArg:
		s.v[slot] = flowVal{bits: fbUnknown}
		a.killDependents(sl.path, s)
	case useDeref, useArgDeref, useAddr:
		a.derefSlot(slot, n, s, mode)
	case useArgKeep, useArgUnknown, useReturn:
		if v.bits&fbFreed != 0 {
			a.diag(flowDiag{kind: fdUseAfterFree, at: n, keys: v.keys(fbFreed), slot: slot, must: v.bits == fbFreed, how: a.describe(n, mode)})
		}
		if mode != useArgKeep {
			s.v[slot] = v.recast(fbFresh|fbMoved, fbValid, -1)
		}
		if mode == useArgUnknown && a.cpp && !sl.field {
			s.v[slot] = flowVal{bits: fbUnknown} // may bind to a reference parameter
		}
	case useEscape, useAlias:
		s.v[slot] = v.recast(fbFresh|fbMoved, fbValid, -1)
	}
}

// derefSlot applies a dereference of slot at n.
func (a *flowAnalysis) derefSlot(slot int, n syntax.Node, s *flowState, mode flowUse) {
	v := s.v[slot]
	how := a.describe(n, mode)
	if v.bits&fbFreed != 0 {
		a.diag(flowDiag{kind: fdUseAfterFree, at: n, keys: v.keys(fbFreed), slot: slot, must: v.bits == fbFreed, how: how})
	}
	if mode == useAddr {
		return
	}
	for _, k := range []struct {
		bit  flowBits
		kind flowDiagKind
	}{{fbFailAlloc, fdUncheckedAlloc}, {fbFailCall, fdUncheckedCall}, {fbFailMmap, fdMmapUnchecked}} {
		if v.bits&k.bit != 0 {
			a.diag(flowDiag{kind: k.kind, at: n, keys: v.keys(k.bit), slot: slot, how: how})
		}
	}
	if v.bits&fbNull != 0 && v.bits&^fbNull == 0 {
		a.diag(flowDiag{kind: fdNullDeref, at: n, keys: v.keys(fbNull), slot: slot, must: true, how: how})
	}
	nv := v.without(fbMaybeNull | fbFailMmap)
	if nv.bits == 0 {
		nv = flowVal{bits: fbValid}
	}
	s.v[slot] = nv
}

// describe says how n is used, for messages.
func (a *flowAnalysis) describe(n syntax.Node, mode flowUse) string {
	switch mode {
	case useArgKeep, useArgDeref, useArgUnknown, useMacroArg:
		if a.curCall != "" {
			return "passed to " + a.curCall + "()"
		}
		return "passed to a call"
	case useReturn:
		return "returned"
	}
	p := n.Parent()
	for p.Is("parenthesized_expression", "cast_expression") {
		p = p.Parent()
	}
	if p.Valid() && p.Kind() != "expression_statement" && p.Kind() != "init_declarator" {
		return shortText(p)
	}
	return "read"
}

// addrOf handles &x.
func (a *flowAnalysis) addrOf(x syntax.Node, s *flowState) {
	x = Unparen(x)
	if slot := a.slotOf(x); slot >= 0 {
		a.evBase(x, s)
		s.v[slot] = flowVal{bits: fbUnknown} // may be written through the address
		a.killDependents(a.slots[slot].path, s)
		return
	}
	switch x.Kind() {
	case "field_expression":
		if x.Field("operator").Text() == "->" {
			a.ev(x.Field("argument"), s, useAddr)
		} else {
			a.addrOf(x.Field("argument"), s)
		}
	case "subscript_expression":
		a.ev(x.Field("argument"), s, useAddr)
		a.ev(x.Field("index"), s, useRead)
	case "pointer_expression":
		a.ev(x.Field("argument"), s, useAddr)
	case "identifier":
		a.killDependents(x.Text(), s)
	default:
		a.ev(x, s, useRead)
	}
}

// assign interprets "left op right".
func (a *flowAnalysis) assign(n syntax.Node, s *flowState) {
	op := BinaryOp(n)
	left, right := n.Field("left"), n.Field("right")
	lslot := a.slotOf(left)
	if op != "=" {
		a.ev(right, s, useRead)
		if lslot < 0 {
			a.evTarget(left, s)
			a.killDependents(PathOf(left), s)
			return
		}
		a.evBase(left, s)
		a.use(lslot, left, s, useRead)
		v := s.v[lslot]
		if (op == "+=" || op == "-=") && v.bits&fbFresh != 0 {
			s.v[lslot] = v.recast(fbFresh, fbMoved, n.Start())
		} else if v.bits&(fbMaybeNull|fbFailMmap) != 0 {
			s.v[lslot] = flowVal{bits: fbUnknown}
		}
		return
	}
	if lslot < 0 {
		a.ev(right, s, useEscape)
		a.evTarget(left, s)
		a.killDependents(PathOf(left), s)
		a.killPointee(left, s)
		return
	}
	a.evBase(left, s)
	a.assignValue(lslot, right, s)
	a.killPointee(left, s)
}

// killPointee forgets what was known of the members of the object that
// p points to when the assignment's left side is *p: "*p = v" overwrites
// the whole object, p->buf (p[0].buf) included, as the triage takes it
// (lemon's "free(x3a->tbl); *x3a = array;" gives x3a->tbl a new value).
func (a *flowAnalysis) killPointee(left syntax.Node, s *flowState) {
	left = Uncast(left)
	if left.Kind() != "pointer_expression" || left.FirstChild().Text() != "*" || s.dead {
		return
	}
	base := PathOf(left.Field("argument"))
	if base == "" {
		return
	}
	for i, sl := range a.slots {
		p := strings.TrimLeft(sl.path, "*")
		if strings.HasPrefix(p, base+"->") || strings.HasPrefix(p, base+"[0]") {
			s.v[i] = flowVal{bits: fbUnknown}
		}
	}
}

// evTarget evaluates the target of an assignment that is not a slot.
func (a *flowAnalysis) evTarget(l syntax.Node, s *flowState) {
	l = Uncast(l)
	switch l.Kind() {
	case "identifier":
	case "field_expression":
		if l.Field("operator").Text() == "->" {
			a.ev(l.Field("argument"), s, useDeref)
		} else if slot := a.slotOf(l.Field("argument")); slot >= 0 {
			a.use(slot, l.Field("argument"), s, useMember)
		} else {
			a.evTarget(l.Field("argument"), s)
		}
	default:
		a.ev(l, s, useRead)
	}
}

// assignValue gives slot (or, when slot < 0, nothing) the value of val.
func (a *flowAnalysis) assignValue(slot int, val syntax.Node, s *flowState) {
	if src := a.slotOf(val); src >= 0 {
		a.evBase(val, s)
		a.use(src, val, s, useRead)
		if slot < 0 {
			a.use(src, val, s, useEscape)
			return
		}
		nv := s.v[src].recast(fbFresh|fbMoved, fbValid, -1)
		if src != slot {
			s.v[src] = nv // two names for one block: neither is the sole owner
			s.v[slot] = nv
			a.killDependents(a.slots[slot].path, s)
		}
		return
	}
	if v := memUncast(val); v.Kind() == "assignment_expression" && BinaryOp(v) == "=" && a.slotOf(v.Field("left")) >= 0 {
		// p = q = malloc(n): two names for one block, stored twice.
		a.ev(v, s, useEscape)
		if slot >= 0 && !s.dead {
			s.v[slot] = s.v[a.slotOf(v.Field("left"))]
			a.killDependents(a.slots[slot].path, s)
		}
		return
	}
	a.ev(val, s, useEscape)
	if slot < 0 || s.dead {
		return
	}
	nv := a.classify(val, s)
	v := Uncast(val)
	switch {
	case v.Kind() == "call_expression" && memReallocators[CalleeName(v)]:
		if old := a.slotOf(Arg(v, 0)); old >= 0 && old != slot {
			s.v[old] = s.v[old].recast(fbFresh|fbMoved, fbValid, -1)
		}
	case v.Kind() == "binary_expression" && (BinaryOp(v) == "+" || BinaryOp(v) == "-") && a.slotOf(v.Field("left")) == slot:
		if cur := s.v[slot]; cur.bits&(fbFresh|fbMoved) != 0 {
			nv = cur.recast(fbFresh, fbMoved, v.Start())
		}
	}
	s.v[slot] = nv
	a.killDependents(a.slots[slot].path, s)
}

// classify returns the abstract value of an expression assigned to a slot.
func (a *flowAnalysis) classify(val syntax.Node, s *flowState) flowVal {
	v := memUncast(val)
	switch v.Kind() {
	case "null", "nullptr":
		return flowOne(fbNull, v.Start())
	case "identifier":
		if v.Text() == "NULL" {
			return flowOne(fbNull, v.Start())
		}
		if vr := a.scope.Lookup(v.Text(), v); vr != nil && vr.IsArray() {
			return flowVal{bits: fbValid}
		}
	case "call_expression":
		return a.classifyCall(v, s)
	case "new_expression":
		if strings.Contains(v.Field("placement").Text(), "nothrow") {
			return mkFlowVal(fbFailAlloc|fbFresh, []flowOrigin{{fbFailAlloc, int32(v.Start())}, {fbFresh, int32(v.Start())}})
		}
		return flowOne(fbFresh, v.Start())
	case "binary_expression":
		if l := memUncast(v.Field("left")); l.Kind() == "call_expression" && a.mayReturnNull(l) {
			return mkFlowVal(fbFailCall|fbValid, []flowOrigin{{fbFailCall, int32(calleeKey(l))}})
		}
	case "conditional_expression":
		if c := v.Field("consequence"); c.Valid() {
			return flowUnion(a.classify(c, s), a.classify(v.Field("alternative"), s))
		}
	case "assignment_expression", "comma_expression":
		if src := a.slotOf(v.Field("right")); src >= 0 {
			return s.v[src].recast(fbFresh|fbMoved, fbValid, -1)
		}
		return a.classify(v.Field("right"), s)
	case "string_literal", "concatenated_string", "raw_string_literal":
		return flowVal{bits: fbValid}
	case "pointer_expression":
		if v.FirstChild().Text() == "&" {
			return flowVal{bits: fbValid}
		}
	}
	return flowVal{bits: fbUnknown}
}

func (a *flowAnalysis) classifyCall(v syntax.Node, s *flowState) flowVal {
	name := CalleeName(v)
	key := int32(calleeKey(v))
	if kind := memAllocators[name]; kind != 0 {
		owned := fbFresh
		if memReallocators[name] {
			if old := a.slotOf(Arg(v, 0)); old >= 0 && s.v[old].bits&(fbFresh|fbMoved) == 0 {
				owned = fbValid
			}
		}
		if kind == memMayFail {
			return mkFlowVal(owned|fbFailAlloc, []flowOrigin{{owned, key}, {fbFailAlloc, key}})
		}
		return mkFlowVal(owned, []flowOrigin{{owned, key}})
	}
	if name == "mmap" || name == "mmap64" {
		return mkFlowVal(fbFailMmap|fbValid, []flowOrigin{{fbFailMmap, key}})
	}
	if a.mayReturnNull(v) {
		return mkFlowVal(fbFailCall|fbValid, []flowOrigin{{fbFailCall, key}})
	}
	return flowVal{bits: fbUnknown}
}

// killDependents forgets the slots reached through path (s->buf when s
// changes).
func (a *flowAnalysis) killDependents(path string, s *flowState) {
	if path == "" || s.dead {
		return
	}
	for i, sl := range a.slots {
		p := strings.TrimLeft(sl.path, "*")
		if len(p) > len(path) && strings.HasPrefix(p, path) && strings.ContainsRune("-.[", rune(p[len(path)])) ||
			p == path && sl.path != path {
			s.v[i] = flowVal{bits: fbUnknown}
		}
	}
}

func (a *flowAnalysis) update(n syntax.Node, s *flowState, mode flowUse) {
	arg := n.Field("argument")
	slot := a.slotOf(arg)
	if slot < 0 {
		a.ev(arg, s, mode)
		a.killDependents(PathOf(arg), s)
		return
	}
	a.evBase(arg, s)
	if !mode.derefs() {
		mode = useRead
	}
	a.use(slot, arg, s, mode)
	if v := s.v[slot]; v.bits&fbFresh != 0 {
		s.v[slot] = v.recast(fbFresh, fbMoved, n.Start())
	}
}

func (a *flowAnalysis) binary(n syntax.Node, s *flowState, mode flowUse) {
	switch BinaryOp(n) {
	case "&&", "||":
		t, f := a.cond(n, s)
		*s = *flowMerge(t, f)
	case "==", "!=", "<", ">", "<=", ">=":
		a.ev(n.Field("left"), s, useRead)
		a.ev(n.Field("right"), s, useRead)
	case "+", "-":
		if mode.derefs() {
			a.ev(n.Field("left"), s, mode)
			a.ev(n.Field("right"), s, useRead)
			return
		}
		a.ev(n.Field("left"), s, useAlias)
		a.ev(n.Field("right"), s, useAlias)
	case ">>":
		if a.cpp {
			// std::cin >> x writes x.
			a.ev(n.Field("left"), s, useRead)
			if slot := a.slotOf(n.Field("right")); slot >= 0 {
				s.v[slot] = flowVal{bits: fbUnknown}
				return
			}
			a.ev(n.Field("right"), s, useRead)
			return
		}
		a.ev(n.Field("left"), s, useRead)
		a.ev(n.Field("right"), s, useRead)
	case "&":
		// (TYPE)&x, where TYPE is a macro the parser could not know
		// names a type, reads as a bitwise and.
		if l := n.Field("left"); l.Kind() == "parenthesized_expression" && Unparen(l).Kind() == "identifier" {
			a.addrOf(n.Field("right"), s)
			return
		}
		a.ev(n.Field("left"), s, useRead)
		a.ev(n.Field("right"), s, useRead)
	default:
		a.ev(n.Field("left"), s, useRead)
		a.ev(n.Field("right"), s, useRead)
	}
}

// asm forgets the slots an asm statement names (its outputs write them).
func (a *flowAnalysis) asm(n syntax.Node, s *flowState) {
	for m := range n.Descendants() {
		if slot := a.slotOf(m); slot >= 0 && m.Kind() == "identifier" {
			s.v[slot] = flowVal{bits: fbUnknown}
		}
	}
}

// mayReturnNull reports whether a call of a maybe-NULL API may return
// NULL here: not a search for the terminator, not a call the function
// already tested, and for searches only in a string that comes from a
// parameter or from input (callers usually know what their own buffers
// hold).
func (a *flowAnalysis) mayReturnNull(call syntax.Node) bool {
	name := CalleeName(call)
	if !memMaybeNull[name] || name == "mmap" || memFindsTerminator(call) || a.testedBefore(call) {
		return false
	}
	if memSearches[name] {
		o := Trace(a.p, Arg(call, 0)).Origin
		return o == OriginParam || o == OriginExternal
	}
	return true
}

// memSearches are the maybe-NULL APIs that look for something in a
// string or buffer.
var memSearches = map[string]bool{
	"strchr": true, "strrchr": true, "strstr": true, "strcasestr": true, "strpbrk": true, "memchr": true,
	"memrchr": true, "wcschr": true, "wcsrchr": true, "wcsstr": true, "strtok": true,
}

// memFindsTerminator reports strchr(s, '\0'), which always finds the
// terminating NUL.
func memFindsTerminator(call syntax.Node) bool {
	switch CalleeName(call) {
	case "strchr", "strrchr", "wcschr", "wcsrchr":
		c := Uncast(Arg(call, 1))
		v, ok := IntValue(c, nil)
		return ok && v == 0 || c.Text() == `'\0'` || c.Text() == `L'\0'`
	}
	return false
}

// testedBefore reports whether the same call (same text) is tested in a
// condition earlier in the function: if (strchr(s, ':')) p = strchr(s, ':');
func (a *flowAnalysis) testedBefore(call syntax.Node) bool {
	text := strings.Join(strings.Fields(call.Text()), "")
	found := false
	a.body.Walk(func(n syntax.Node) bool {
		if found || n.Start() >= call.Start() {
			return false
		}
		if n.Is("if_statement", "while_statement", "conditional_expression") {
			for m := range Condition(n).Descendants() {
				if m.Kind() == "call_expression" && m.Start() < call.Start() && strings.Join(strings.Fields(m.Text()), "") == text {
					found = true
					break
				}
			}
		}
		return !found
	})
	return found
}
