package rust

import (
	"fmt"
	"strings"

	"github.com/jsec/jsec/checkers"
	"github.com/jsec/jsec/checkers/syntax"
)

// The raw-pointer rules of the unsafe family: dereference, unchecked
// indexing, pointer arithmetic, raw copies, slices and owners rebuilt from
// raw pointers.

// derefSite is a place where a pointer is read or written through.
type derefSite struct {
	node syntax.Node // the *p, p.read(), p.as_ref().unwrap() … expression
	how  string      // "*p", "p.read()", "CStr::from_ptr(p)" …
	deep bool        // a use only the ffi family counts (from_raw_parts, as_ref().unwrap() …)
}

// derefs returns the places after offset from where the pointer name is
// dereferenced: *name, *name.add(i), name.read(), name.write(v); and with
// deep uses, name.as_ref().unwrap(), slice::from_raw_parts(name, …),
// CStr::from_ptr(name), Box::from_raw(name), ptr::read(name).
func (s *memScope) derefs(name string, from int) []derefSite {
	var out []derefSite
	s.fn.Walk(func(n syntax.Node) bool {
		if n.Kind() == "function_item" && n.Index() != s.fn.Index() {
			return false
		}
		if n.Kind() != "identifier" || n.Text() != name || n.Start() < from {
			return true
		}
		if d, ok := derefOf(n); ok {
			out = append(out, d)
		}
		return true
	})
	return out
}

// derefMethods read or write through a raw pointer receiver.
var derefMethods = map[string]bool{
	"read": true, "read_unaligned": true, "read_volatile": true, "write": true, "write_unaligned": true,
	"write_volatile": true, "replace": true, "swap": true,
}

func derefOf(id syntax.Node) (derefSite, bool) {
	name := id.Text()
	par := id.Parent()
	if par.Kind() == "unary_expression" && par.FirstChild().Text() == "*" {
		return derefSite{node: par, how: "*" + name}, true
	}
	if par.Kind() == "field_expression" && par.Field("value").Index() == id.Index() {
		call := par.Parent()
		if call.Kind() != "call_expression" || call.Field("function").Index() != par.Index() {
			return derefSite{}, false
		}
		m := par.Field("field").Text()
		if derefMethods[m] {
			return derefSite{node: call, how: name + "." + m + "()"}, true
		}
		switch m {
		case "add", "offset", "sub", "byte_add", "byte_offset":
			up := call.Parent()
			if up.Kind() == "unary_expression" && up.FirstChild().Text() == "*" {
				return derefSite{node: up, how: "*" + name + "." + m + "(…)"}, true
			}
			if up.Kind() == "field_expression" && up.Parent().Kind() == "call_expression" && derefMethods[up.Field("field").Text()] {
				return derefSite{node: up.Parent(), how: name + "." + m + "(…)." + up.Field("field").Text() + "()"}, true
			}
		case "as_ref", "as_mut":
			if up := call.Parent(); up.Kind() == "field_expression" {
				if u := up.Field("field").Text(); u == "unwrap" || u == "expect" || u == "unwrap_unchecked" {
					return derefSite{node: up.Parent(), how: name + "." + m + "()." + u + "()", deep: true}, true
				}
			}
		}
		return derefSite{}, false
	}
	if par.Kind() == "type_cast_expression" {
		// (p as *const T).read() or *(p as *mut T): look through the cast
		up := par.Parent()
		for up.Kind() == "parenthesized_expression" {
			up = up.Parent()
		}
		if up.Kind() == "unary_expression" && up.FirstChild().Text() == "*" {
			return derefSite{node: up, how: "*(" + name + " as …)"}, true
		}
	}
	if par.Kind() == "arguments" {
		call := par.Parent()
		if len(Args(call)) > 0 && Args(call)[0].Index() == id.Index() {
			path := Path(call)
			switch fn := lastSegment(path); fn {
			case "from_raw_parts", "from_raw_parts_mut", "from_ptr", "from_raw", "read", "read_unaligned", "write", "write_unaligned", "drop_in_place":
				if owner := ownerType(path); owner != "" {
					fn = owner + "::" + fn
				}
				return derefSite{node: call, how: fn + "(" + name + ")", deep: true}, true
			}
		}
	}
	return derefSite{}, false
}

