package c

import (
	"fmt"
	"strings"

	"github.com/jsec/jsec/checkers"
	"github.com/jsec/jsec/checkers/syntax"
)

// C++ family: casts, class design, moves, exceptions, smart pointers and
// container indexing. Its rules are in rules/c_cpp.go and apply to C++
// files only.
const (
	ruleReinterpret  = "cpp.cast.reinterpret"
	ruleConstCast    = "cpp.cast.const"
	ruleVirtualDtor  = "cpp.class.virtual-dtor"
	ruleUseAfterMove = "cpp.move.use-after-move"
	ruleThrowNoexc   = "cpp.exception.throw-noexcept"
	ruleGetEscape    = "cpp.smartptr.get-escape"
	ruleSharedCycle  = "cpp.smartptr.cycle"
	ruleContainerIdx = "cpp.container.unchecked-index"
)

// cppCheckers is the cpp family; its rules are in rules/c_cpp.go.
var cppCheckers = []*checkers.Checker{
	{Name: "cpp/cast/reinterpret", Rules: []string{ruleReinterpret}, Triggers: []string{"reinterpret_cast"}, Check: cppOnly(checkReinterpret)},
	{Name: "cpp/cast/const", Rules: []string{ruleConstCast}, Triggers: []string{"const_cast"}, Check: cppOnly(checkConstCast)},
	{Name: "cpp/class/virtual-dtor", Rules: []string{ruleVirtualDtor}, Triggers: []string{"virtual"}, Triage: triageVirtual, Check: cppOnly(checkVirtualDtor)},
	{Name: "cpp/move", Rules: []string{ruleUseAfterMove}, Triggers: []string{"move"}, Triage: triageMove, Check: cppOnly(checkUseAfterMove)},
	{Name: "cpp/exception/throw", Rules: []string{ruleThrowNoexc}, Triggers: []string{"throw"}, Triage: triageThrow, Check: cppOnly(checkThrowNoexcept)},
	{Name: "cpp/smartptr/get", Rules: []string{ruleGetEscape}, Triggers: []string{"get"}, Triage: triageGet, Check: cppOnly(checkGetEscape)},
	{Name: "cpp/smartptr/cycle", Rules: []string{ruleSharedCycle}, Triggers: []string{"shared_ptr"}, Triage: triageCycle, Check: cppOnly(checkSharedCycle)},
	{Name: "cpp/container/index", Rules: []string{ruleContainerIdx}, Triggers: cppContainerTypes, Triage: triageContainer, Check: cppOnly(checkContainerIndex)},
}

// cppOnly runs a check on C++ files only: C code may use these words as
// plain identifiers.
func cppOnly(check func(*checkers.Pass, checkers.Hit)) func(*checkers.Pass, checkers.Hit) {
	return func(p *checkers.Pass, h checkers.Hit) {
		if p.File.Lang == "cpp" {
			check(p, h)
		}
	}
}

// cppCastAt returns the pieces of a C++ named cast at the hit:
// reinterpret_cast<T>(operand).
func cppCastAt(h checkers.Hit) (call, target, operand syntax.Node, ok bool) {
	tf := h.Node.Parent()
	if tf.Kind() != "template_function" || tf.Field("name").Index() != h.Node.Index() {
		return
	}
	call = tf.Parent()
	if call.Kind() != "call_expression" || call.Field("function").Index() != tf.Index() {
		return
	}
	target = tf.Field("arguments").NamedChild(0)
	operand = Arg(call, 0)
	return call, target, operand, target.Valid() && operand.Valid()
}

// cppTypeInfo is a type reduced to what the cast rules need.
type cppTypeInfo struct {
	base     string // "char", "Foo", "std::byte", without cv-qualifiers
	pointers int    // '*' and '&' count
	function bool   // a function pointer or reference
}

// cppParseType reduces a type text: "const unsigned char *" → {unsigned char, 1}.
func cppParseType(text string) cppTypeInfo {
	var t cppTypeInfo
	if strings.Contains(text, "(") {
		t.function = true
	}
	t.pointers = strings.Count(text, "*") + strings.Count(text, "&")
	text = strings.NewReplacer("*", " ", "&", " ").Replace(text)
	var words []string
	for _, w := range strings.Fields(text) {
		switch w {
		case "const", "volatile", "struct", "class", "union", "typename", "__restrict", "restrict":
		default:
			words = append(words, w)
		}
	}
	t.base = strings.Join(words, " ")
	return t
}

// byteView reports the types through which any object may be viewed or
// that hold an address: char, unsigned char, std::byte, void, uint8_t,
// and the integer types.
func (t cppTypeInfo) byteView() bool {
	switch strings.TrimPrefix(t.base, "std::") {
	case "char", "signed char", "unsigned char", "byte", "uint8_t", "int8_t", "u_char", "void", "uchar",
		"uintptr_t", "intptr_t", "size_t", "ptrdiff_t", "uint64_t", "int64_t", "uint32_t", "int32_t",
		"long", "unsigned long", "long long", "unsigned long long", "unsigned", "int", "unsigned int",
		"uint16_t", "int16_t", "short", "unsigned short", "wchar_t", "char16_t", "char32_t", "char8_t":
		return true
	}
	return false
}

