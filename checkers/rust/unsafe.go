package rust

import (
	"fmt"
	"strings"

	"github.com/jsec/jsec/checkers"
	"github.com/jsec/jsec/checkers/syntax"
)

// Unsafe-code family. The raw-pointer rules are in unsafe_ptr.go, the
// helpers they share with the memory and ffi families in unsafe_scope.go.
const (
	ruleTransmute     = "rust.unsafe.transmute"
	ruleBlockNoSafety = "rust.unsafe.block-no-safety"
	ruleFnNoSafetyDoc = "rust.unsafe.fn-no-safety-doc"
	ruleRawDeref      = "rust.unsafe.raw-deref"
	ruleGetUnchecked  = "rust.unsafe.get-unchecked"
	rulePointerOffset = "rust.unsafe.pointer-offset"
	ruleCopy          = "rust.unsafe.copy"
	ruleFromRawParts  = "rust.unsafe.from-raw-parts"
	ruleBoxFromRaw    = "rust.unsafe.box-from-raw"
	ruleUninit        = "rust.unsafe.uninit"
	ruleAssumeInit    = "rust.unsafe.assume-init"
	ruleSetLen        = "rust.unsafe.set-len"
	ruleSendSync      = "rust.unsafe.send-sync"
	ruleStaticMut     = "rust.unsafe.static-mut"
	ruleUncheckedMath = "rust.unsafe.unchecked-math"
)

var unsafeCheckers = []*checkers.Checker{
	{
		Name:     "rust/unsafe/transmute",
		Rules:    []string{ruleTransmute},
		Triggers: []string{"transmute", "transmute_copy"},
		Check:    checkTransmute,
	},
	{
		Name:     "rust/unsafe/block-no-safety",
		Rules:    []string{ruleBlockNoSafety},
		Triggers: []string{"unsafe"},
		Triage: func(lx *checkers.Lexed, tok int) bool {
			return lx.Is(tok+1, "{") && !inMacroItem(lx, tok) && !safetyBeforeTokens(lx, tok)
		},
		Check: checkBlockNoSafety,
	},
	{
		Name:     "rust/unsafe/fn-no-safety-doc",
		Rules:    []string{ruleFnNoSafetyDoc},
		Triggers: []string{"unsafe"},
		Triage:   triagePubUnsafeFn,
		Check:    checkFnNoSafetyDoc,
	},
	{
		Name:     "rust/unsafe/raw-deref",
		Rules:    []string{ruleRawDeref},
		Triggers: []string{"const", "mut"},
		Triage:   triageRawPointerDecl,
		Check:    checkRawDeref,
	},
	{
		Name:     "rust/unsafe/get-unchecked",
		Rules:    []string{ruleGetUnchecked},
		Triggers: []string{"get_unchecked", "get_unchecked_mut"},
		Triage:   triageMethod,
		Check:    checkGetUnchecked,
	},
	{
		Name:     "rust/unsafe/pointer-offset",
		Rules:    []string{rulePointerOffset},
		Triggers: []string{"offset", "add", "sub", "byte_add", "byte_sub", "byte_offset", "offset_from", "byte_offset_from"},
		Triage:   triageMethod,
		Check:    checkPointerOffset,
	},
	{
		Name:  "rust/unsafe/copy",
		Rules: []string{ruleCopy},
		Triggers: []string{"copy", "copy_nonoverlapping", "write_bytes", "write", "read", "copy_to", "copy_from",
			"copy_to_nonoverlapping", "copy_from_nonoverlapping"},
		Triage: triageCopy,
		Check:  checkCopy,
	},
	{
		Name:     "rust/unsafe/from-raw-parts",
		Rules:    []string{ruleFromRawParts},
		Triggers: []string{"from_raw_parts", "from_raw_parts_mut"},
		Triage:   func(lx *checkers.Lexed, tok int) bool { return itemHasUnsafe(lx, tok) },
		Check:    checkFromRawParts,
	},
	{
		Name:     "rust/unsafe/box-from-raw",
		Rules:    []string{ruleBoxFromRaw},
		Triggers: []string{"from_raw", "from_raw_parts"},
		Triage:   func(lx *checkers.Lexed, tok int) bool { return lx.Is(tok-1, "::") && itemHasUnsafe(lx, tok) },
		Check:    checkBoxFromRaw,
	},
	{
		Name:     "rust/unsafe/uninit",
		Rules:    []string{ruleUninit},
		Triggers: []string{"uninitialized", "zeroed", "assume_init"},
		Triage:   func(lx *checkers.Lexed, tok int) bool { return itemHasUnsafe(lx, tok) },
		Check:    checkUninit,
	},
	{
		Name:     "rust/unsafe/assume-init",
		Rules:    []string{ruleAssumeInit},
		Triggers: []string{"assume_init", "assume_init_ref", "assume_init_mut", "assume_init_read", "assume_init_drop"},
		Triage:   triageMethod,
		Check:    checkAssumeInit,
	},
	{
		Name:     "rust/unsafe/set-len",
		Rules:    []string{ruleSetLen},
		Triggers: []string{"set_len"},
		Triage:   triageMethod,
		Check:    checkSetLen,
	},
	{
		Name:     "rust/unsafe/send-sync",
		Rules:    []string{ruleSendSync},
		Triggers: []string{"Send", "Sync"},
		Triage:   triageUnsafeImpl,
		Check:    checkSendSync,
	},
	{
		Name:     "rust/unsafe/static-mut",
		Rules:    []string{ruleStaticMut},
		Triggers: []string{"mut"},
		Triage:   func(lx *checkers.Lexed, tok int) bool { return lx.Is(tok-1, "static") && !inExternBlock(lx, tok) },
		Check:    checkStaticMut,
	},
	{
		Name:  "rust/unsafe/unchecked-math",
		Rules: []string{ruleUncheckedMath},
		Triggers: []string{"unchecked_add", "unchecked_sub", "unchecked_mul", "unchecked_shl", "unchecked_shr",
			"unchecked_div", "unchecked_rem", "unchecked_neg", "unchecked_pow"},
		Triage: func(lx *checkers.Lexed, tok int) bool { return itemHasUnsafe(lx, tok) },
		Check:  checkUncheckedMath,
	},
}

