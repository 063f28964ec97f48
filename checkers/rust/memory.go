package rust

import (
	"fmt"
	"strings"

	"github.com/jsec/jsec/checkers"
	"github.com/jsec/jsec/checkers/syntax"
)

// Memory family: leaks through mem::forget, ManuallyDrop and Rc cycles.
const (
	ruleForget       = "rust.memory.forget"
	ruleManuallyDrop = "rust.memory.manually-drop"
	ruleRcCycle      = "rust.memory.rc-cycle"
)

// memoryCheckers is the memory family; its rules are in rules/rust_memory.go.
var memoryCheckers = []*checkers.Checker{
	{
		Name:     "rust/memory/forget",
		Rules:    []string{ruleForget},
		Triggers: []string{"forget"},
		Triage:   func(lx *checkers.Lexed, tok int) bool { return lx.Is(tok+1, "(") && !lx.Is(tok-1, ".") },
		Check:    checkForget,
	},
	{
		Name:     "rust/memory/manually-drop",
		Rules:    []string{ruleManuallyDrop},
		Triggers: []string{"ManuallyDrop"},
		Triage:   func(lx *checkers.Lexed, tok int) bool { return lx.Is(tok+1, "::") && lx.Is(tok+2, "new") },
		Check:    checkManuallyDrop,
	},
	{
		Name:     "rust/memory/rc-cycle",
		Rules:    []string{ruleRcCycle},
		Triggers: []string{"Rc", "Arc"},
		Triage:   triageStructField,
		Check:    checkRcCycle,
	},
}

// checkForget flags mem::forget(x) when x owns a resource (a Box, Vec,
// String, file, socket or lock guard). When x's buffer or handle was
// handed out first (x.as_mut_ptr(), x.as_raw_fd()) the forget is the
// handoff: lowered, and silent with a SAFETY comment. forget(self) is the
// usual way to skip a Drop and is left alone.
func checkForget(p *checkers.Pass, h checkers.Hit) {
	call, ok := CallAt(h)
	if !ok {
		return
	}
	path := Path(call)
	if !strings.Contains(path, "mem::") && !(path == "forget" && imported(p, "mem", "forget")) {
		return
	}
	args := Args(call)
	s := scopeOf(p, call)
	if len(args) != 1 || s == nil {
		return
	}
	arg := args[0]
	kind := s.resourceKind(arg, call.Start(), 0)
	if kind == "" {
		return
	}
	adjust := 0.0
	msg := fmt.Sprintf("mem::forget(%s) never runs the destructor of this %s: its memory or handle leaks", compact(arg.Text()), kind)
	if arg.Kind() == "identifier" && s.handedOff(arg.Text(), call.Start()) {
		if safetyDocumented(p, call) || s.rebuiltAfter(call.End()) {
			return
		}
		adjust -= 0.2
		msg += fmt.Sprintf(" unless whoever got %s's raw pointer or handle frees it; prefer into_raw/into_raw_parts/into_raw_fd, which say so", arg.Text())
	}
	if strings.Contains(kind, "guard") {
		adjust += 0.1
		msg = fmt.Sprintf("mem::forget(%s) leaks a %s: the lock or borrow is never released", compact(arg.Text()), kind)
	}
	p.Report(checkers.Finding{Rule: ruleForget, Span: checkers.NodeSpan(call), Adjust: adjust, Message: msg})
}

var ownedTypes = map[string]string{
	"Box": "Box", "Vec": "Vec", "String": "String", "File": "File", "TcpStream": "socket", "TcpListener": "socket",
	"UdpSocket": "socket", "UnixStream": "socket", "OwnedFd": "file descriptor", "Child": "child process",
	"MutexGuard": "lock guard", "RwLockReadGuard": "lock guard", "RwLockWriteGuard": "lock guard",
	"RefMut": "RefCell borrow guard", "Ref": "RefCell borrow guard", "CString": "CString", "PathBuf": "PathBuf",
	"HashMap": "HashMap", "BTreeMap": "BTreeMap", "VecDeque": "VecDeque",
}

