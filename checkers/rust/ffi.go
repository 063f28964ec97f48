package rust

import (
	"fmt"
	"strings"

	"github.com/jsec/jsec/checkers"
	"github.com/jsec/jsec/checkers/syntax"
)

// FFI family: C strings, pointers C hands in, ownership handed to C, and
// panics at the extern "C" boundary.
const (
	ruleCStrFromPtr     = "rust.ffi.cstr-from-ptr"
	ruleCStringDangling = "rust.ffi.cstring-dangling"
	ruleIntoRawLeak     = "rust.ffi.into-raw-leak"
	ruleExportNullCheck = "rust.ffi.export-null-check"
	rulePanicBoundary   = "rust.ffi.panic-boundary"
)

// ffiCheckers is the ffi family; its rules are in rules/rust_ffi.go.
var ffiCheckers = []*checkers.Checker{
	{
		Name:     "rust/ffi/cstr-from-ptr",
		Rules:    []string{ruleCStrFromPtr},
		Triggers: []string{"from_ptr"},
		Triage:   func(lx *checkers.Lexed, tok int) bool { return lx.Is(tok-1, "::") && itemHasUnsafe(lx, tok) },
		Check:    checkCStrFromPtr,
	},
	{
		Name:     "rust/ffi/cstring-dangling",
		Rules:    []string{ruleCStringDangling},
		Triggers: []string{"as_ptr"},
		Triage:   triageCStringTemp,
		Check:    checkCStringDangling,
	},
	{
		Name:     "rust/ffi/into-raw-leak",
		Rules:    []string{ruleIntoRawLeak},
		Triggers: []string{"into_raw"},
		Check:    checkIntoRawLeak,
	},
	{
		Name:     "rust/ffi/export-null-check",
		Rules:    []string{ruleExportNullCheck},
		Triggers: []string{"no_mangle", "export_name"},
		Check:    checkExportNullCheck,
	},
	{
		Name:     "rust/ffi/panic-boundary",
		Rules:    []string{rulePanicBoundary},
		Triggers: []string{"extern"},
		Triage: func(lx *checkers.Lexed, tok int) bool {
			fn := tok + 1
			if lx.Kind(fn) == checkers.TokString {
				fn++
			}
			return lx.Is(fn, "fn") && lx.Kind(fn+1) == checkers.TokIdent && !inMacroItem(lx, tok) // a definition, not a fn pointer type
		},
		Check: checkPanicBoundary,
	},
}

// nullableCalls return null as a normal outcome.
var nullableCalls = map[string]bool{
	"getenv": true, "secure_getenv": true, "setlocale": true, "dlerror": true, "readdir": true, "getpwnam": true,
	"getpwuid": true, "getgrnam": true, "getgrgid": true, "strchr": true, "strrchr": true, "strstr": true,
	"fgets": true, "realpath": true, "ttyname": true, "getlogin": true, "nl_langinfo": true, "if_indextoname": true,
}

// checkCStrFromPtr flags CStr::from_ptr(p) when p is a parameter or a
// call result that no is_null() check precedes. Parameters of exported
// extern fns are left to rust.ffi.export-null-check.
func checkCStrFromPtr(p *checkers.Pass, h checkers.Hit) {
	call, ok := CallAt(h)
	if !ok || !strings.HasSuffix(strings.Split(Path(call), "::from_ptr")[0], "CStr") {
		return
	}
	args := Args(call)
	s := scopeOf(p, call)
	if len(args) != 1 || s == nil || !UnsafeContext(call).Valid() {
		return
	}
	o, via := s.ptrOrigin(args[0], call.Start(), 0)
	adjust := 0.0
	var src string
	switch o {
	case originParam:
		if isExported(s.fn) {
			return
		}
		src = "parameter " + via
		silent, a := paramContract(p, s, []string{via})
		if silent {
			return
		}
		if adjust = a; adjust < 0 {
			src += " of extern fn " + fnName(s.fn) + " (C's contract may promise non-null)"
		}
	case originCall:
		src = "the result of " + via + "()"
		if nullableCalls[lastSegment(via)] {
			adjust += 0.1
			src += ", which returns null on failure"
		} else {
			adjust -= 0.15 // many C getters never return null; the check is still cheap
		}
	case originNull:
		src, adjust = via+"()", 0.2
	default:
		return
	}
	if s.nullChecked(via, call.Start()) || s.nullChecked(baseOf(args[0]), call.Start()) {
		return
	}
	if safetyDocumented(p, call) {
		adjust -= 0.1
	}
	msg := fmt.Sprintf("CStr::from_ptr(%s) on %s with no is_null() check: a null pointer is undefined behaviour", compact(args[0].Text()), src)
	p.Report(checkers.Finding{Rule: ruleCStrFromPtr, Span: checkers.NodeSpan(call), Adjust: adjust, Message: msg})
}

