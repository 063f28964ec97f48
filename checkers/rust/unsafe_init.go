package rust

import (
	"fmt"
	"strings"

	"github.com/jsec/jsec/checkers"
	"github.com/jsec/jsec/checkers/syntax"
)

// The ownership and initialisation rules of the unsafe family: owners
// rebuilt from raw pointers, uninitialised or zeroed values, assume_init
// and Vec::set_len.

// checkBoxFromRaw flags Box/Arc/Rc/CString::from_raw and Vec/String::
// from_raw_parts called twice on one pointer on one path, on a pointer to
// a stack value or borrowed data, on a buffer that a live owner still
// holds (v.as_mut_ptr() with no forget or ManuallyDrop), or on
// Arc/Rc::as_ptr. A pointer of unknown origin (a parameter, a field) is
// left alone: its into_raw may be in another file.
func checkBoxFromRaw(p *checkers.Pass, h checkers.Hit) {
	call, ok := CallAt(h)
	if !ok {
		return
	}
	path := Path(call)
	owner := ownerType(path)
	switch {
	case h.Word == "from_raw" && (owner == "Box" || owner == "Arc" || owner == "Rc" || owner == "CString"):
	case h.Word == "from_raw_parts" && (owner == "Vec" || owner == "String"):
	default:
		return
	}
	args := Args(call)
	s := scopeOf(p, call)
	if len(args) == 0 || s == nil || !UnsafeContext(call).Valid() {
		return
	}
	ptr := args[0]
	what := owner + "::" + h.Word
	if prev := s.earlierFromRaw(call, ptr); prev.Valid() {
		line := p.File.Lines().Line(prev.Start())
		msg := fmt.Sprintf("second %s(%s) on the same pointer (first at line %d): two owners free it twice", what, compact(ptr.Text()), line)
		p.Report(checkers.Finding{Rule: ruleBoxFromRaw, Span: checkers.NodeSpan(call), Adjust: 0.2, Message: msg})
		return
	}
	msg, adjust := s.rawProvenance(ptr, owner, call.Start())
	if msg == "" {
		return // a pointer of unknown origin: it may well come from into_raw in another file
	}
	msg = fmt.Sprintf("%s(%s): %s", what, compact(ptr.Text()), msg)
	if safetyDocumented(p, call) {
		adjust -= 0.1
	}
	p.Report(checkers.Finding{Rule: ruleBoxFromRaw, Span: checkers.NodeSpan(call), Adjust: adjust, Message: msg})
}

// ownerType returns the type in front of ::from_raw: "Box" for
// std::boxed::Box::<T>::from_raw.
func ownerType(path string) string {
	i := strings.LastIndex(path, "::")
	if i < 0 {
		return ""
	}
	t := path[:i]
	if j := strings.Index(t, "::<"); j >= 0 {
		t = t[:j]
	}
	if j := strings.Index(t, "<"); j >= 0 {
		t = t[:j]
	}
	return lastSegment(t)
}

// earlierFromRaw returns an earlier X::from_raw call on the same pointer
// text that the same path of execution reaches.
func (s *memScope) earlierFromRaw(call, ptr syntax.Node) syntax.Node {
	key := compact(ptr.Text())
	var found syntax.Node
	s.fn.Walk(func(n syntax.Node) bool {
		if n.Start() >= call.Start() {
			return false
		}
		if n.Kind() != "call_expression" || n.Index() == call.Index() {
			return true
		}
		seg := lastSegment(Path(n))
		if seg != "from_raw" && seg != "from_raw_parts" {
			return true
		}
		if o := ownerType(Path(n)); o == "" || o == "slice" || o == "CStr" {
			return true
		}
		args := Args(n)
		if len(args) == 0 || compact(args[0].Text()) != key || exclusive(n, call) {
			return true
		}
		for _, id := range identsOf(ptr) {
			if s.lastAssign(id, n.End(), call.Start()).Valid() {
				return true
			}
		}
		found = n
		return true
	})
	return found
}