// cppOperandType returns the static type of a cast operand when the function
// shows it: a declared variable, &variable, this or a string literal.
func cppOperandType(p *checkers.Pass, e syntax.Node) (cppTypeInfo, bool) {
	e = Unparen(e)
	switch e.Kind() {
	case "string_literal", "concatenated_string", "raw_string_literal":
		return cppTypeInfo{base: "char", pointers: 1}, true
	case "this":
		return cppTypeInfo{base: "this", pointers: 1}, true
	case "pointer_expression":
		if e.FirstChild().Text() == "&" {
			t, ok := cppOperandType(p, e.Field("argument"))
			t.pointers++
			return t, ok
		}
	case "identifier":
		fn := EnclosingFunction(e)
		if !fn.Valid() {
			return cppTypeInfo{}, false
		}
		v := FuncScope(p, fn).Lookup(e.Text(), e)
		if v == nil || v.Type == "" || v.Type == "auto" {
			return cppTypeInfo{}, false
		}
		t := cppParseType(v.Type)
		t.pointers += v.Pointer
		if v.IsArray() {
			t.pointers++
		}
		return t, true
	}
	return cppTypeInfo{}, false
}

// checkReinterpret flags reinterpret_cast between object pointer types
// when neither side is a byte view, void or an integer address.
func checkReinterpret(p *checkers.Pass, h checkers.Hit) {
	call, target, operand, ok := cppCastAt(h)
	if !ok {
		return
	}
	to := cppParseType(target.Text())
	if to.function || to.pointers == 0 || to.byteView() {
		return
	}
	from, known := cppOperandType(p, operand)
	var adjust float64
	var fromText string
	switch {
	case known && (from.function || from.byteView() || from.pointers == 0 || from.base == to.base):
		return
	case known:
		fromText = fmt.Sprintf("'%s' (%s%s)", shortText(operand), from.base, strings.Repeat("*", from.pointers))
		adjust = 0.1
	default:
		return // the operand's type is not visible here: it may be related
	}
	p.Report(checkers.Finding{Rule: ruleReinterpret, Span: checkers.NodeSpan(call), Adjust: adjust,
		Message: fmt.Sprintf("reinterpret_cast views %s as '%s': accessing it breaks strict aliasing unless the object really is a %s", fromText, strings.Join(strings.Fields(target.Text()), " "), to.base)})
}

// cppMutatingDst maps functions that write through a pointer argument to its
// position.
var cppMutatingDst = map[string]int{
	"strcpy": 0, "strncpy": 0, "strcat": 0, "strncat": 0, "memcpy": 0, "memmove": 0, "memset": 0,
	"sprintf": 0, "snprintf": 0, "vsprintf": 0, "vsnprintf": 0, "strtok": 0, "strtok_r": 0, "strsep": 0,
	"fgets": 0, "gets": 0, "read": 1, "recv": 1, "pread": 1, "fread": 0, "strlcpy": 0, "strlcat": 0,
	"bzero": 0, "explicit_bzero": 0, "wcscpy": 0, "wcscat": 0, "wmemcpy": 0, "wmemset": 0,
}

// checkConstCast flags a const_cast whose result is written to, directly or
// through the variable it is stored in.
func checkConstCast(p *checkers.Pass, h checkers.Hit) {
	call, _, operand, ok := cppCastAt(h)
	if !ok {
		return
	}
	adjust := 0.0
	switch op := Unparen(operand); {
	case IsStringLiteral(op):
		adjust = 0.25
	case op.Kind() == "call_expression" && op.Field("function").Kind() == "field_expression":
		if m := op.Field("function").Field("field").Text(); m == "c_str" || m == "data" {
			adjust = 0.15
		}
	}
	e := inClimbParens(call)
	if how := cppWriteThrough(e); how != "" {
		p.Report(checkers.Finding{Rule: ruleConstCast, Span: checkers.NodeSpan(call), Adjust: adjust,
			Message: fmt.Sprintf("const_cast removes const from '%s' and the result is %s", shortText(operand), how)})
		return
	}
	name := inResultVar(call)
	if name == "" {
		return
	}
	fn := EnclosingFunction(call)
	defs := Defs(p, fn)
	def := inClimbParens(call).Parent()
	var how string
	fn.Field("body").Walk(func(n syntax.Node) bool {
		if how != "" || n.Kind() == "lambda_expression" {
			return false
		}
		if n.Kind() == "identifier" && n.Text() == name && n.Start() > call.End() && inDefReaches(defs, name, n, def) {
			if w := cppWriteThrough(inClimbParens(n)); w != "" {
				how = fmt.Sprintf("stored in '%s', which is %s (line %d)", name, w, p.File.Lines().Line(n.Start()))
			}
		}
		return true
	})
	if how != "" {
		p.Report(checkers.Finding{Rule: ruleConstCast, Span: checkers.NodeSpan(call), Adjust: adjust,
			Message: fmt.Sprintf("const_cast removes const from '%s' and the result is %s", shortText(operand), how)})
	}
}

// cppWriteThrough says how the pointer or reference value e is written
// through: *e = v, e[i] = v, e->f = v, e = v (a reference), or passed as
// the destination of a call that writes.
func cppWriteThrough(e syntax.Node) string {
	par := e.Parent()
	switch par.Kind() {
	case "pointer_expression":
		if par.FirstChild().Text() == "*" && cppIsWritten(inClimbParens(par)) {
			return "written through"
		}
	case "subscript_expression", "field_expression":
		if par.Field("argument").Index() == e.Index() && cppIsWritten(inClimbParens(par)) {
			return "written through"
		}
	case "assignment_expression", "update_expression":
		if cppIsWritten(e) {
			return "assigned to"
		}
	case "argument_list":
		call := par.Parent()
		if k, ok := cppMutatingDst[CalleeName(call)]; ok && Arg(call, k).Index() == e.Index() {
			return "the destination of " + CalleeName(call) + "()"
		}
	}
	return ""
}

// cppIsWritten reports whether e is the target of an assignment or of ++/--.
func cppIsWritten(e syntax.Node) bool {
	par := e.Parent()
	switch par.Kind() {
	case "assignment_expression":
		return par.Field("left").Index() == e.Index()
	case "update_expression":
		return true
	}
	return false
}