// triageCStringTemp keeps .as_ptr() when CString appears earlier in the
// same statement.
func triageCStringTemp(lx *checkers.Lexed, tok int) bool {
	if !lx.Is(tok-1, ".") {
		return false
	}
	for i := tok - 1; i >= 0 && i > tok-80; i-- {
		if lx.Is(i, ";") || lx.Is(i, "{") || lx.Is(i, "}") {
			return false
		}
		if lx.Is(i, "CString") {
			return true
		}
	}
	return false
}

// checkCStringDangling flags CString::new(…).unwrap().as_ptr() whose
// pointer outlives the statement: bound by let, assigned, stored in a
// struct that is, or returned. The temporary CString is dropped at the end
// of the statement, so the pointer dangles. Passing it straight to a call
// in the same statement is fine and stays silent.
func checkCStringDangling(p *checkers.Pass, h checkers.Hit) {
	call, recv, ok := MethodCallAt(h)
	if !ok {
		return
	}
	inner := recv
	for range 4 {
		inner = unwrapCall(inner)
		fe := callee(inner)
		if inner.Kind() == "call_expression" && fe.Kind() == "field_expression" && strings.HasPrefix(fe.Field("field").Text(), "unwrap") {
			inner = fe.Field("value")
			continue
		}
		break
	}
	if inner.Kind() != "call_expression" || !strings.Contains(Path(inner), "CString::") {
		return
	}
	where := danglingSink(call)
	if where == "" {
		return
	}
	msg := fmt.Sprintf("%s is a temporary dropped at the end of this statement, so the pointer from .as_ptr() %s dangles; bind the CString to a variable first",
		compact(recv.Text()), where)
	p.Report(checkers.Finding{Rule: ruleCStringDangling, Span: checkers.NodeSpan(call), Message: msg})
}

// danglingSink says where a pointer expression is kept beyond its
// statement ("is stored in p", "is returned"), or "" when it is only used
// within it.
func danglingSink(e syntax.Node) string {
	for range 12 {
		par := e.Parent()
		switch par.Kind() {
		case "type_cast_expression", "parenthesized_expression", "field_initializer", "field_initializer_list",
			"struct_expression", "array_expression", "tuple_expression", "generic_function":
			e = par
		case "field_expression":
			if f := par.Field("field").Text(); f != "cast" && f != "cast_mut" && f != "cast_const" {
				return ""
			}
			c := par.Parent()
			if c.Kind() == "generic_function" {
				c = c.Parent()
			}
			if c.Kind() != "call_expression" {
				return ""
			}
			e = c
		case "let_declaration":
			return "is stored in " + par.Field("pattern").Text() + " and"
		case "assignment_expression":
			if par.Field("right").Index() != e.Index() {
				return ""
			}
			return "is assigned to " + compact(par.Field("left").Text()) + " and"
		case "return_expression":
			return "is returned and"
		case "expression_statement":
			if !isTailStatement(par) {
				return ""
			}
			e = par
		case "block":
			if (tailExpr(par).Index() == e.Index() || isTailStatement(e)) && par.Parent().Kind() == "function_item" {
				return "is returned and"
			}
			return ""
		default:
			return ""
		}
	}
	return ""
}

// checkIntoRawLeak flags CString/Box/Arc/Rc::into_raw in a file where no
// matching from_raw takes a pointer back.
func checkIntoRawLeak(p *checkers.Pass, h checkers.Hit) {
	var call syntax.Node
	owner := ""
	if c, ok := CallAt(h); ok {
		call, owner = c, ownerType(Path(c))
	} else if c, recv, ok := MethodCallAt(h); ok {
		call = c
		if s := scopeOf(p, c); s != nil {
			owner = s.ownerOf(recv, c.Start())
		}
	}
	switch owner {
	case "CString", "Box", "Arc", "Rc":
	default:
		return
	}
	s := scopeOf(p, call)
	if s == nil || !s.handedToC(call, 0) || fileHasFromRaw(p, owner) {
		return
	}
	msg := fmt.Sprintf("%s hands the allocation out as a raw pointer, and no %s::from_raw in this file takes it back: unless the C side returns it to Rust to be rebuilt and dropped, it leaks (and C's free() must not be used on it)",
		compact(call.Text()), owner)
	p.Report(checkers.Finding{Rule: ruleIntoRawLeak, Span: checkers.NodeSpan(call), Message: msg})
}