// pointerDecl returns the variable whose declared type (parameter, let
// annotation or `let x = … as *const T`) is the pointer type at pt.
func pointerDecl(pt syntax.Node) (name string, decl syntax.Node) {
	par := pt.Parent()
	switch par.Kind() {
	case "parameter", "let_declaration":
		if par.Field("type").Index() == pt.Index() && par.Field("pattern").Kind() == "identifier" {
			return par.Field("pattern").Text(), par
		}
	case "type_cast_expression":
		let := par.Parent()
		if par.Field("type").Index() == pt.Index() && let.Kind() == "let_declaration" && let.Field("value").Index() == par.Index() &&
			let.Field("pattern").Kind() == "identifier" {
			return let.Field("pattern").Text(), let
		}
	}
	return "", syntax.Node{}
}

// checkRawDeref flags the first dereference of a raw pointer variable that
// no null check precedes, unless the pointer was made from a reference or
// a buffer in the same function. Parameters of exported extern fns are
// left to rust.ffi.export-null-check.
func checkRawDeref(p *checkers.Pass, h checkers.Hit) {
	pt := h.Node.Parent()
	if pt.Kind() != "pointer_type" {
		return
	}
	name, decl := pointerDecl(pt)
	s := scopeOf(p, pt)
	if name == "" || s == nil {
		return
	}
	if decl.Kind() == "parameter" && decl.Parent().Parent().Index() == s.fn.Index() && isExported(s.fn) {
		return
	}
	for _, d := range s.derefs(name, decl.End()) {
		if d.deep || !UnsafeContext(d.node).Valid() {
			continue
		}
		if b, ok := s.bind(name, d.node.Start()); !ok || b.decl.Index() != decl.Index() {
			continue // shadowed
		}
		if s.nullChecked(name, d.node.Start()) {
			return
		}
		o, via := s.identOrigin(name, d.node.Start(), 0)
		if o == originValid || o == originUnknown || via != "" && via != name && s.nullChecked(via, d.node.Start()) {
			return
		}
		silent, adjust := paramContract(p, s, []string{via})
		if o == originParam && silent {
			return
		}
		reportRawDeref(p, s, d, name, normType(p, pt), o, via, adjust)
		return
	}
}

func reportRawDeref(p *checkers.Pass, s *memScope, d derefSite, name, typ string, o origin, via string, adjust float64) {
	msg := fmt.Sprintf("%s dereferences raw pointer %s (%s) with no null check before it", d.how, name, typ)
	switch o {
	case originParam:
		who := "parameter " + via
		if via == name {
			who = "a parameter"
		}
		if adjust < 0 {
			msg += fmt.Sprintf("; %s is %s of extern fn %s, so only the C caller's contract keeps it valid", name, who, fnName(s.fn))
		} else {
			adjust += 0.1
			msg += fmt.Sprintf("; %s is %s of safe fn %s: any caller can pass null or a dangling pointer (make the fn unsafe or check it)", name, who, fnName(s.fn))
		}
	case originCall:
		msg += fmt.Sprintf("; it comes from %s(), which may return null", via)
	case originNull:
		adjust += 0.2
		msg += fmt.Sprintf("; it is %s() here", via)
	}
	if safetyDocumented(p, d.node) {
		adjust -= 0.15
	}
	p.Report(checkers.Finding{Rule: ruleRawDeref, Span: checkers.NodeSpan(d.node), Adjust: adjust, Message: msg})
}

// indexBound reports whether the index or count expression e is bounded
// before the call: compared with a length, a literal or a constant (also
// in assert!/debug_assert!), taken from a for loop over a length, reduced
// with % or min, or a literal itself.
func (s *memScope) indexBound(e syntax.Node, base string, before int) bool {
	if e.Kind() == "integer_literal" || isConstName(e.Text()) {
		return true
	}
	t := e.Text()
	if strings.Contains(t, "%") || strings.Contains(t, ".min(") || strings.Contains(t, "::min(") || strings.Contains(t, "size_of") ||
		strings.Contains(t, ".len()") || strings.Contains(t, "& (") || strings.Contains(t, "&(") {
		return true
	}
	names := identsOf(e)
	if len(names) == 0 {
		return true
	}
	first := strings.Split(base, ".")[0]
	return s.compared(names, before, func(k int) bool { return s.isBound(k) || first != "" && s.text(k) == first })
}