// checkTransmute flags mem::transmute calls. A SAFETY comment lowers the
// confidence; extending a reference's lifetime or turning an integer into
// a reference or function pointer raises it.
func checkTransmute(p *checkers.Pass, h checkers.Hit) {
	call, ok := CallAt(h)
	if !ok {
		return
	}
	adjust := 0.0
	msg := fmt.Sprintf("%s reinterprets a value's bits as another type", h.Word)
	targs := TypeArgs(call)
	if len(targs) == 2 {
		from, to := targs[0].Text(), targs[1].Text()
		msg = fmt.Sprintf("%s from %s to %s", h.Word, from, to)
		switch {
		case strings.Contains(to, "'static") && !strings.Contains(from, "'static"):
			adjust += 0.15
			msg += ": extends a lifetime to 'static"
		case isNumeric(from) && isNumeric(to):
			adjust -= 0.1
			msg += ": use to_bits/from_bits or from_ne_bytes instead"
		case isNumeric(from) && (strings.HasPrefix(to, "&") || strings.HasPrefix(to, "fn")):
			adjust += 0.1
			msg += ": an integer becomes a reference or function pointer"
		}
	}
	if HasSafetyComment(p, call) {
		adjust -= 0.2
	}
	p.Report(checkers.Finding{Rule: ruleTransmute, Span: checkers.NodeSpan(call), Adjust: adjust, Message: msg})
}

func isNumeric(t string) bool {
	switch t {
	case "u8", "u16", "u32", "u64", "u128", "usize", "i8", "i16", "i32", "i64", "i128", "isize", "f32", "f64":
		return true
	}
	if strings.HasPrefix(t, "[u8;") || strings.HasPrefix(t, "[u8 ;") {
		return true
	}
	return false
}

// triageMethod keeps x.name( and x.name::<T>( occurrences in items that
// hold unsafe code (every method these rules look at is an unsafe fn).
func triageMethod(lx *checkers.Lexed, tok int) bool {
	return lx.Is(tok-1, ".") && (lx.Is(tok+1, "(") || lx.Is(tok+1, "::")) && itemHasUnsafe(lx, tok)
}