// exclusive reports whether a and b (a first) cannot both run: they sit in
// different branches of one if or match, or a's block leaves (return,
// break, continue) after a.
func exclusive(a, b syntax.Node) bool {
	lca := a.Parent()
	for lca.Valid() && !lca.Contains(b) {
		lca = lca.Parent()
	}
	var ca, cb syntax.Node
	for c := range lca.Children() {
		if c.Contains(a) {
			ca = c
		}
		if c.Contains(b) {
			cb = c
		}
	}
	if lca.Is("if_expression", "match_block", "if_let_expression") && ca.Index() != cb.Index() {
		return true
	}
	for x := a; x.Valid() && x.Index() != lca.Index(); x = x.Parent() {
		if x.Parent().Kind() != "block" {
			continue
		}
		for sib := x.NextSibling(); sib.Valid(); sib = sib.NextSibling() {
			leaves := false
			sib.Walk(func(n syntax.Node) bool {
				if n.Is("return_expression", "break_expression", "continue_expression") {
					leaves = true
				}
				return !leaves && !n.Is("closure_expression", "function_item")
			})
			if leaves {
				return true
			}
		}
	}
	return false
}

// rawProvenance says what is wrong with where a pointer handed to
// X::from_raw came from, or "" when nothing is known to be wrong.
func (s *memScope) rawProvenance(ptr syntax.Node, owner string, before int) (string, float64) {
	e := ptr
	for range 8 {
		switch e.Kind() {
		case "parenthesized_expression":
			e = e.NamedChild(0)
			continue
		case "type_cast_expression":
			e = e.Field("value")
			continue
		case "reference_expression":
			return fmt.Sprintf("the pointer is %s, a reference to a value %s does not own", compact(e.Text()), owner), 0.15
		case "macro_invocation":
			if m := lastSegment(e.Field("macro").Text()); m == "addr_of" || m == "addr_of_mut" {
				return fmt.Sprintf("the pointer comes from %s!, not from an allocation %s owns", m, owner), 0.15
			}
		case "identifier":
			b, ok := s.bind(e.Text(), before)
			if !ok || b.param || !b.value.Valid() {
				return "", 0
			}
			if a := s.lastAssign(e.Text(), b.decl.End(), before); a.Valid() {
				e, before = a.Field("right"), a.Start()
			} else {
				e, before = b.value, b.decl.Start()
			}
			continue
		case "call_expression":
			fe := callee(e)
			if f := fe.Field("field").Text(); fe.Kind() == "field_expression" && (f == "cast" || f == "cast_mut" || f == "cast_const") {
				e = fe.Field("value")
				continue
			}
			return s.callProvenance(e, owner, before)
		}
		return "", 0
	}
	return "", 0
}

func (s *memScope) callProvenance(e syntax.Node, owner string, before int) (string, float64) {
	fe := callee(e)
	if fe.Kind() == "field_expression" {
		switch fe.Field("field").Text() {
		case "as_ptr", "as_mut_ptr":
			base := baseOf(fe.Field("value"))
			if base == "" || strings.Contains(base, ".") {
				return "", 0
			}
			b, ok := s.bind(base, before)
			known := b.typ.Text() + " " + b.value.Text()
			if !ok || strings.Contains(known, "ManuallyDrop") || !ownsHeap(known) || s.forgotten(base, before) {
				return "", 0 // not known to be a live owner (a NonNull, a raw handle …)
			}
			return fmt.Sprintf("%s still owns the buffer behind %s (no mem::forget or ManuallyDrop), so it is freed twice", base, compact(e.Text())), 0.1
		}
		return "", 0
	}
	if seg := lastSegment(Path(e)); seg == "as_ptr" && (owner == "Arc" || owner == "Rc") {
		return fmt.Sprintf("%s::as_ptr does not give up a reference count, so the count drops once too often", owner), 0.1
	}
	return "", 0
}

// ownsHeap reports whether a declared type or initialiser shows an owner
// of a heap buffer: Vec, String, Box.
func ownsHeap(known string) bool {
	for _, w := range []string{"Vec", "vec!", "String", "Box", "to_vec", "to_string", "to_owned", "collect"} {
		if strings.Contains(known, w) {
			return true
		}
	}
	return false
}

// forgotten reports whether name is passed to mem::forget or
// ManuallyDrop::new, or turned into_raw/leak, anywhere in the function.
func (s *memScope) forgotten(name string, before int) bool {
	for _, i := range s.mentions(name, s.fn.Start(), s.fn.End()) {
		if s.text(i-1) == "(" && (s.text(i-2) == "forget" || s.text(i-2) == "new" && s.text(i-4) == "ManuallyDrop" || s.text(i-2) == "leak" || s.text(i-2) == "into_raw") {
			return true
		}
		if j := after(name, i); s.text(j) == "." && (s.text(j+1) == "leak" || s.text(j+1) == "into_raw_parts" || s.text(j+1) == "into_boxed_slice") {
			return true
		}
	}
	return false
}