// checkGetUnchecked flags get_unchecked(i) with no bound on i before it.
func checkGetUnchecked(p *checkers.Pass, h checkers.Hit) {
	call, recv, ok := MethodCallAt(h)
	args := Args(call)
	if !ok || len(args) != 1 || !UnsafeContext(call).Valid() {
		return
	}
	s := scopeOf(p, call)
	if s == nil {
		return
	}
	idx, base := args[0], baseOf(recv)
	if idx.Kind() == "range_expression" {
		if s.rangeBound(idx, base, call.Start()) {
			return
		}
	} else if idx.Kind() == "integer_literal" {
		if base == "" || s.compared([]string{strings.Split(base, ".")[0]}, call.Start(), s.isBound) || s.hasEmptyCheck(base, call.Start()) {
			return
		}
	} else if s.indexBound(idx, base, call.Start()) {
		return
	}
	silent, adjust := paramContract(p, s, append(identsOf(idx), strings.Split(base, ".")[0]))
	if silent {
		return
	}
	if safetyDocumented(p, call) {
		adjust -= 0.15
	}
	msg := fmt.Sprintf("%s.%s(%s) skips the bounds check, and no assert!/if compares %s with %s.len() before it",
		compact(recv.Text()), h.Word, compact(idx.Text()), compact(idx.Text()), compact(recv.Text()))
	p.Report(checkers.Finding{Rule: ruleGetUnchecked, Span: checkers.NodeSpan(call), Adjust: adjust, Message: msg})
}

func (s *memScope) rangeBound(r syntax.Node, base string, before int) bool {
	for c := range r.NamedChildren() {
		if !s.indexBound(c, base, before) {
			return false
		}
	}
	return true
}

// hasEmptyCheck reports whether base.is_empty(), base.first() or
// base.last() is called before offset before (a guard for index 0).
func (s *memScope) hasEmptyCheck(base string, before int) bool {
	for _, i := range s.mentions(base, s.fn.Start(), before) {
		j := after(base, i)
		if s.text(j) == "." && (s.text(j+1) == "is_empty" || s.text(j+1) == "first" || s.text(j+1) == "last") {
			return true
		}
	}
	return false
}

// checkPointerOffset flags p.add(n)/offset/sub/byte_add on a raw pointer
// when n comes from a parameter of a safe fn and no length comparison
// bounds it, and offset_from between pointers into different buffers.
// Integer and collection receivers are never raw pointers, so
// x.wrapping_add(1) or set.add(x) stay silent.
func checkPointerOffset(p *checkers.Pass, h checkers.Hit) {
	call, recv, ok := MethodCallAt(h)
	args := Args(call)
	if !ok || len(args) != 1 || !UnsafeContext(call).Valid() {
		return
	}
	s := scopeOf(p, call)
	if s == nil || !s.isRawPointerExpr(recv, 0) {
		return
	}
	if h.Word == "offset_from" || h.Word == "byte_offset_from" {
		a, b := s.resolvedBase(recv, call.Start()), s.resolvedBase(args[0], call.Start())
		if a != "" && b != "" && a != b {
			msg := fmt.Sprintf("%s: %s points into %s and %s into %s; offset_from between different allocations is undefined behaviour",
				compact(call.Text()), compact(recv.Text()), a, compact(args[0].Text()), b)
			p.Report(checkers.Finding{Rule: rulePointerOffset, Span: checkers.NodeSpan(call), Message: msg})
		}
		return
	}
	count := args[0]
	if s.indexBound(count, baseOf(recv), call.Start()) {
		return
	}
	param := s.paramDerived(scalarIdents(count), call.Start(), 0)
	if param == "" || s.compared([]string{param}, call.Start(), s.isBound) {
		return // a count the code computes itself (a container's len, a loop counter): its invariants are out of sight
	}
	silent, adjust := paramContract(p, s, []string{param})
	if silent {
		return
	}
	if safetyDocumented(p, call) {
		adjust -= 0.15
	}
	msg := fmt.Sprintf("%s moves raw pointer %s by %s, which comes from parameter %s of %s and is not compared with the buffer's length: out of bounds is undefined behaviour",
		compact(call.Text()), compact(recv.Text()), compact(count.Text()), param, fnName(s.fn))
	p.Report(checkers.Finding{Rule: rulePointerOffset, Span: checkers.NodeSpan(call), Adjust: adjust, Message: msg})
}

