package c

import (
	"fmt"
	"strings"

	"github.com/jsec/jsec/checkers"
	"github.com/jsec/jsec/checkers/syntax"
)

// Buffer-overflow family: unbounded copies, appends and formatted writes,
// size arguments that do not match the destination, and writes past the
// end of arrays. Rules are in rules/c_buffer.go.
const (
	ruleStrcpy          = "c.buffer.strcpy"
	ruleGets            = "c.buffer.gets"
	ruleStrcat          = "c.buffer.strcat"
	ruleSprintf         = "c.buffer.sprintf"
	ruleSizeMismatch    = "c.buffer.size-mismatch"
	ruleMemcpyUnbounded = "c.buffer.memcpy-unbounded"
	ruleStrncatSize     = "c.buffer.strncat-size"
	ruleStrncpyNul      = "c.buffer.strncpy-nul"
	ruleScanfWidth      = "c.buffer.scanf-width"
	ruleSizeofPointer   = "c.buffer.sizeof-pointer"
	ruleOffByOne        = "c.buffer.off-by-one"
)

// bufferCheckers is the buffer family; its rules are in rules/c_buffer.go.
var bufferCheckers = []*checkers.Checker{
	{
		Name:     "c/buffer/strcpy",
		Rules:    []string{ruleStrcpy},
		Triggers: []string{"strcpy", "wcscpy", "stpcpy", "_mbscpy", "_tcscpy", "lstrcpy", "lstrcpyA", "lstrcpyW", "StrCpy"},
		Triage:   bufTriageStrcpy,
		Check:    checkStrcpy,
	},
	{
		Name:     "c/buffer/gets",
		Rules:    []string{ruleGets},
		Triggers: []string{"gets", "_getws"},
		Check: func(p *checkers.Pass, h checkers.Hit) {
			if call, ok := CallAt(h); ok {
				p.Report(checkers.Finding{Rule: ruleGets, Span: checkers.NodeSpan(call),
					Message: h.Word + "() reads a line of unlimited length into a fixed buffer"})
			}
		},
	},
	{
		Name:     "c/buffer/strcat",
		Rules:    []string{ruleStrcat},
		Triggers: []string{"strcat", "wcscat", "_mbscat", "_tcscat", "lstrcat", "lstrcatA", "lstrcatW", "StrCat", "stpcat"},
		Check:    checkStrcat,
	},
	{
		Name:  "c/buffer/sprintf",
		Rules: []string{ruleSprintf},
		Triggers: []string{"sprintf", "vsprintf", "swprintf", "vswprintf", "_stprintf", "_swprintf", "wsprintf", "wsprintfA",
			"wsprintfW", "wvsprintf", "wvsprintfA", "wvsprintfW"},
		Triage: bufTriageSprintf,
		Check:  checkSprintf,
	},
	{
		Name:     "c/buffer/size-mismatch",
		Rules:    []string{ruleSizeMismatch},
		Triggers: bufSizedTriggers(),
		Triage:   bufTriageSizeMismatch,
		Check:    checkSizeMismatch,
	},
	{
		Name:     "c/buffer/memcpy-unbounded",
		Rules:    []string{ruleMemcpyUnbounded},
		Triggers: []string{"memcpy", "memmove", "strncpy", "wcsncpy", "wmemcpy", "wmemmove"},
		Triage:   bufTriageVariableSize,
		Check:    checkMemcpyUnbounded,
	},
	{
		Name:     "c/buffer/strncat-size",
		Rules:    []string{ruleStrncatSize},
		Triggers: []string{"strncat", "wcsncat", "_tcsncat", "_mbsncat"},
		Check:    checkStrncatSize,
	},
	{
		Name:     "c/buffer/strncpy-nul",
		Rules:    []string{ruleStrncpyNul},
		Triggers: []string{"strncpy", "wcsncpy"},
		Triage:   bufTriageSimpleSize,
		Check:    checkStrncpyNul,
	},
	{
		Name:     "c/buffer/scanf-width",
		Rules:    []string{ruleScanfWidth},
		Triggers: bufScanfTriggers(),
		Triage:   bufTriageScanf,
		Check:    checkScanfWidth,
	},
	{
		Name:     "c/buffer/sizeof-pointer",
		Rules:    []string{ruleSizeofPointer},
		Triggers: append(bufSizedTriggers(), "malloc", "calloc", "realloc", "xmalloc", "xcalloc", "xrealloc", "alloca", "zmalloc", "g_malloc", "g_malloc0"),
		Triage:   bufTriageSizeofPointer,
		Check:    checkSizeofPointer,
	},
	{
		Name:     "c/buffer/off-by-one",
		Rules:    []string{ruleOffByOne},
		Triggers: bufElemTypes,
		Triage:   bufTriageIndex,
		Check:    checkIndexDecl,
	},
	{
		Name:     "c/buffer/off-by-one-sizeof",
		Rules:    []string{ruleOffByOne},
		Triggers: []string{"sizeof"},
		Triage:   bufTriageSizeofIndex,
		Check:    checkSizeofIndex,
	},
}