// itemHasUnsafe reports whether the function around token tok (or, outside
// a function, its item) contains the unsafe keyword: the calls and
// dereferences these rules report need it. A large impl block with one
// unsafe method is then parsed only for hits in that method.
func itemHasUnsafe(lx *checkers.Lexed, tok int) bool {
	it := lx.ItemOf(tok)
	if it < 0 {
		return false
	}
	lo, hi := lx.Items[it].TokStart, lx.Items[it].TokEnd
	depth := 0
	for i := tok - 1; i >= lo; i-- {
		switch {
		case lx.Is(i, "}"):
			depth++
		case lx.Is(i, "{") && depth > 0:
			depth--
		case lx.Is(i, "{"):
			j := i - 1
			for j >= lo && !lx.Is(j, ";") && !lx.Is(j, "{") && !lx.Is(j, "}") && !lx.Is(j, "fn") {
				j--
			}
			if j >= lo && lx.Is(j, "fn") {
				for j > lo && !lx.Is(j-1, ";") && !lx.Is(j-1, "{") && !lx.Is(j-1, "}") {
					j-- // back to the start of the signature (unsafe fn)
				}
				if end := lx.Close(i); end > 0 {
					return hasUnsafeToken(lx, j, end)
				}
			}
		}
	}
	return hasUnsafeToken(lx, lo, hi)
}

// triageRawPointerDecl keeps *const/*mut after ":" or "as" (a parameter,
// a let annotation, a cast) in a function body that holds unsafe code;
// declarations in extern blocks and struct fields are left out.
func triageRawPointerDecl(lx *checkers.Lexed, tok int) bool {
	if !lx.Is(tok-1, "*") || !lx.Is(tok-2, ":") && !lx.Is(tok-2, "as") || inMacroItem(lx, tok) {
		return false
	}
	if open := paramListOpen(lx, tok); open >= 0 {
		end := lx.Close(open)
		for i := end + 1; i > 0 && i < len(lx.Tokens); i++ {
			switch {
			case lx.Is(i, ";"):
				return false // a declaration without a body
			case lx.Is(i, "{"):
				return hasUnsafeToken(lx, tokenStatementTok(lx, open), lx.Close(i))
			}
		}
		return false
	}
	return itemHasUnsafe(lx, tok)
}

// paramListOpen returns the "(" of the fn parameter list that holds token
// tok, or -1.
func paramListOpen(lx *checkers.Lexed, tok int) int {
	depth := 0
	for i := tok - 1; i >= 0 && i > tok-400; i-- {
		switch {
		case lx.Is(i, ")") || lx.Is(i, "]"):
			depth++
		case lx.Is(i, "[") && depth > 0:
			depth--
		case lx.Is(i, "("):
			if depth > 0 {
				depth--
				continue
			}
			j := i - 1
			if lx.Is(j, ">") {
				for d := 0; j >= 0; j-- {
					if lx.Is(j, ">") {
						d++
					} else if lx.Is(j, "<") {
						if d--; d == 0 {
							break
						}
					}
				}
				j--
			}
			if lx.Kind(j) == checkers.TokIdent && lx.Is(j-1, "fn") {
				return i
			}
			return -1
		case lx.Is(i, ";") || lx.Is(i, "{") || lx.Is(i, "}"):
			return -1
		}
	}
	return -1
}

// tokenStatementTok is tokenStatementStart as a token index.
func tokenStatementTok(lx *checkers.Lexed, tok int) int {
	i := tok
	for i > 0 && !lx.Is(i-1, ";") && !lx.Is(i-1, "{") && !lx.Is(i-1, "}") {
		i--
	}
	return i
}

// inMacroItem reports whether token tok lies in an item that is a macro
// invocation (f! { … }, thread_local! { … }): tree-sitter keeps its body
// as a token tree, so parsing it would find no code.
func inMacroItem(lx *checkers.Lexed, tok int) bool {
	it := lx.ItemOf(tok)
	if it < 0 {
		return true
	}
	i := lx.Items[it].TokStart
	for lx.Is(i, "#") && lx.Is(i+1, "[") {
		c := lx.Close(i + 1)
		if c < 0 {
			return false
		}
		i = c + 1
	}
	for lx.Is(i+1, "::") {
		i += 2 // a path: std::thread_local!
	}
	return lx.Kind(i) == checkers.TokIdent && lx.Is(i+1, "!") && i < tok
}

// inExternBlock reports whether token tok lies in an item that is an
// extern block (extern "C" { … }): declarations of C code, not Rust's.
func inExternBlock(lx *checkers.Lexed, tok int) bool {
	it := lx.ItemOf(tok)
	if it < 0 {
		return false
	}
	i := lx.Items[it].TokStart
	for lx.Is(i, "#") && lx.Is(i+1, "[") {
		c := lx.Close(i + 1)
		if c < 0 {
			return false
		}
		i = c + 1
	}
	if lx.Is(i, "unsafe") {
		i++
	}
	if !lx.Is(i, "extern") {
		return false
	}
	if lx.Kind(i+1) == checkers.TokString {
		i++
	}
	return lx.Is(i+1, "{") && i < tok
}