// pathOwner returns T for a token i in T::name or T::<U>::name.
func pathOwner(lx *checkers.Lexed, i int) string {
	if !lx.Is(i-1, "::") {
		return ""
	}
	j := i - 2
	if lx.Is(j, ">") {
		depth := 0
		for ; j >= 0; j-- {
			if lx.Is(j, ">") {
				depth++
			} else if lx.Is(j, "<") {
				depth--
				if depth == 0 {
					break
				}
			}
		}
		j -= 2 // skip "<" and "::"
	}
	if j >= 0 && lx.Kind(j) == checkers.TokIdent {
		return lx.Text(j)
	}
	return ""
}

// checkUninit flags mem::uninitialized (always), mem::zeroed and
// MaybeUninit::zeroed().assume_init() for a type that has no valid
// all-zero value, and MaybeUninit::uninit().assume_init() taken at once.
func checkUninit(p *checkers.Pass, h checkers.Hit) {
	switch h.Word {
	case "uninitialized", "zeroed":
		call, ok := CallAt(h)
		if !ok || !UnsafeContext(call).Valid() {
			return
		}
		path := Path(call)
		mu := strings.Contains(path, "MaybeUninit")
		if !strings.Contains(path, "mem::") && !mu && !(path == h.Word && imported(p, "mem", h.Word)) {
			return
		}
		value := call
		if mu {
			if h.Word != "zeroed" || !isAssumeInitOf(call) {
				return
			}
			value = call.Parent().Parent()
		}
		typ := valueType(p, call, value)
		why := zeroInvalid(p, typ, 0)
		if h.Word == "uninitialized" {
			msg := fmt.Sprintf("%s() is deprecated: an uninitialized %s is undefined behaviour for almost every type", compact(path), orUnknown(typ))
			adjust := 0.0
			if why != "" {
				adjust += 0.1
				msg += "; " + why
			}
			p.Report(checkers.Finding{Rule: ruleUninit, Span: checkers.NodeSpan(call), Adjust: adjust, Message: msg})
			return
		}
		if why == "" {
			return
		}
		msg := fmt.Sprintf("%s() makes an all-zero %s, which is not a valid value: %s", compact(path), typ, why)
		p.Report(checkers.Finding{Rule: ruleUninit, Span: checkers.NodeSpan(value), Message: msg})
	case "assume_init":
		call, recv, ok := MethodCallAt(h)
		if !ok || recv.Kind() != "call_expression" || !UnsafeContext(call).Valid() {
			return
		}
		path := Path(recv)
		if lastSegment(path) != "uninit" || !strings.Contains(path, "MaybeUninit") {
			return
		}
		typ := valueType(p, recv, call)
		if typ == "()" || strings.HasPrefix(typ, "MaybeUninit") || strings.HasPrefix(typ, "[MaybeUninit") || strings.HasPrefix(typ, "[mem::MaybeUninit") {
			return // an array of MaybeUninit needs no initialisation
		}
		msg := fmt.Sprintf("%s claims a %s is initialized right after creating it uninitialized: undefined behaviour", compact(call.Text()), orUnknown(typ))
		adjust := 0.0
		if typ == "" {
			adjust -= 0.15 // the type might be an array of MaybeUninit
		}
		p.Report(checkers.Finding{Rule: ruleUninit, Span: checkers.NodeSpan(call), Adjust: adjust, Message: msg})
	}
}

func orUnknown(t string) string {
	if t == "" {
		return "value"
	}
	return t
}

// isAssumeInitOf reports whether call is the receiver of .assume_init().
func isAssumeInitOf(call syntax.Node) bool {
	fe := call.Parent()
	return fe.Kind() == "field_expression" && fe.Field("field").Text() == "assume_init" && fe.Parent().Kind() == "call_expression"
}