// resolvedBase is baseOf, following locals to their initialisers.
func (s *memScope) resolvedBase(e syntax.Node, before int) string {
	b := baseOf(e)
	for range 4 {
		if b == "" || strings.Contains(b, ".") {
			return b
		}
		bd, ok := s.bind(b, before)
		if !ok || !bd.value.Valid() {
			return b
		}
		next := baseOf(bd.value)
		if next == "" {
			if isBufferMaker(bd.value) {
				return b // let buf = [0u8; N], Vec::with_capacity(n): the local is the buffer
			}
			return "" // a pointer from somewhere else: its extent is unknown
		}
		if next == b {
			return b
		}
		b = next
	}
	return b
}

// isBufferMaker reports whether e creates a buffer: an array, vec![…],
// Vec::with_capacity/new, String::with_capacity, Box::new.
func isBufferMaker(e syntax.Node) bool {
	switch e.Kind() {
	case "array_expression":
		return true
	case "macro_invocation":
		return lastSegment(e.Field("macro").Text()) == "vec"
	case "call_expression":
		switch lastSegment(Path(e)) {
		case "with_capacity", "new", "new_uninit", "new_uninit_slice", "new_zeroed", "default":
			return true
		}
	}
	return false
}

// triageCopy keeps ptr::copy/read/write and the raw-pointer copy methods,
// never file.write(…) or lock.read().
func triageCopy(lx *checkers.Lexed, tok int) bool {
	ok := lx.Is(tok-1, ".")
	switch lx.Text(tok) {
	case "copy", "write", "read":
		ok = lx.Is(tok-1, "::") && lx.Is(tok-2, "ptr")
	case "copy_nonoverlapping", "write_bytes":
		ok = true
	}
	return ok && itemHasUnsafe(lx, tok)
}

// copyCall is a raw copy normalised to src, dst and count.
type copyCall struct {
	call, src, dst, count syntax.Node
	what                  string
}

func copyArgs(p *checkers.Pass, h checkers.Hit) (c copyCall, ok bool) {
	if call, recv, ok := MethodCallAt(h); ok {
		args := Args(call)
		s := scopeOf(p, call)
		if s == nil || len(args) != 2 || !s.isRawPointerExpr(recv, 0) {
			return c, false
		}
		c = copyCall{call: call, count: args[1], what: h.Word}
		switch h.Word {
		case "copy_to", "copy_to_nonoverlapping":
			c.src, c.dst = recv, args[0]
		case "copy_from", "copy_from_nonoverlapping":
			c.src, c.dst = args[0], recv
		case "write_bytes":
			c.dst = recv
		default:
			return c, false
		}
		return c, true
	}
	call, ok := CallAt(h)
	if !ok {
		return c, false
	}
	path := Path(call)
	if !strings.Contains(path, "ptr::") && !(path == h.Word && imported(p, "ptr", h.Word)) {
		return c, false
	}
	args := Args(call)
	c = copyCall{call: call, what: "ptr::" + h.Word}
	switch {
	case (h.Word == "copy" || h.Word == "copy_nonoverlapping") && len(args) == 3:
		c.src, c.dst, c.count = args[0], args[1], args[2]
	case h.Word == "write_bytes" && len(args) == 3:
		c.dst, c.count = args[0], args[2]
	case h.Word == "read" && len(args) == 1:
		c.src = args[0]
	case h.Word == "write" && len(args) == 2:
		c.dst = args[0]
	default:
		return c, false
	}
	return c, true
}

