package c

import (
	"fmt"
	"strings"

	"github.com/jsec/jsec/checkers"
	"github.com/jsec/jsec/checkers/syntax"
)

// Arithmetic family: division by input that may be zero, signed values
// used as sizes, pointer arithmetic scaled twice, assignments used as
// conditions. Signed sizes, pointer arithmetic and conditions live in
// arith_size.go, arith_ptr.go and arith_cond.go; value facts in
// arith_flow.go.
const (
	ruleDivZero    = "c.int.div-zero"
	ruleSignedSize = "c.int.signed-size"
	rulePtrDiff    = "c.int.pointer-diff"
	ruleAssignCond = "c.logic.assign-in-cond"
)

// arithCheckers is the arith family; its rules are in rules/c_arith.go.
var arithCheckers = []*checkers.Checker{
	{
		Name:     "c/int/div-zero",
		Rules:    []string{ruleDivZero},
		Triggers: divZeroTriggers,
		Triage:   triageDivZero,
		Check:    checkDivZero,
	},
	{
		Name:     "c/int/signed-size",
		Rules:    []string{ruleSignedSize},
		Triggers: arithSizeTriggers(),
		Triage:   triageSignedSize,
		Check:    checkSignedSize,
	},
	{
		Name:     "c/int/pointer-diff",
		Rules:    []string{rulePtrDiff},
		Triggers: []string{"sizeof"},
		Triage:   triagePtrDiff,
		Check:    checkPtrDiff,
	},
	{
		Name:     "c/logic/assign-in-cond",
		Rules:    []string{ruleAssignCond},
		Triggers: []string{"if", "while"},
		Triage:   triageAssignCond,
		Check:    checkAssignCond,
	},
}

// divZeroTriggers are the calls that bring integers into a function: the
// division itself has no identifier to trigger on.
var divZeroTriggers = []string{
	"atoi", "atol", "atoll", "strtol", "strtoul", "strtoll", "strtoull", "strtoimax", "strtoumax", "strtonum",
	"scanf", "fscanf", "sscanf", "fread", "read", "recv", "recvfrom", "pread", "ntohl", "ntohs",
}

// triageDivZero keeps an input call only when its function divides by
// something other than a literal after it.
func triageDivZero(lx *checkers.Lexed, tok int) bool {
	if !lx.Is(tok+1, "(") {
		return false
	}
	it := lx.ItemOf(tok)
	if it < 0 {
		return false
	}
	item := lx.Items[it]
	if item.End-item.Start >= guardIndexMin {
		// A large item: where its last such division is, found once,
		// instead of a scan to the end per input call.
		return arithLastDivision(lx, it) >= tok+2
	}
	for j := tok + 2; j+1 < item.TokEnd; j++ {
		if arithDivides(lx, j) {
			return true
		}
	}
	return false
}

// arithDivides reports a division at token j by something other than a
// literal or a sizeof.
func arithDivides(lx *checkers.Lexed, j int) bool {
	if lx.Kind(j) != checkers.TokPunct {
		return false
	}
	switch lx.Text(j) {
	case "/", "%", "/=", "%=":
		next := j + 1
		return lx.Kind(next) == checkers.TokIdent && !lx.Is(next, "sizeof") || lx.Is(next, "(")
	}
	return false
}

var arithDivisionSlot = checkers.NewMemoSlot()

// arithLastDivision returns the last token of item it before its last
// token where arithDivides holds, -1 when none; found once per item.
func arithLastDivision(lx *checkers.Lexed, it int) int {
	return checkers.ItemMemo(lx, arithDivisionSlot, it, func() int {
		item := lx.Items[it]
		for j := item.TokEnd - 2; j >= item.TokStart; j-- {
			if arithDivides(lx, j) {
				return j
			}
		}
		return -1
	})
}

// divZeroKey marks a function whose divisions were examined.
type divZeroKey struct{ fn int }

