package c

import (
	"fmt"

	"github.com/jsec/jsec/checkers"
	"github.com/jsec/jsec/checkers/syntax"
	"github.com/jsec/jsec/issue"
)

// Input-validation and resource-exhaustion family: values from program
// input used without checks. Its rules are in rules/c_input.go.
const (
	ruleAtoi        = "c.input.atoi"
	ruleGetenv      = "c.input.getenv"
	ruleInputIndex  = "c.input.index"
	ruleLegacyInet  = "c.net.legacy-inet"
	ruleUnboundLoop = "c.dos.unbounded-loop"
	ruleUnboundRec  = "c.dos.recursion"
	ruleUnboundMem  = "c.dos.unbounded-alloc"
)

// inputCheckers is the input family; its rules are in rules/c_input.go.
var inputCheckers = []*checkers.Checker{
	{
		Name:     "c/input/atoi",
		Rules:    []string{ruleAtoi},
		Triggers: []string{"atoi", "atol", "atoll", "atof", "_wtoi", "_wtol"},
		Triage:   inNonLiteralArg,
		Check:    checkAtoi,
	},
	{
		Name:     "c/input/getenv",
		Rules:    []string{ruleGetenv},
		Triggers: []string{"getenv", "secure_getenv", "__secure_getenv"},
		Triage:   triageGetenv,
		Check:    checkGetenv,
	},
	{
		Name:     "c/input/legacy-inet",
		Rules:    []string{ruleLegacyInet},
		Triggers: []string{"inet_addr", "inet_aton", "inet_ntoa", "gethostbyname", "gethostbyname2", "gethostbyaddr"},
		Check:    checkLegacyInet,
	},
	{
		Name:     "c/input/external",
		Rules:    []string{ruleInputIndex, ruleUnboundLoop, ruleUnboundMem},
		Triggers: inExternalTriggers,
		Triage:   triageExternal,
		Check:    checkExternal,
	},
	{
		Name:     "c/input/recursion",
		Rules:    []string{ruleUnboundRec},
		Triggers: []string{"return"},
		Triage:   triageRecursion,
		Check:    checkRecursion,
	},
}

// inNonLiteralArg drops calls whose first argument is a string
// literal: atoi("42") converts a constant.
func inNonLiteralArg(lx *checkers.Lexed, tok int) bool {
	args, ok := lx.CallArgs(tok)
	if !ok || len(args) == 0 {
		return false // not a call
	}
	a := args[0]
	return !(a.End-a.Start == 1 && lx.Kind(a.Start) == checkers.TokString)
}

// checkAtoi reports atoi-family calls on anything but constants; program
// input raises the severity, a later range check lowers the confidence.
func checkAtoi(p *checkers.Pass, h checkers.Hit) {
	call, ok := CallAt(h)
	if !ok {
		return
	}
	arg := Arg(call, 0)
	if !arg.Valid() {
		return
	}
	src := inputOrigin(p, arg)
	if src.Origin == OriginLiteral {
		return
	}
	f := checkers.Finding{Rule: ruleAtoi, Span: checkers.NodeSpan(call)}
	what := fmt.Sprintf("'%s'", shortText(arg))
	if src.Origin == OriginExternal {
		f.Severity = issue.SeverityMedium
		f.Adjust = 0.1
		what = fmt.Sprintf("'%s' (from %s)", shortText(arg), src.What)
	}
	if v := inResultVar(call); v != "" && inRangeCheckedAfter(p, call, v) {
		f.Adjust -= 0.15
		f.Severity = 0
	}
	f.Message = fmt.Sprintf("%s(%s) cannot report errors: non-numeric input becomes 0 and overflow is undefined", h.Word, what)
	p.Report(f)
}

// inResultVar returns the variable a call's result is stored in:
// "n" for n = atoi(s) and int n = atoi(s).
func inResultVar(call syntax.Node) string {
	e := call
	for e.Parent().Is("parenthesized_expression", "cast_expression") {
		e = e.Parent()
	}
	par := e.Parent()
	switch par.Kind() {
	case "init_declarator":
		return declIdent(par.Field("declarator"))
	case "assignment_expression":
		if par.Field("right").Index() == e.Index() {
			return Ident(par.Field("left"))
		}
	}
	return ""
}

// inRangeCheckedAfter reports whether variable name is compared with < <= > >=
// after node n in its function.
func inRangeCheckedAfter(p *checkers.Pass, n syntax.Node, name string) bool {
	fn := EnclosingFunction(n)
	if body := fn.Field("body"); body.End()-body.Start() >= guardIndexMin {
		return rangeCheckedAfterIndexed(p, body, n, name)
	}
	found := false
	fn.Field("body").Walk(func(m syntax.Node) bool {
		if found || m.End() <= n.End() {
			return false // nothing in m starts after n
		}
		if m.Start() > n.End() && inIsOrderCmp(m) && (inMentions(m.Field("left"), name) || inMentions(m.Field("right"), name)) {
			found = true
		}
		return true
	})
	return found
}

// inIsOrderCmp reports whether n is a binary < <= > >= comparison.
func inIsOrderCmp(n syntax.Node) bool {
	if n.Kind() != "binary_expression" {
		return false
	}
	switch BinaryOp(n) {
	case "<", "<=", ">", ">=":
		return true
	}
	return false
}

// inMentions reports whether identifier name occurs in n.
func inMentions(n syntax.Node, name string) bool {
	found := false
	n.Walk(func(m syntax.Node) bool {
		if !found && m.Kind() == "identifier" && m.Text() == name {
			found = true
		}
		return !found
	})
	return found
}

// inLegacyInet says what is wrong with each legacy address API.
var inLegacyInet = map[string]string{
	"inet_addr":      "inet_addr() cannot signal errors: its failure value INADDR_NONE is also the valid address 255.255.255.255; use inet_pton()",
	"inet_aton":      "inet_aton() is IPv4-only and accepts non-standard forms (\"1\", \"0x7f.1\"); use inet_pton()",
	"inet_ntoa":      "inet_ntoa() returns a static buffer that the next call overwrites (not thread-safe) and is IPv4-only; use inet_ntop()",
	"gethostbyname":  "gethostbyname() is not reentrant (static result) and IPv4-only; use getaddrinfo()",
	"gethostbyname2": "gethostbyname2() is not reentrant (static result); use getaddrinfo()",
	"gethostbyaddr":  "gethostbyaddr() is not reentrant (static result) and IPv4-only; use getnameinfo()",
}

func checkLegacyInet(p *checkers.Pass, h checkers.Hit) {
	call, ok := CallAt(h)
	if !ok {
		return
	}
	f := checkers.Finding{Rule: ruleLegacyInet, Span: checkers.NodeSpan(call), Message: inLegacyInet[h.Word]}
	if a := Arg(call, 0); inputOrigin(p, a).Origin == OriginLiteral {
		f.Adjust = -0.3 // a constant address or host name: the error cases cannot arise
	}
	p.Report(f)
}