// checkCopy flags ptr::copy/copy_nonoverlapping/write_bytes (and the
// raw-pointer methods copy_to/copy_from/…) in two shapes: the count is
// the source's length (src.len(), or a local made from it) and nothing
// relates it to the destination's capacity; or the count comes from a
// parameter of a safe fn and is compared with neither buffer. Counts that
// are literals, constants, size_of or min(…) are bounded; counts computed
// from a container's own fields are its invariants and stay silent.
// ptr::read/ptr::write through an unbounded offset are flagged too.
func checkCopy(p *checkers.Pass, h checkers.Hit) {
	c, ok := copyArgs(p, h)
	if !ok || !UnsafeContext(c.call).Valid() {
		return
	}
	s := scopeOf(p, c.call)
	if s == nil {
		return
	}
	if !c.count.Valid() {
		checkSingleCopy(p, s, c)
		return
	}
	ct := c.count.Text()
	if c.count.Kind() == "integer_literal" || isConstName(ct) || strings.Contains(ct, "size_of") || strings.Contains(ct, "min(") {
		return
	}
	names := identsOf(c.count)
	srcBase := s.resolvedBase(c.src, c.call.Start())
	var msg string
	switch param := s.paramDerived(scalarIdents(c.count), c.call.Start(), 0); {
	case srcBase != "" && s.lengthOf(c.count, srcBase, c.call.Start()):
		if s.countCovers(c.count, c.dst, srcBase, c.call.Start()) {
			return
		}
		msg = fmt.Sprintf("%s copies %s elements, the length of %s, into %s, and nothing compares that with the destination's capacity",
			c.what, compact(ct), srcBase, compact(c.dst.Text()))
	case param != "":
		if silent, _ := paramContract(p, s, []string{param}); silent || s.compared(append(names, param), c.call.Start(), s.isBound) {
			return
		}
		var unchecked []string
		for _, e := range []syntax.Node{c.dst, c.src} {
			if e.Valid() && !s.countCovers(c.count, e, "", c.call.Start()) {
				unchecked = append(unchecked, compact(e.Text()))
			}
		}
		if len(unchecked) == 0 {
			return
		}
		msg = fmt.Sprintf("%s of %s elements: the count comes from parameter %s of %s and is never compared with the length of %s",
			c.what, compact(ct), param, fnName(s.fn), strings.Join(unchecked, " or "))
	default:
		return
	}
	adjust := 0.0
	if safetyDocumented(p, c.call) {
		adjust -= 0.1
	}
	p.Report(checkers.Finding{Rule: ruleCopy, Span: checkers.NodeSpan(c.call), Adjust: adjust, Message: msg})
}

// lengthOf reports whether count is base's length: base.len(), or a local
// initialised or assigned from it.
func (s *memScope) lengthOf(count syntax.Node, base string, before int) bool {
	if strings.Contains(count.Text(), base+".len()") {
		return true
	}
	for _, n := range identsOf(count) {
		for _, v := range s.valuesOf(n, before) {
			if strings.Contains(v, base+".len()") {
				return true
			}
		}
	}
	return false
}

// valuesOf returns the texts of name's initialiser and of every value
// assigned to it before offset before.
func (s *memScope) valuesOf(name string, before int) []string {
	var out []string
	b, ok := s.bind(name, before)
	if !ok {
		return nil
	}
	if b.value.Valid() {
		out = append(out, b.value.Text())
	}
	s.fn.Walk(func(n syntax.Node) bool {
		if n.Start() >= before {
			return false
		}
		if n.Kind() == "assignment_expression" && n.Start() > b.decl.End() && n.End() <= before && n.Field("left").Text() == name {
			out = append(out, n.Field("right").Text())
		}
		return true
	})
	return out
}