// checkDivZero examines every division of the function that holds the
// input call, once per function.
func checkDivZero(p *checkers.Pass, h checkers.Hit) {
	fn := EnclosingFunction(h.Node)
	if !fn.Valid() {
		return
	}
	checkers.Memo(p, divZeroKey{fn.Index()}, func() bool {
		t := newArithTracer(p, fn)
		fn.Field("body").Walk(func(n syntax.Node) bool {
			switch n.Kind() {
			case "binary_expression":
				if op := BinaryOp(n); op == "/" || op == "%" {
					divZeroCheck(p, t, n, n.Field("left"), n.Field("right"))
				}
			case "assignment_expression":
				if op := BinaryOp(n); op == "/=" || op == "%=" {
					divZeroCheck(p, t, n, n.Field("left"), n.Field("right"))
				}
			case "sizeof_expression", "lambda_expression":
				return false
			}
			return true
		})
		return true
	})
}

// divZeroCheck reports one division whose divisor is input or zero and
// is not tested first.
func divZeroCheck(p *checkers.Pass, t *arithTracer, div, dividend, divisor syntax.Node) {
	if arithFloating(t, dividend) || arithFloating(t, divisor) {
		return // floating-point division by zero is defined (inf, nan)
	}
	d := Uncast(divisor)
	if _, constant := IntValue(d, Facts(p).Macros); constant || d.Kind() == "sizeof_expression" {
		return
	}
	f := checkers.Finding{Rule: ruleDivZero, Span: checkers.NodeSpan(div)}
	if d.Kind() == "call_expression" {
		w := t.input(d, 0)
		if w == "" {
			return
		}
		f.Adjust = 0.1
		f.Message = fmt.Sprintf("'%s' divides by %s, program input that may be 0", shortText(div), w)
		p.Report(f)
		return
	}
	path := PathOf(d)
	if path == "" {
		return
	}
	if zero, ok := divZeroAssigned(p, t, d, path); ok {
		f.Adjust = 0.2
		f.Message = fmt.Sprintf("'%s' divides by '%s', which is 0 here (set at line %d)", shortText(div), path, p.File.Lines().Line(zero.Start()))
	} else if w := t.input(d, 0); w != "" {
		f.Adjust = 0.1
		f.Message = fmt.Sprintf("'%s' divides by '%s', which comes from %s and may be 0", shortText(div), path, w)
	} else {
		return
	}
	if arithGuarded(p, t.fn, d, path, guardZero) {
		return
	}
	p.Report(f)
}

// divZeroAssigned reports a plain local that is 0 at the division.
func divZeroAssigned(p *checkers.Pass, t *arithTracer, d syntax.Node, path string) (syntax.Node, bool) {
	if d.Kind() != "identifier" {
		return syntax.Node{}, false
	}
	return arithZeroAssigned(p, t.fn, d, path)
}

// arithFloating reports whether e is a floating-point operand: a float
// literal, a cast to float/double, a float variable or atof/strtod.
func arithFloating(t *arithTracer, e syntax.Node) bool {
	e = Unparen(e)
	switch e.Kind() {
	case "number_literal":
		s := strings.ToLower(e.Text())
		return !strings.HasPrefix(s, "0x") && strings.ContainsAny(s, ".e") || strings.HasSuffix(s, "f") && !strings.HasPrefix(s, "0x")
	case "cast_expression":
		return arithFloatType(e.Field("type").Text())
	case "call_expression":
		switch CalleeName(e) {
		case "atof", "strtod", "strtof", "strtold", "sqrt", "pow", "floor", "ceil", "fabs", "log", "exp":
			return true
		}
	case "identifier":
		if v := t.scope.Lookup(e.Text(), e); v != nil && v.Pointer == 0 {
			return arithFloatType(v.Type)
		}
	case "binary_expression":
		return arithFloating(t, e.Field("left")) || arithFloating(t, e.Field("right"))
	}
	return false
}

// arithFloatType reports whether a declared type is floating-point.
func arithFloatType(t string) bool {
	for _, w := range strings.Fields(t) {
		switch w {
		case "float", "double", "gdouble", "gfloat", "float_t", "double_t":
			return true
		}
	}
	return false
}