func hasUnsafeToken(lx *checkers.Lexed, from, to int) bool {
	for i := from; i < to; i++ {
		if lx.Tokens[i].End-lx.Tokens[i].Start == 6 && lx.Kind(i) == checkers.TokIdent && lx.Is(i, "unsafe") {
			return true
		}
	}
	return false
}

// checkBlockNoSafety flags an unsafe block that no SAFETY comment
// justifies: above it, above its statement, or opening the block.
func checkBlockNoSafety(p *checkers.Pass, h checkers.Hit) {
	blk := h.Node.Parent()
	if blk.Kind() != "unsafe_block" || p.InTest() || safetyDocumented(p, blk) {
		return
	}
	msg := "unsafe block has no // SAFETY: comment saying why it is sound"
	adjust := 0.0
	if fn := EnclosingFunction(blk); fn.Valid() {
		msg = fmt.Sprintf("unsafe block in %s has no // SAFETY: comment saying why it is sound", fnName(fn))
		if isUnsafe, doc := unsafeFnContract(p, fn); isUnsafe {
			adjust -= 0.1 // the fn's own contract covers part of it
			if doc {
				adjust -= 0.05
			}
		}
	}
	p.Report(checkers.Finding{Rule: ruleBlockNoSafety, Span: checkers.Span{Start: blk.Start(), End: h.Node.End()}, Adjust: adjust, Message: msg})
}

// triagePubUnsafeFn keeps "pub [const] [async] unsafe fn|extern".
func triagePubUnsafeFn(lx *checkers.Lexed, tok int) bool {
	if !lx.Is(tok+1, "fn") && !lx.Is(tok+1, "extern") || inMacroItem(lx, tok) {
		return false
	}
	i := tok - 1
	for lx.Is(i, "const") || lx.Is(i, "async") || lx.Is(i, "default") {
		i--
	}
	return lx.Is(i, "pub")
}

// checkFnNoSafetyDoc flags a pub unsafe fn whose docs lack a "# Safety"
// section, the convention (and clippy's missing_safety_doc) for stating
// what the caller must guarantee.
func checkFnNoSafetyDoc(p *checkers.Pass, h checkers.Hit) {
	mods := h.Node.Parent()
	fn := mods.Parent()
	if mods.Kind() != "function_modifiers" || !fn.Is("function_item", "function_signature_item") || p.InTest() {
		return
	}
	vis := ""
	for c := range fn.Children() {
		if c.Kind() == "visibility_modifier" {
			vis = strings.Join(strings.Fields(c.Text()), "")
		}
	}
	if vis != "pub" {
		return
	}
	docs := docComments(p, fn)
	if safetyHeading(docs) {
		return
	}
	msg := fmt.Sprintf("pub unsafe fn %s has no \"# Safety\" section in its docs saying what callers must guarantee", fnName(fn))
	adjust := 0.0
	switch all := strings.Join(docs, "\n"); {
	case len(docs) == 0:
		adjust += 0.1
		msg = fmt.Sprintf("pub unsafe fn %s has no doc comment, so no \"# Safety\" section saying what callers must guarantee", fnName(fn))
	case safetyWordsRE().MatchString(all):
		adjust -= 0.15
		msg += " (its docs mention the requirements, but not under a # Safety heading)"
	}
	p.Report(checkers.Finding{Rule: ruleFnNoSafetyDoc, Span: checkers.Span{Start: fn.Start(), End: fn.Field("name").End()}, Adjust: adjust, Message: msg})
}

// triageUnsafeImpl keeps Send/Sync when "unsafe impl" opens the item.
func triageUnsafeImpl(lx *checkers.Lexed, tok int) bool {
	for i := tok - 1; i >= 0 && i > tok-40; i-- {
		if lx.Is(i, "impl") {
			return lx.Is(i-1, "unsafe")
		}
		if lx.Is(i, "{") || lx.Is(i, "}") || lx.Is(i, ";") {
			return false
		}
	}
	return false
}