// handedToC reports whether the value of e reaches C code: returned from
// an extern fn, passed to a foreign function, or written through an
// out-pointer (*out = e) in an extern fn; directly or through one let.
func (s *memScope) handedToC(e syntax.Node, depth int) bool {
	for range 12 {
		par := e.Parent()
		switch par.Kind() {
		case "type_cast_expression", "parenthesized_expression", "unsafe_block":
			e = par
		case "field_expression":
			if f := par.Field("field").Text(); f != "cast" && f != "cast_mut" && f != "cast_const" {
				return false
			}
			c := par.Parent()
			if c.Kind() == "generic_function" {
				c = c.Parent()
			}
			e = c
		case "expression_statement":
			if !isTailStatement(par) {
				return false
			}
			e = par
		case "block":
			if tailExpr(par).Index() != e.Index() && !isTailStatement(e) {
				return false
			}
			if fn := par.Parent(); fn.Kind() == "function_item" {
				return externABI(fn)
			}
			e = par
		case "return_expression":
			return externABI(EnclosingFunction(par))
		case "arguments":
			return isForeignCall(s.p, par.Parent()) && !passesDestructor(par, e)
		case "assignment_expression":
			return par.Field("right").Index() == e.Index() && par.Field("left").Kind() == "unary_expression" && externABI(s.fn)
		case "let_declaration":
			if depth > 0 || par.Field("pattern").Kind() != "identifier" {
				return false
			}
			for _, i := range s.mentions(par.Field("pattern").Text(), par.End(), s.fn.End()) {
				if id := s.p.Tree.NodeAt(int(s.p.Lex.Tokens[i].Start)); id.Kind() == "identifier" && s.handedToC(id, 1) {
					return true
				}
			}
			return false
		default:
			return false
		}
	}
	return false
}

// passesDestructor reports whether another argument of the call hands C a
// function to free the pointer with (Some(free_value), drop_boxed::<T>).
func passesDestructor(args, arg syntax.Node) bool {
	for a := range args.NamedChildren() {
		if a.Index() == arg.Index() {
			continue
		}
		t := strings.ToLower(a.Text())
		for _, w := range []string{"free", "drop", "release", "destroy", "dealloc", "delete", "dtor", "destructor"} {
			if strings.Contains(t, w) {
				return true
			}
		}
	}
	return false
}

// isForeignCall reports whether call calls C: a path through a -sys or
// ffi module, libc, or a function declared in an extern block of the file.
func isForeignCall(p *checkers.Pass, call syntax.Node) bool {
	fn := callee(call)
	if fn.Kind() == "field_expression" {
		return false
	}
	path := Path(call)
	if strings.Contains(path, "ffi::") || strings.Contains(path, "sys::") || strings.HasPrefix(path, "libc::") {
		return true
	}
	return foreignFns(p)[lastSegment(path)]
}

type foreignFnsKey struct{}

// foreignFns returns the functions declared in the file's extern blocks.
func foreignFns(p *checkers.Pass) map[string]bool {
	return checkers.Memo(p, foreignFnsKey{}, func() map[string]bool {
		lx := p.Lex
		out := map[string]bool{}
		for i := range lx.Tokens {
			if !lx.Is(i, "extern") || lx.Kind(i) != checkers.TokIdent {
				continue
			}
			open := i + 1
			if lx.Kind(open) == checkers.TokString {
				open++
			}
			if !lx.Is(open, "{") {
				continue
			}
			end := lx.Close(open)
			for j := open + 1; j < end; j++ {
				if lx.Is(j, "fn") && lx.Kind(j+1) == checkers.TokIdent {
					out[lx.Text(j+1)] = true
				}
			}
		}
		return out
	})
}

// ownerOf returns the owning type of a receiver: CString for
// CString::new(…).unwrap() or a local made that way or declared so.
func (s *memScope) ownerOf(e syntax.Node, before int) string {
	for range 4 {
		e = unwrapCall(e)
		switch e.Kind() {
		case "call_expression":
			return ownerType(Path(e))
		case "identifier":
			b, ok := s.bind(e.Text(), before)
			if !ok {
				return ""
			}
			if b.typ.Valid() {
				t := normType(s.p, b.typ)
				if i := strings.Index(t, "<"); i >= 0 {
					t = t[:i]
				}
				return lastSegment(t)
			}
			e, before = b.value, b.decl.Start()
		default:
			return ""
		}
	}
	return ""
}

type fromRawKey struct{ owner string }