// valueType returns the type a value gets: explicit type arguments of the
// call (mem::zeroed::<T>, MaybeUninit::<T>::uninit), else the type its
// context expects (let annotation, struct field, return type).
func valueType(p *checkers.Pass, call, value syntax.Node) string {
	if ta := TypeArgs(call); len(ta) == 1 {
		return normType(p, ta[0])
	}
	if f := call.Field("function"); f.Kind() == "scoped_identifier" {
		if g := f.Field("path"); g.Kind() == "generic_type" {
			if ta := g.Field("type_arguments"); ta.NamedChildCount() == 1 {
				return normType(p, ta.NamedChild(0))
			}
		}
	}
	e := value
	for range 8 {
		par := e.Parent()
		switch par.Kind() {
		case "unsafe_block", "parenthesized_expression":
			e = par
			continue
		case "expression_statement":
			if !isTailStatement(par) {
				return ""
			}
			e = par
			continue
		case "block":
			if tailExpr(par).Index() != e.Index() && !isTailStatement(e) {
				return ""
			}
			e = par
			continue
		case "let_declaration":
			return normType(p, par.Field("type"))
		case "field_initializer":
			st := par.Parent().Parent()
			name := lastSegment(st.Field("name").Text())
			if name == "Self" {
				name = selfType(st)
			}
			if d := fileStructs(p)[name]; d != nil {
				for _, f := range d.fields {
					if f.name == par.Field("field").Text() {
						return f.typ
					}
				}
			}
			return ""
		case "function_item":
			return normType(p, par.Field("return_type"))
		case "return_expression":
			return normType(p, EnclosingFunction(par).Field("return_type"))
		}
		return ""
	}
	return ""
}

// selfType returns the name of the type of the impl around n.
func selfType(n syntax.Node) string {
	t := n.Ancestor("impl_item").Field("type")
	if t.Kind() == "generic_type" {
		t = t.Field("type")
	}
	return lastSegment(t.Text())
}

// zeroInvalid says why the all-zero bit pattern is not a valid value of
// typ, or "" when it is (or typ is unknown).
func zeroInvalid(p *checkers.Pass, typ string, depth int) string {
	if typ == "" || depth > 2 {
		return ""
	}
	if strings.HasPrefix(typ, "&") {
		return typ + " is a reference, and references are never null"
	}
	if strings.HasPrefix(typ, "[") {
		if i := strings.LastIndex(typ, ";"); i > 0 {
			return zeroInvalid(p, typ[1:i], depth+1)
		}
	}
	if strings.HasPrefix(typ, "fn(") || strings.HasPrefix(typ, "extern") || strings.HasPrefix(typ, "unsafe fn") || strings.HasPrefix(typ, "unsafe extern") {
		return typ + " is a function pointer, which is never null"
	}
	base := typ
	if i := strings.Index(base, "<"); i >= 0 {
		base = base[:i]
	}
	base = lastSegment(base)
	switch base {
	case "Box", "Vec", "String", "Rc", "Arc", "NonNull":
		return typ + " holds a non-null pointer"
	case "bool", "char":
		return ""
	}
	if strings.HasPrefix(base, "NonZero") {
		return typ + " is never zero"
	}
	if d := fileStructs(p)[base]; d != nil && d.fields != nil {
		for _, f := range d.fields {
			if why := zeroInvalid(p, f.typ, depth+1); why != "" {
				return fmt.Sprintf("field %s.%s: %s", base, f.name, why)
			}
		}
	}
	return ""
}