// resourceKind names what e owns, from its declared type or how it was
// made, or returns "" when it owns nothing jsec recognises.
func (s *memScope) resourceKind(e syntax.Node, before, depth int) string {
	if depth > 4 || !e.Valid() {
		return ""
	}
	switch e.Kind() {
	case "identifier":
		b, ok := s.bind(e.Text(), before)
		if !ok {
			return ""
		}
		if b.typ.Valid() {
			return typeKind(normType(s.p, b.typ))
		}
		return s.resourceKind(b.value, b.decl.Start(), depth+1)
	case "macro_invocation":
		switch lastSegment(e.Field("macro").Text()) {
		case "vec":
			return "Vec"
		case "format":
			return "String"
		}
	case "try_expression", "parenthesized_expression":
		return s.resourceKind(e.NamedChild(0), before, depth+1)
	case "call_expression":
		fe := callee(e)
		if fe.Kind() == "field_expression" {
			switch m := fe.Field("field").Text(); {
			case strings.HasPrefix(m, "unwrap") || strings.HasPrefix(m, "expect"):
				return s.resourceKind(fe.Field("value"), before, depth+1)
			}
			switch fe.Field("field").Text() {
			case "lock":
				return "lock guard"
			case "borrow_mut":
				return "RefCell borrow guard"
			case "to_vec":
				return "Vec"
			case "to_string":
				return "String"
			}
			return ""
		}
		path := Path(e)
		return typeKind(ownerType(path))
	}
	return ""
}

// typeKind maps a type to the resource it owns; references own nothing.
func typeKind(t string) string {
	if strings.HasPrefix(t, "&") || t == "" {
		return ""
	}
	if i := strings.Index(t, "<"); i >= 0 {
		t = t[:i]
	}
	return ownedTypes[lastSegment(t)]
}

// handedOff reports whether name's buffer or handle was taken as a raw
// pointer or descriptor before offset before: name.as_ptr(),
// name.as_mut_ptr(), name.as_raw_fd(), ptr::read(&name.f).
func (s *memScope) handedOff(name string, before int) bool {
	for _, i := range s.mentions(name, s.fn.Start(), before) {
		j := after(name, i)
		if s.text(j) == "." {
			m := s.text(j + 1)
			if m == "as_ptr" || m == "as_mut_ptr" || strings.HasPrefix(m, "as_raw") || strings.HasPrefix(m, "as_mut_slice") {
				return true
			}
		}
		if s.text(i-1) == "&" || s.text(i-1) == "mut" && s.text(i-2) == "&" {
			if lo, hi, _ := s.clause(i); s.hasTok(max(lo-3, s.lo), hi, "read", "copy_nonoverlapping", "copy") {
				return true
			}
		}
	}
	return false
}

// rebuiltAfter reports whether an owner is rebuilt from raw parts after
// offset from (the forget-then-from_raw_parts idiom).
func (s *memScope) rebuiltAfter(from int) bool {
	a, _ := tokRange(s.p.Lex, from, from)
	return s.hasTok(a, s.hi, "from_raw_parts", "from_raw", "from_raw_fd")
}

// checkManuallyDrop flags let x = ManuallyDrop::new(v) when x is never
// dropped (ManuallyDrop::drop/take/into_inner), moved, returned, stored
// or handed out as a raw pointer (x.as_mut_ptr(), the into_raw_parts
// idiom) in the rest of the function.
func checkManuallyDrop(p *checkers.Pass, h checkers.Hit) {
	si := h.Node.Parent()
	if si.Kind() != "scoped_identifier" || si.Field("path").Index() != h.Node.Index() || si.Field("name").Text() != "new" {
		return
	}
	call := si.Parent()
	let := call.Parent()
	if call.Kind() != "call_expression" || let.Kind() != "let_declaration" || let.Field("value").Index() != call.Index() ||
		let.Field("pattern").Kind() != "identifier" {
		return
	}
	s := scopeOf(p, call)
	if s == nil {
		return
	}
	name := let.Field("pattern").Text()
	if a := Args(call); len(a) == 1 && strings.Contains(a[0].Text(), "from_raw") {
		return // a value rebuilt from a raw pointer or fd it does not own, wrapped so that it is not freed or closed
	}
	for _, i := range s.mentions(name, let.End(), s.fn.End()) {
		j := after(name, i)
		if lo, hi, _ := s.clause(i); s.anyTok(max(lo-4, s.lo), hi, func(k int) bool { return strings.Contains(s.text(k), "raw") }) {
			return // handed to a *_raw function: ownership moves to a raw pointer
		}
		switch {
		case s.text(j) == ".":
			if m := s.text(j + 1); m == "as_ptr" || m == "as_mut_ptr" || strings.HasPrefix(m, "as_raw") || strings.HasPrefix(m, "into_raw") {
				return
			}
		case s.text(i-1) == "*", s.text(j) == "[":
		case s.text(i-1) == "&":
		case s.text(i-1) == "mut" && s.text(i-2) == "&":
			return // ManuallyDrop::drop(&mut x), take(&mut x), or code that may
		default:
			return // moved, returned or stored
		}
	}
	inner := ""
	if a := Args(call); len(a) == 1 {
		inner = compact(a[0].Text())
	}
	msg := fmt.Sprintf("ManuallyDrop %s (of %s) is never dropped, taken, moved or handed out as a raw pointer in %s: it leaks", name, inner, fnName(s.fn))
	p.Report(checkers.Finding{Rule: ruleManuallyDrop, Span: checkers.NodeSpan(call), Message: msg})
}

