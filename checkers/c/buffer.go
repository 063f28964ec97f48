package c

import (
	"fmt"
	"strings"

	"github.com/jsec/jsec/checkers"
	"github.com/jsec/jsec/checkers/syntax"
)

// Buffer-overflow family: unbounded copies and reads into fixed buffers.
const (
	ruleStrcpy = "c.buffer.strcpy"
	ruleGets   = "c.buffer.gets"
)

var bufferCheckers = []*checkers.Checker{
	{
		Name:     "c/buffer/strcpy",
		Rules:    []string{ruleStrcpy},
		Triggers: []string{"strcpy", "wcscpy", "stpcpy", "_mbscpy", "_tcscpy", "lstrcpy", "lstrcpyA", "lstrcpyW", "StrCpy"},
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
}

// checkStrcpy flags strcpy(dst, src) unless the source is known to fit:
// a literal no longer than the array, an array no larger than it, or a
// destination allocated from strlen(src).
func checkStrcpy(p *checkers.Pass, h checkers.Hit) {
	call, ok := CallAt(h)
	if !ok {
		return
	}
	dst, src := Arg(call, 0), Arg(call, 1)
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
	if sizedFrom(p, call, dst, src) {
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
	case OriginUnknown:
		adjust = -0.1
	}
	if lengthChecked(call, src) {
		adjust -= 0.35
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

// sizedFrom reports whether dst was allocated from strlen(src) (or a copy
// of src made with strdup) before the call.
func sizedFrom(p *checkers.Pass, call, dst, src syntax.Node) bool {
	name := Ident(dst)
	fn := EnclosingFunction(call)
	if name == "" || !fn.Valid() {
		return false
	}
	srcText := strings.Join(strings.Fields(src.Text()), "")
	for _, d := range Defs(p, fn).Reaching(name, call) {
		if d.Kind != DefAssign {
			continue
		}
		v := strings.Join(strings.Fields(d.Value.Text()), "")
		if strings.Contains(v, "strlen("+srcText+")") || strings.Contains(v, "wcslen("+srcText+")") {
			return true
		}
	}
	return false
}

// lengthChecked reports whether strlen(src) is compared with something in
// a condition that guards the call (an enclosing if) or in an earlier
// if-statement of the same block (the early-return idiom).
func lengthChecked(call, src syntax.Node) bool {
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
	for s := stmt.PrevSibling(); s.Valid(); s = s.PrevSibling() {
		if s.Kind() == "if_statement" && mentions(Condition(s)) {
			return true
		}
	}
	return false
}