// checkSendSync flags unsafe impl Send/Sync. A SAFETY comment lowers the
// confidence; fields that are not thread-safe (raw pointers, Rc, Cell,
// RefCell) and generic parameters without the matching bound raise it.
func checkSendSync(p *checkers.Pass, h checkers.Hit) {
	tr := h.Node
	if par := tr.Parent(); par.Kind() == "scoped_type_identifier" && par.Field("name").Index() == tr.Index() {
		tr = par
	}
	impl := tr.Parent()
	if impl.Kind() != "impl_item" || impl.Field("trait").Index() != tr.Index() || !hasChild(impl, "unsafe") {
		return
	}
	typ := impl.Field("type")
	name := typ.Text()
	if typ.Kind() == "generic_type" {
		name = typ.Field("type").Text()
	}
	name = lastSegment(name)
	msg := fmt.Sprintf("unsafe impl %s for %s: the compiler no longer checks that %s is safe to %s", h.Word, typ.Text(), name, sendSyncVerb(h.Word))
	adjust := 0.0
	if st := fileStructs(p)[name]; st != nil {
		for _, f := range st.fields {
			if why := threadUnsafe(f.typ, h.Word); why != "" {
				adjust += 0.15
				msg += fmt.Sprintf("; field %s: %s is %s", f.name, f.typ, why)
				break
			}
		}
	}
	if tp := unboundedParam(impl, h.Word); tp != "" {
		adjust += 0.1
		msg += fmt.Sprintf("; it holds for every %s, even one that is not %s", tp, h.Word)
	}
	if adjust == 0 {
		adjust -= 0.1 // nothing visibly thread-unsafe: an audit point more than a defect
	}
	if safetyDocumented(p, impl) {
		adjust -= 0.2
	}
	p.Report(checkers.Finding{Rule: ruleSendSync, Span: checkers.Span{Start: impl.Start(), End: typ.End()}, Adjust: adjust, Message: msg})
}

func sendSyncVerb(trait string) string {
	if trait == "Send" {
		return "move to another thread"
	}
	return "share between threads"
}

// threadUnsafe says why a field type defeats Send or Sync, or "".
func threadUnsafe(typ, trait string) string {
	switch {
	case strings.HasPrefix(typ, "*const") || strings.HasPrefix(typ, "*mut") || strings.Contains(typ, "<*const") || strings.Contains(typ, "<*mut"):
		return "a raw pointer"
	case strings.Contains(typ, "NonNull<"):
		return "a raw pointer"
	case strings.HasPrefix(typ, "Rc<") || strings.Contains(typ, "<Rc<") || strings.Contains(typ, "::Rc<"):
		return "reference-counted without atomics"
	case trait == "Sync" && (strings.Contains(typ, "RefCell<") || strings.HasPrefix(typ, "Cell<") || strings.Contains(typ, "<Cell<") || strings.Contains(typ, "UnsafeCell<")):
		return "interior mutability without locking"
	}
	return ""
}

// unboundedParam returns a type parameter of the impl that carries no
// Send or Sync bound (in the parameter list or a where clause).
func unboundedParam(impl syntax.Node, trait string) string {
	tps := impl.Field("type_parameters")
	if !tps.Valid() {
		return ""
	}
	where := ""
	for c := range impl.Children() {
		if c.Kind() == "where_clause" {
			where = c.Text()
		}
	}
	for c := range tps.NamedChildren() {
		name, bounds := "", ""
		switch c.Kind() {
		case "type_identifier":
			name = c.Text()
		case "constrained_type_parameter":
			name, bounds = c.Field("left").Text(), c.Field("bounds").Text()
		default:
			continue
		}
		if strings.Contains(bounds, "Send") || strings.Contains(bounds, "Sync") && trait == "Sync" {
			continue
		}
		if strings.Contains(where, name+":") && (strings.Contains(where, "Send") || strings.Contains(where, "Sync")) {
			continue
		}
		return name
	}
	return ""
}

func hasChild(n syntax.Node, kind string) bool {
	for c := range n.Children() {
		if c.Kind() == kind {
			return true
		}
	}
	return false
}