// triageStructField keeps Rc/Arc inside a struct item.
func triageStructField(lx *checkers.Lexed, tok int) bool {
	it := lx.ItemOf(tok)
	if it < 0 {
		return false
	}
	for i := lx.Items[it].TokStart; i < tok; i++ {
		switch {
		case lx.Is(i, "#") && lx.Is(i+1, "["):
			if c := lx.Close(i + 1); c > 0 {
				i = c
			}
		case lx.Is(i, "pub"):
			if lx.Is(i+1, "(") {
				i = lx.Close(i + 1)
			}
		default:
			return lx.Is(i, "struct")
		}
	}
	return false
}

var interiorMutRE = checkers.LazyRegexp(`\b(RefCell|Cell|Mutex|RwLock|OnceCell|UnsafeCell)<`)

type rcCycleKey struct{ start int }

// checkRcCycle flags a struct whose strong Rc/Arc links can close a
// cycle: two or more fields hold a strong, mutable link to the struct
// itself (prev and next, parent and children), or it holds one to another
// struct of the file that holds one back; and no field holds a Weak. A
// cycle needs interior mutability (RefCell, Cell, Mutex, RwLock) to be
// built after both ends exist, so links without it do not count.
func checkRcCycle(p *checkers.Pass, h checkers.Hit) {
	st := h.Node.Ancestor("struct_item")
	if !st.Valid() {
		return
	}
	name := st.Field("name").Text()
	d := fileStructs(p)[name]
	if d == nil {
		return
	}
	checkers.Memo(p, rcCycleKey{st.Start()}, func() bool {
		if msg := rcCycle(p, d); msg != "" {
			nm := st.Field("name")
			p.Report(checkers.Finding{Rule: ruleRcCycle, Span: checkers.Span{Start: st.Start(), End: nm.End()}, Message: msg})
		}
		return true
	})
}

func rcCycle(p *checkers.Pass, d *structDef) string {
	if hasWeak(d) {
		return ""
	}
	var self []string
	for _, f := range d.fields {
		if strongLink(f.typ, d.name) || strongLink(f.typ, "Self") {
			self = append(self, f.name)
		}
	}
	if len(self) >= 2 {
		return fmt.Sprintf("struct %s links to itself through strong, mutable Rc/Arc fields %s and no Weak: nodes that point at each other are never freed",
			d.name, strings.Join(self, " and "))
	}
	for _, f := range d.fields {
		for _, other := range fileStructs(p) {
			if other.name == d.name || other.start < d.start || !strongLink(f.typ, other.name) || hasWeak(other) {
				continue
			}
			for _, g := range other.fields {
				if strongLink(g.typ, d.name) {
					return fmt.Sprintf("struct %s holds %s in field %s and %s holds %s in field %s, both strong and mutable, no Weak: the pair is never freed",
						d.name, f.typ, f.name, other.name, g.typ, g.name)
				}
			}
		}
	}
	return ""
}

func hasWeak(d *structDef) bool {
	for _, f := range d.fields {
		if strings.Contains(f.typ, "Weak<") {
			return true
		}
	}
	return false
}

// strongLink reports whether field type typ holds an Rc or Arc of target
// with interior mutability somewhere in the type.
func strongLink(typ, target string) bool {
	i := strings.Index(typ, "Rc<")
	if j := strings.Index(typ, "Arc<"); j >= 0 && (i < 0 || j < i) {
		i = j
	}
	if i < 0 {
		return false
	}
	if !interiorMutRE().MatchString(typ) {
		return false
	}
	return wordIn(typ[i:], target)
}

// wordIn reports whether w occurs in s as a whole identifier.
func wordIn(s, w string) bool {
	for i := 0; ; {
		j := strings.Index(s[i:], w)
		if j < 0 {
			return false
		}
		j += i
		end := j + len(w)
		if (j == 0 || !IdentByte(s[j-1])) && (end == len(s) || !IdentByte(s[end])) {
			return true
		}
		i = j + 1
	}
}