// checkStrcpy flags strcpy(dst, src) unless the source is known to fit:
// a literal no longer than the array, an array no larger than it, or a
// destination allocated from strlen(src).
func checkStrcpy(p *checkers.Pass, h checkers.Hit) {
	call, ok := CallAt(h)
	if !ok {
		return
	}
	dst, src := Arg(call, 0), bufUnwrapTchar(Arg(call, 1))
	if !dst.Valid() || !src.Valid() {
		return
	}
	scope := FuncScope(p, EnclosingFunction(call))
	dstVar := arrayVar(scope, dst)
	if s, ok := StringValue(src); ok {
		need := int64(len(s)) + 1
		if dstVar == nil || dstVar.ArrayLen <= 0 || dstVar.ArrayLen >= need {
			return // a literal into a pointer of unknown size, or one that fits
		}
		p.Report(checkers.Finding{Rule: ruleStrcpy, Span: checkers.NodeSpan(call), Adjust: 0.15,
			Message: fmt.Sprintf("%s copies a %d-byte literal into '%s', which holds %d", h.Word, need, dst.Text(), dstVar.ArrayLen)})
		return
	}
	if srcVar := arrayVar(scope, src); srcVar != nil && dstVar != nil && srcVar.ArrayLen > 0 && dstVar.ArrayLen >= srcVar.ArrayLen && srcVar.Type == dstVar.Type {
		return // array into an array at least as large
	}
	if bufSizedFrom(p, call, dst, src) {
		return
	}
	origin := Trace(p, src)
	if origin.Origin == OriginLiteral {
		return
	}
	adjust := 0.0
	what := fmt.Sprintf("'%s'", shortText(src))
	switch origin.Origin {
	case OriginExternal:
		adjust = 0.1
		what = fmt.Sprintf("'%s' (from %s)", shortText(src), origin.What)
		if origin.What == shortText(src) {
			what = fmt.Sprintf("'%s' (program input)", shortText(src))
		}
	case OriginUnknown:
		adjust = -0.1
	}
	if lengthChecked(p, call, src) {
		adjust -= 0.35
	}
	if bufSizedFromBase(p, call, dst, src) {
		adjust -= 0.3
	}
	size := "a buffer of unchecked size"
	if dstVar != nil && dstVar.ArrayLen > 0 {
		size = fmt.Sprintf("'%s' (%d bytes)", dst.Text(), dstVar.ArrayLen)
	} else if dst.Text() != "" {
		size = fmt.Sprintf("'%s'", shortText(dst))
	}
	p.Report(checkers.Finding{Rule: ruleStrcpy, Span: checkers.NodeSpan(call), Adjust: adjust,
		Message: fmt.Sprintf("%s copies %s into %s without a length limit", h.Word, what, size)})
}

// arrayVar returns the array variable an expression names, with its size
// resolved, or nil.
func arrayVar(s *Scope, e syntax.Node) *Var {
	id := Ident(e)
	if id == "" {
		return nil
	}
	v := s.LookupArray(id, e)
	if v == nil || !v.IsArray() {
		return nil
	}
	return v
}

// bufSizedFromBase reports whether dst was allocated from a size that
// mentions the object src belongs to: *err = zmalloc(r->len + 1) before
// strcpy(*err, r->str). Weaker than sizedFrom: the field is not known to
// be the string's length.
func bufSizedFromBase(p *checkers.Pass, call, dst, src syntax.Node) bool {
	base := baseIdent(src)
	root := rootName(PathOf(dst))
	fn := EnclosingFunction(call)
	if !base.Valid() || base.Index() == Uncast(src).Index() || root == "" || !fn.Valid() {
		return false
	}
	for _, d := range Defs(p, fn).All(root) {
		if d.Kind != DefAssign || d.Node.Start() > call.Start() {
			continue
		}
		v := Uncast(d.Value)
		if _, alloc := bufAllocators[CalleeName(v)]; v.Kind() != "call_expression" || !alloc {
			continue
		}
		found := false
		v.Field("arguments").Walk(func(n syntax.Node) bool {
			found = found || n.Kind() == "identifier" && n.Text() == base.Text()
			return !found
		})
		if found {
			return true
		}
	}
	return false
}

// lengthChecked reports whether strlen(src) is compared with something in
// a condition that guards the call (an enclosing if) or in an earlier
// if-statement of the same block (the early-return idiom).
func lengthChecked(p *checkers.Pass, call, src syntax.Node) bool {
	needle := "strlen(" + strings.Join(strings.Fields(src.Text()), "") + ")"
	mentions := func(n syntax.Node) bool {
		if !n.Valid() {
			return false
		}
		t := strings.Join(strings.Fields(n.Text()), "")
		return strings.Contains(t, needle) && strings.ContainsAny(t, "<>")
	}
	for a := call.Parent(); a.Valid(); a = a.Parent() {
		if a.Is("if_statement", "while_statement", "conditional_expression") && mentions(Condition(a)) {
			return true
		}
		if a.Kind() == "function_definition" {
			break
		}
	}
	stmt := EnclosingStatement(call)
	if block := stmt.Parent(); block.Valid() && block.End()-block.Start() >= guardIndexMin {
		return earlierLenCheck(p, block, stmt, needle)
	}
	for s := stmt.PrevSibling(); s.Valid(); s = s.PrevSibling() {
		if s.Kind() == "if_statement" && mentions(Condition(s)) {
			return true
		}
	}
	return false
}