// fileHasFromRaw reports whether the file rebuilds owner from a raw
// pointer (Owner::from_raw, Arc::decrement_strong_count).
func fileHasFromRaw(p *checkers.Pass, owner string) bool {
	return checkers.Memo(p, fromRawKey{owner}, func() bool {
		lx := p.Lex
		for i := range lx.Tokens {
			if lx.Kind(i) != checkers.TokIdent {
				continue
			}
			switch lx.Text(i) {
			case "from_raw", "decrement_strong_count":
				if pathOwner(lx, i) == owner {
					return true
				}
			}
		}
		return false
	})
}

// checkExportNullCheck flags the first use of each raw pointer parameter of
// a #[no_mangle]/#[export_name] extern fn that no is_null() check
// precedes: *p, p.read(), p.as_ref().unwrap(), slice::from_raw_parts(p, …),
// CStr::from_ptr(p), Box::from_raw(p).
func checkExportNullCheck(p *checkers.Pass, h checkers.Hit) {
	attr := h.Node.Ancestor("attribute_item")
	fn := attr.NextNamedSibling()
	for fn.Is("attribute_item", "line_comment", "block_comment") {
		fn = fn.NextNamedSibling()
	}
	if fn.Kind() != "function_item" || !externABI(fn) || !fn.Field("body").Valid() {
		return
	}
	s := scopeOf(p, fn)
	if s == nil {
		return
	}
	_, doc := unsafeFnContract(p, fn)
	for param := range fn.Field("parameters").NamedChildren() {
		if param.Kind() != "parameter" || param.Field("type").Kind() != "pointer_type" || param.Field("pattern").Kind() != "identifier" {
			continue
		}
		name := param.Field("pattern").Text()
		for _, d := range s.derefs(name, param.End()) {
			if !UnsafeContext(d.node).Valid() {
				continue
			}
			if b, ok := s.bind(name, d.node.Start()); !ok || b.decl.Index() != param.Index() {
				break
			}
			if s.nullChecked(name, d.node.Start()) {
				break
			}
			adjust := 0.0
			if doc {
				adjust -= 0.1
			}
			if safetyDocumented(p, d.node) {
				adjust -= 0.1
			}
			msg := fmt.Sprintf("exported fn %s uses pointer parameter %s (%s) through %s with no is_null() check: C callers can pass NULL",
				fnName(fn), name, normType(p, param.Field("type")), d.how)
			p.Report(checkers.Finding{Rule: ruleExportNullCheck, Span: checkers.NodeSpan(d.node), Adjust: adjust, Message: msg})
			break
		}
	}
}

// checkPanicBoundary flags unwrap(), expect(), panic!, unreachable!,
// todo! and unimplemented! in the body of an extern "C" fn defined in
// Rust, outside std::panic::catch_unwind. extern "C-unwind" fns may
// unwind and are left alone.
func checkPanicBoundary(p *checkers.Pass, h checkers.Hit) {
	ext := h.Node.Parent()
	fn := ext.Parent().Parent()
	if ext.Kind() != "extern_modifier" || ext.Parent().Kind() != "function_modifiers" || fn.Kind() != "function_item" ||
		!externABI(fn) || p.InTest() {
		return
	}
	body := fn.Field("body")
	adjust := 0.0
	if isExported(fn) {
		adjust += 0.05
	}
	body.Walk(func(n syntax.Node) bool {
		switch n.Kind() {
		case "function_item":
			return false
		case "call_expression":
			if lastSegment(Path(n)) == "catch_unwind" {
				return false
			}
			fe := callee(n)
			if fe.Kind() != "field_expression" {
				return true
			}
			if m := fe.Field("field"); m.Text() == "unwrap" || m.Text() == "expect" {
				msg := fmt.Sprintf("%s() can panic inside extern fn %s: unwinding into C aborts the process (undefined behaviour before Rust 1.81); return an error code or wrap the body in catch_unwind",
					m.Text(), fnName(fn))
				p.Report(checkers.Finding{Rule: rulePanicBoundary, Span: checkers.Span{Start: m.Start(), End: n.End()}, Adjust: adjust, Message: msg})
			}
		case "macro_invocation":
			switch m := lastSegment(n.Field("macro").Text()); m {
			case "panic", "unreachable", "todo", "unimplemented":
				msg := fmt.Sprintf("%s! inside extern fn %s: unwinding into C aborts the process (undefined behaviour before Rust 1.81); return an error code instead",
					m, fnName(fn))
				p.Report(checkers.Finding{Rule: rulePanicBoundary, Span: checkers.NodeSpan(n), Adjust: adjust, Message: msg})
			}
		}
		return true
	})
}