// checkStaticMut flags each static mut definition once (statics declared
// in extern blocks belong to C and are left alone), counting the places
// in the file that write to it.
func checkStaticMut(p *checkers.Pass, h checkers.Hit) {
	st := h.Node.Parent()
	if st.Kind() != "static_item" || st.Parent().Parent().Kind() == "foreign_mod_item" {
		return
	}
	name := st.Field("name").Text()
	typ := normType(p, st.Field("type"))
	writes := staticWrites(p.Lex, name)
	msg := fmt.Sprintf("static mut %s: %s is global mutable state: every access needs unsafe and races with other threads", name, typ)
	adjust := 0.0
	if writes > 0 {
		msg += fmt.Sprintf("; it is written in %d place(s) in this file", writes)
	} else {
		adjust -= 0.1
		msg += "; this file never writes it, so a plain static may do"
	}
	if atomicType(typ) != "" {
		msg += "; use " + atomicType(typ)
	}
	if safetyDocumented(p, st) {
		adjust -= 0.15
	}
	p.Report(checkers.Finding{Rule: ruleStaticMut, Span: checkers.Span{Start: st.Start(), End: st.Field("name").End()}, Adjust: adjust, Message: msg})
}

// staticWrites counts NAME = …, NAME op= …, &mut NAME and addr_of_mut!(NAME)
// in the file.
func staticWrites(lx *checkers.Lexed, name string) int {
	n := 0
	for i := range lx.Tokens {
		if lx.Kind(i) != checkers.TokIdent || !lx.Is(i, name) || lx.Is(i-1, ".") || lx.Is(i-1, "mut") && lx.Is(i-2, "static") {
			continue
		}
		next := lx.Text(i + 1)
		switch {
		case next == "=" || len(next) == 2 && next[1] == '=' && next != "==" && next != "!=" && next != "<=" && next != ">=",
			len(next) == 3 && next[2] == '=':
			n++
		case lx.Is(i-1, "mut") && lx.Is(i-2, "&"), lx.Is(i-1, "(") && lx.Is(i-2, "!") && lx.Is(i-3, "addr_of_mut"):
			n++
		case next == "." || next == "[":
			// NAME.push(…), NAME[i] = …: a write when followed by = or a mutating call; count assignments only
			if j := skipPostfix(lx, i+1); lx.Is(j, "=") {
				n++
			}
		}
	}
	return n
}

// skipPostfix skips .field, [index] and (args) chains starting at i.
func skipPostfix(lx *checkers.Lexed, i int) int {
	for i < len(lx.Tokens) {
		switch {
		case lx.Is(i, ".") && lx.Kind(i+1) != 0:
			i += 2
		case lx.Is(i, "[") || lx.Is(i, "("):
			if c := lx.Close(i); c > 0 {
				i = c + 1
			} else {
				return i
			}
		default:
			return i
		}
	}
	return i
}

func atomicType(t string) string {
	switch t {
	case "bool":
		return "AtomicBool"
	case "u8", "u16", "u32", "u64", "usize", "i8", "i16", "i32", "i64", "isize":
		return "Atomic" + strings.ToUpper(t[:1]) + t[1:]
	}
	return ""
}

// checkUncheckedMath flags x.unchecked_add(y) & co. unless an operand was
// compared or checked_* before.
func checkUncheckedMath(p *checkers.Pass, h checkers.Hit) {
	call, recv, ok := MethodCallAt(h)
	var operands []string
	if ok {
		operands = identsOf(recv)
	} else if call, ok = CallAt(h); !ok {
		return
	}
	for _, a := range Args(call) {
		operands = append(operands, identsOf(a)...)
	}
	s := scopeOf(p, call)
	if s == nil || len(operands) == 0 || !UnsafeContext(call).Valid() {
		return
	}
	if s.compared(operands, call.Start(), func(k int) bool {
		return s.p.Lex.Kind(k) == checkers.TokIdent || s.p.Lex.Kind(k) == checkers.TokNumber
	}) {
		return
	}
	silent, adjust := paramContract(p, s, operands)
	if silent {
		return
	}
	if safetyDocumented(p, call) {
		adjust -= 0.15
	}
	msg := fmt.Sprintf("%s is undefined behaviour on overflow, and no bound check on %s precedes it", compact(call.Text()), strings.Join(operands, ", "))
	p.Report(checkers.Finding{Rule: ruleUncheckedMath, Span: checkers.NodeSpan(call), Adjust: adjust, Message: msg})
}

func anyParam(s *memScope, names []string) bool {
	for _, n := range names {
		if s.isParam(n) {
			return true
		}
	}
	return false
}

// compact shortens code for a message: white space squeezed, cut at 60.
func compact(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 60 {
		s = s[:57] + "..."
	}
	return s
}