// countCovers reports whether count is known to fit the buffer that ptr
// points into: the count is that buffer's length or a min with it, a
// comparison before the call mentions the buffer (or, for a buffer of
// unknown extent, the count or src), or the buffer was sized with the
// count (with_capacity, vec![…; n], reserve, resize, an allocation).
func (s *memScope) countCovers(count, ptr syntax.Node, src string, before int) bool {
	base := s.resolvedBase(ptr, before)
	names := identsOf(count)
	related := append([]string{}, names...)
	if src != "" {
		related = append(related, strings.Split(src, ".")[0])
	}
	if base == "" {
		if s.compared(related, before, func(k int) bool { return s.ident(k) || s.p.Lex.Kind(k) == checkers.TokNumber }) {
			return true
		}
		return s.sizedWith(related, "", before)
	}
	first := strings.Split(base, ".")[0]
	if strings.Contains(count.Text(), base+".") {
		return true
	}
	for _, n := range names {
		for _, v := range s.valuesOf(n, before) {
			if strings.Contains(v, base+".") || strings.Contains(v, first+".len()") {
				return true
			}
		}
	}
	if s.compared([]string{first}, before, func(k int) bool { return true }) {
		return true
	}
	if s.compared(related, before, func(k int) bool { t := s.text(k); return s.isBound(k) && t != "0" && t != "1" }) {
		return true // if len <= Self::inline_capacity(), if n > MAX { return }
	}
	return s.sizedWith(related, first, before)
}