// checkAssumeInit flags x.assume_init() (and _ref, _mut, _read, _drop)
// when x = MaybeUninit::uninit() and nothing between them can have
// written x: no x.write(…), x.as_mut_ptr(), &mut x, assignment, or any
// other use but x.as_ptr().
func checkAssumeInit(p *checkers.Pass, h checkers.Hit) {
	call, recv, ok := MethodCallAt(h)
	if !ok || recv.Kind() != "identifier" || !UnsafeContext(call).Valid() {
		return
	}
	s := scopeOf(p, call)
	if s == nil {
		return
	}
	name := recv.Text()
	b, ok := s.bind(name, call.Start())
	if !ok || !b.value.Valid() {
		return
	}
	init := unwrapCall(b.value)
	if init.Kind() != "call_expression" || lastSegment(Path(init)) != "uninit" || !strings.Contains(Path(init), "MaybeUninit") {
		return
	}
	if t := normType(p, b.typ); strings.HasPrefix(t, "[MaybeUninit") || strings.HasPrefix(t, "MaybeUninit<[MaybeUninit") {
		return
	}
	for _, i := range s.mentions(name, b.decl.End(), call.Start()) {
		j := after(name, i)
		if s.text(j) == "." && (s.text(j+1) == "as_ptr" || strings.HasPrefix(s.text(j+1), "assume_init")) {
			continue
		}
		if s.text(i-1) == "&" && s.text(j) != "." {
			continue // &x: a shared borrow cannot write
		}
		return // written, or handed to code that may write it
	}
	line := p.File.Lines().Line(b.decl.Start())
	msg := fmt.Sprintf("%s.%s() but nothing wrote %s since it was created uninitialized at line %d (no %s.write, as_mut_ptr or &mut %s in between)",
		name, h.Word, name, line, name, name)
	adjust := 0.0
	if safetyDocumented(p, call) {
		adjust -= 0.1
	}
	p.Report(checkers.Finding{Rule: ruleAssumeInit, Span: checkers.NodeSpan(call), Adjust: adjust, Message: msg})
}

// benignVecMethods neither write elements nor hand the buffer out.
var benignVecMethods = map[string]bool{
	"reserve": true, "reserve_exact": true, "try_reserve": true, "try_reserve_exact": true, "capacity": true,
	"len": true, "is_empty": true, "clear": true, "truncate": true, "set_len": true, "shrink_to_fit": true,
}

// checkSetLen flags v.set_len(n) that grows v over elements nothing wrote:
// no as_mut_ptr/spare_capacity_mut/push or other use of v between its
// creation and the call. Shrinking (set_len(0), set_len(v.len() - k)) and
// unsafe wrappers that pass their own parameter on are left alone.
func checkSetLen(p *checkers.Pass, h checkers.Hit) {
	call, recv, ok := MethodCallAt(h)
	args := Args(call)
	if !ok || len(args) != 1 || !UnsafeContext(call).Valid() {
		return
	}
	s := scopeOf(p, call)
	name := baseOf(recv)
	if s == nil || name == "" || baseOf(recv) != compact(recv.Text()) {
		return
	}
	n := args[0]
	if t := n.Text(); t == "0" || strings.Contains(t, "-") || strings.Contains(t, "saturating_sub") || strings.Contains(t, "min(") {
		return
	}
	if isUnsafe, _ := unsafeFnContract(p, s.fn); isUnsafe && n.Kind() == "identifier" && s.isParam(n.Text()) {
		return
	}
	from := s.fn.Start()
	origin := ""
	if b, ok := s.bind(name, call.Start()); ok {
		from = b.decl.End()
		if b.value.Valid() {
			origin = compact(b.value.Text())
		}
		if known := b.typ.Text() + " " + b.value.Text(); strings.Contains(known, "File") || strings.Contains(known, "OpenOptions") {
			return // File::set_len, not Vec::set_len
		}
	}
	if s.vecWritten(name, from, call.Start()) {
		return
	}
	msg := fmt.Sprintf("%s.set_len(%s) exposes elements that nothing wrote", name, compact(n.Text()))
	if origin != "" {
		msg += fmt.Sprintf(" (%s = %s)", name, origin)
	}
	adjust := 0.0
	if s.vecWritten(name, call.End(), s.fn.End()) {
		adjust -= 0.1
		msg += "; they are only written after set_len, and reading or borrowing them before that is undefined behaviour"
	}
	if safetyDocumented(p, call) {
		adjust -= 0.15
	}
	p.Report(checkers.Finding{Rule: ruleSetLen, Span: checkers.NodeSpan(call), Adjust: adjust, Message: msg})
}

// vecWritten reports whether name is used in [from, to) in a way that can
// write its elements: any method but the benign ones, &mut name, or
// handing name to a call.
func (s *memScope) vecWritten(name string, from, to int) bool {
	for _, i := range s.mentions(name, from, to) {
		j := after(name, i)
		if s.text(i-1) == "let" || s.text(i-1) == "mut" && s.text(i-2) == "let" {
			continue
		}
		switch {
		case s.text(j) == ".":
			if !benignVecMethods[s.text(j+1)] {
				return true
			}
		case s.text(j) == "=":
			continue // reassigned
		case s.text(i-1) == "&" && s.text(j) != "[":
			continue
		default:
			return true
		}
	}
	return false
}