// sizedWith reports whether, before offset before, a clause that mentions
// buffer (any clause when buffer is "") sizes something with one of names:
// Vec::with_capacity(n), vec![0; n], [0; N], reserve(n), resize(n, …),
// malloc(n).
func (s *memScope) sizedWith(names []string, buffer string, before int) bool {
	a, b := tokRange(s.p.Lex, s.fn.Start(), before)
	for k := max(a, s.lo); k < min(b, s.hi); k++ {
		t := strings.ToLower(s.text(k))
		if t != "with_capacity" && t != "reserve" && t != "reserve_exact" && t != "resize" && t != "vec" && !strings.Contains(t, "alloc") {
			continue
		}
		lo, hi, _ := s.clause(k)
		if s.text(k+1) == "(" || s.text(k+1) == "!" {
			if end := s.p.Lex.Close(k + 2 - boolInt(s.text(k+1) == "(")); end > hi {
				hi = end
			}
		}
		if buffer != "" && !s.anyTok(max(lo-4, s.lo), hi, func(j int) bool { return s.text(j) == buffer }) {
			continue
		}
		if s.anyTok(k, hi, func(j int) bool { return containsStr(names, s.text(j)) }) {
			return true
		}
	}
	return false
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

func containsStr(list []string, x string) bool {
	for _, s := range list {
		if s == x {
			return true
		}
	}
	return false
}

// checkSingleCopy handles ptr::read(p) and ptr::write(p, v): flagged when
// p is base.add(i) with i unbounded, or an unchecked pointer parameter of
// a safe fn.
func checkSingleCopy(p *checkers.Pass, s *memScope, c copyCall) {
	ptr := c.dst
	if !ptr.Valid() {
		ptr = c.src
	}
	for ptr.Kind() == "parenthesized_expression" || ptr.Kind() == "type_cast_expression" {
		if ptr.Kind() == "type_cast_expression" {
			ptr = ptr.Field("value")
		} else {
			ptr = ptr.NamedChild(0)
		}
	}
	msg := ""
	adjust := -0.1
	if fe := callee(ptr); ptr.Kind() == "call_expression" && fe.Kind() == "field_expression" {
		switch fe.Field("field").Text() {
		case "add", "offset", "sub", "byte_add":
			args := Args(ptr)
			if len(args) != 1 || s.indexBound(args[0], baseOf(fe.Field("value")), c.call.Start()) {
				return
			}
			param := s.paramDerived(scalarIdents(args[0]), c.call.Start(), 0)
			if silent, _ := paramContract(p, s, []string{param}); param == "" || silent || s.compared([]string{param}, c.call.Start(), s.isBound) {
				return
			}
			msg = fmt.Sprintf("%s through %s: the offset %s comes from parameter %s of %s and is not compared with the buffer's length",
				c.what, compact(ptr.Text()), compact(args[0].Text()), param, fnName(s.fn))
		}
	} else if ptr.Kind() == "identifier" {
		o, via := s.ptrOrigin(ptr, c.call.Start(), 0)
		isUnsafe, _ := unsafeFnContract(p, s.fn)
		if o == originParam && !isUnsafe && !isExported(s.fn) && !s.nullChecked(via, c.call.Start()) {
			msg = fmt.Sprintf("%s through parameter %s of safe fn %s: any caller can pass null or a dangling pointer", c.what, via, fnName(s.fn))
		}
	}
	if msg == "" {
		return
	}
	if safetyDocumented(p, c.call) {
		adjust -= 0.1
	}
	p.Report(checkers.Finding{Rule: ruleCopy, Span: checkers.NodeSpan(c.call), Adjust: adjust, Message: msg})
}

// checkFromRawParts flags slice::from_raw_parts(_mut)(ptr, len) when ptr
// may be null (a parameter or call result never null-checked) or len
// comes from a parameter or a call with no bound check. Vec:: and
// String::from_raw_parts belong to rust.unsafe.box-from-raw.
func checkFromRawParts(p *checkers.Pass, h checkers.Hit) {
	call, ok := CallAt(h)
	if !ok {
		return
	}
	path := Path(call)
	if !strings.Contains(path, "slice::") && !(path == h.Word && imported(p, "slice", h.Word)) {
		return
	}
	args := Args(call)
	s := scopeOf(p, call)
	if len(args) != 2 || s == nil || !UnsafeContext(call).Valid() {
		return
	}
	var why, from []string
	o, via := s.ptrOrigin(args[0], call.Start(), 0)
	if (o == originParam && !isExported(s.fn) || o == originCall) && !s.nullChecked(via, call.Start()) && !s.nullChecked(baseOf(args[0]), call.Start()) {
		src := "parameter " + via
		if o == originCall {
			src = "the result of " + via + "()"
		}
		why = append(why, fmt.Sprintf("the pointer (%s) is never checked for null", src))
		if o == originParam {
			from = append(from, via)
		}
	}
	if n := s.uncheckedLength(args[1], call.Start()); n != "" {
		why = append(why, fmt.Sprintf("the length %s comes from %s and is never compared with anything", compact(args[1].Text()), n))
		if pn, ok := strings.CutPrefix(n, "parameter "); ok {
			from = append(from, pn)
		}
	}
	if len(why) == 0 {
		return
	}
	silent, adjust := paramContract(p, s, from)
	if silent && len(from) == len(why) {
		return
	}
	if len(why) == 2 {
		adjust += 0.1
	}
	if safetyDocumented(p, call) {
		adjust -= 0.15
	}
	msg := fmt.Sprintf("%s builds a slice from a raw pointer, but %s", compact(call.Text()), strings.Join(why, ", and "))
	p.Report(checkers.Finding{Rule: ruleFromRawParts, Span: checkers.NodeSpan(call), Adjust: adjust, Message: msg})
}

// uncheckedLength returns where an unchecked length comes from
// ("parameter n", "read()"), or "" when it is a length, a literal, or was
// compared before.
func (s *memScope) uncheckedLength(e syntax.Node, before int) string {
	if s.indexBound(e, "", before) {
		return ""
	}
	for _, n := range identsOf(e) {
		if s.lenish[n] {
			continue
		}
		b, ok := s.bind(n, before)
		if !ok {
			continue
		}
		if b.param {
			return "parameter " + n
		}
		if v := b.value; v.Valid() {
			if c := unwrapCall(v); c.Kind() == "call_expression" && callee(c).Kind() != "field_expression" {
				return compact(callee(c).Text()) + "()" // a free function: FFI or a parser, not an accessor
			}
		}
	}
	return ""
}

// unwrapCall strips ?, .unwrap(), casts and parentheses off an expression.
func unwrapCall(e syntax.Node) syntax.Node {
	for range 6 {
		switch e.Kind() {
		case "try_expression", "parenthesized_expression":
			e = e.NamedChild(0)
		case "type_cast_expression":
			e = e.Field("value")
		case "unsafe_block":
			e = tailExpr(e.NamedChild(0))
		case "call_expression":
			fe := callee(e)
			if fe.Kind() == "field_expression" && (fe.Field("field").Text() == "unwrap" || fe.Field("field").Text() == "expect") {
				e = fe.Field("value")
				continue
			}
			return e
		default:
			return e
		}
	}
	return e
}
