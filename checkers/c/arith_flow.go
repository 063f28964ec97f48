package c

import (
	"fmt"
	"strings"

	"github.com/jsec/jsec/checkers"
	"github.com/jsec/jsec/checkers/syntax"
)

// Value facts the arith family needs beyond Trace: integers parsed from
// input (atoi of argv, scanf("%d", &n), a header read with fread), values
// that may be negative, and the comparisons that rule zero or negative
// values out before a use.

// arithConverters turn strings into integers: their result comes from
// wherever their string argument does.
var arithConverters = map[string]bool{
	"atoi": true, "atol": true, "atoll": true, "strtol": true, "strtoul": true, "strtoll": true,
	"strtoull": true, "strtoimax": true, "strtoumax": true, "_atoi64": true, "wcstol": true, "wcstoul": true,
	"strtonum": true,
}

// arithByteOrder are byte-order conversions: ntohl(hdr.len) comes from
// wherever hdr does.
var arithByteOrder = map[string]bool{
	"ntohl": true, "ntohs": true, "be16toh": true, "be32toh": true, "be64toh": true, "le16toh": true,
	"le32toh": true, "le64toh": true, "bswap_16": true, "bswap_32": true, "bswap_64": true,
	"__builtin_bswap16": true, "__builtin_bswap32": true, "__builtin_bswap64": true,
}

// arithNegReturns return -1 (or another negative value) on error.
// snprintf is left out: it fails only on encoding errors or results over
// INT_MAX, and its real hazard, truncation, is another rule's.
var arithNegReturns = map[string]bool{
	"read": true, "recv": true, "recvfrom": true, "recvmsg": true, "pread": true, "write": true, "send": true,
	"sendto": true, "ftell": true, "readlink": true, "SSL_read": true,
	"SSL_write": true, "BIO_read": true, "getline": true, "getdelim": true, "readv": true, "lseek": true,
}

// arithTracer follows integer values back within one function.
type arithTracer struct {
	p     *checkers.Pass
	fn    syntax.Node
	defs  *DefIndex
	scope *Scope
	seen  map[int]bool
}

// newArithTracer prepares a tracer for the function fn.
func newArithTracer(p *checkers.Pass, fn syntax.Node) *arithTracer {
	return &arithTracer{p: p, fn: fn, defs: Defs(p, fn), scope: FuncScope(p, fn), seen: map[int]bool{}}
}

// input says where e comes from when it is program input ("atoi(argv[1])",
// "scanf()", "fread()"), or "" when it is not known to be.
func (t *arithTracer) input(e syntax.Node, depth int) string {
	e = Uncast(e)
	if depth > 8 || !e.Valid() {
		return ""
	}
	switch e.Kind() {
	case "call_expression":
		name := CalleeName(e)
		if !arithConverters[name] && !arithByteOrder[name] {
			return ""
		}
		arg := Arg(e, 0)
		if w := t.input(arg, depth+1); w != "" {
			if w == shortText(arg) {
				return fmt.Sprintf("%s(%s)", name, w)
			}
			return fmt.Sprintf("%s(%s) (from %s)", name, shortText(arg), w)
		}
		if src := Trace(t.p, arg); src.Origin == OriginExternal {
			if src.What == shortText(arg) {
				return fmt.Sprintf("%s(%s)", name, src.What)
			}
			return fmt.Sprintf("%s(%s) (from %s)", name, shortText(arg), src.What)
		}
		return ""
	case "identifier", "field_expression", "subscript_expression", "pointer_expression":
		return t.inputVar(e, depth)
	case "binary_expression":
		if w := t.input(e.Field("left"), depth+1); w != "" {
			return w
		}
		return t.input(e.Field("right"), depth+1)
	case "conditional_expression":
		if w := t.input(e.Field("consequence"), depth+1); w != "" {
			return w
		}
		return t.input(e.Field("alternative"), depth+1)
	}
	return ""
}

// inputVar traces a variable (or the root of a path) through the
// definitions that reach e.
func (t *arithTracer) inputVar(e syntax.Node, depth int) string {
	base := baseIdent(e)
	if !base.Valid() {
		return ""
	}
	name := base.Text()
	defs := t.defs.Reaching(name, e)
	for _, d := range defs {
		if t.seen[d.Node.Index()] {
			continue
		}
		t.seen[d.Node.Index()] = true
		w := ""
		switch d.Kind {
		case DefExternal:
			w = CalleeName(d.Node) + "()"
		case DefAssign:
			w = t.input(d.Value, depth+1)
		case DefCopy:
			if CalleeName(d.Node) == "sscanf" && len(d.Sources) > 0 {
				if src := Trace(t.p, d.Sources[0]); src.Origin == OriginExternal {
					w = "sscanf(" + src.What + ")"
				}
			}
		}
		delete(t.seen, d.Node.Index())
		if w != "" {
			return w
		}
	}
	if len(defs) == 0 {
		if v := t.scope.Lookup(name, e); v != nil && !v.Param && !v.Global && v.Init.Valid() {
			return t.input(v.Init, depth+1)
		}
	}
	if src := Trace(t.p, e); src.Origin == OriginExternal {
		return src.What
	}
	return ""
}

// negative says why a signed variable may be negative at use: it is
// input, the result of a call that returns -1 on error, a negative
// constant or a string conversion; "" when none applies. Differences and
// decrements are not reasons: in real code they are non-negative by
// construction far more often than not.
func (t *arithTracer) negative(id syntax.Node, depth int) (reason string, external bool) {
	name := id.Text()
	defs := t.defs.Reaching(name, id)
	if len(defs) == 0 {
		v := t.scope.Lookup(name, id)
		if v == nil || v.Param || v.Global || !v.Init.Valid() {
			return "", false
		}
		return t.negValue(v.Init, depth)
	}
	for _, d := range defs {
		switch d.Kind {
		case DefExternal:
			return "it is read by " + CalleeName(d.Node) + "()", true
		case DefCopy:
			if CalleeName(d.Node) == "sscanf" {
				return "it is parsed by sscanf()", Trace(t.p, d.Sources[0]).Origin == OriginExternal
			}
		case DefAssign:
			if BinaryOp(d.Node) != "=" && d.Node.Kind() == "assignment_expression" {
				continue // n -= k: a computation, non-negative by construction as a rule
			}
			if r, ext := t.negValue(d.Value, depth); r != "" {
				return r, ext
			}
		}
	}
	return "", false
}

// negValue judges one assigned value for negative.
func (t *arithTracer) negValue(v syntax.Node, depth int) (reason string, external bool) {
	v = Uncast(v)
	if depth > 3 || !v.Valid() {
		return "", false
	}
	if w := t.input(v, 0); w != "" {
		return "it comes from " + w, true
	}
	switch v.Kind() {
	case "call_expression":
		name := CalleeName(v)
		switch {
		case arithNegReturns[name]:
			return fmt.Sprintf("it holds the result of %s(), which is -1 on error", name), false
		case arithConverters[name] && name != "strtoul" && name != "strtoull" && name != "strtoumax":
			return fmt.Sprintf("it comes from %s(), which returns negative numbers for \"-…\"", name), false
		}
	case "number_literal", "unary_expression":
		if n, ok := IntValue(v, t.scope.Consts()); ok && n < 0 {
			return fmt.Sprintf("it is set to %d", n), false
		}
	case "identifier":
		if t.scope.Lookup(v.Text(), v) != nil {
			return t.negative(v, depth+1)
		}
	}
	return "", false
}

// arithGuardMode says what a test must rule out.
type arithGuardMode int

const (
	guardZero     arithGuardMode = iota
	guardNegative                // a test for < 0 and the like
)

// arithGuarded reports whether the function tests path in a way that
// rules out zero (or negative) values before use, after the value's
// latest definition: a comparison with a constant between -1 and 1
// (n > 0, n != 0, n < 1, n == -1), a lower bound above 1 (n >= 2), and
// for zero a plain truth test (if (n), !n, n && …).
func arithGuarded(p *checkers.Pass, fn, use syntax.Node, path string, mode arithGuardMode) bool {
	after := 0
	for _, d := range Defs(p, fn).Reaching(rootName(path), use) {
		if arithFixUp(p, d.Node, path, mode) {
			continue // if (n < 1) n = 1; — the test replaces the bad value
		}
		after = max(after, d.Node.End())
	}
	body := fn.Field("body")
	// The nodes to ask start before the use and end at or after the last
	// definition: those that hold its last byte (the ancestors of the
	// deepest such node) and those that start between it and the use. A
	// walk of the body that skips the rest still stepped over every
	// statement before the definition, for every use: quadratic in a
	// generated function.
	if at := body.Tree().NodeAt(after - 1); after > body.Start() && body.Contains(at) {
		for a := at; ; a = a.Parent() {
			if a.Start() < use.Start() && arithTests(p, a, use, path, mode) {
				return true
			}
			if a == body {
				break
			}
		}
		for n := range body.Tree().StartingIn(after, use.Start()) {
			if arithTests(p, n, use, path, mode) {
				return true
			}
		}
		return false
	}
	guarded := false
	body.Walk(func(n syntax.Node) bool {
		if guarded || n.Start() >= use.Start() {
			return false // pre-order: nothing below starts before the use either
		}
		if n.End() >= after && arithTests(p, n, use, path, mode) {
			guarded = true
		}
		return true
	})
	return guarded
}

// arithFixUp reports whether def lies in the body of an if statement
// whose condition tests path the way mode needs: the definition repairs
// the value the test caught, so the test guards the use.
func arithFixUp(p *checkers.Pass, def syntax.Node, path string, mode arithGuardMode) bool {
	for a := def.Parent(); a.Valid(); a = a.Parent() {
		switch a.Kind() {
		case "if_statement":
			cond := a.Field("condition")
			if cond.Contains(def) {
				return false
			}
			found := false
			cond.Walk(func(n syntax.Node) bool {
				found = found || arithTests(p, n, def, path, mode)
				return !found
			})
			return found
		case "function_definition", "compound_statement":
			if a.Kind() == "function_definition" || a.Parent().Kind() != "if_statement" {
				return false
			}
		}
	}
	return false
}

// arithTests reports whether node n is a test of path of the kind mode
// needs.
func arithTests(p *checkers.Pass, n, use syntax.Node, path string, mode arithGuardMode) bool {
	switch n.Kind() {
	case "binary_expression":
		op := BinaryOp(n)
		l, r := n.Field("left"), n.Field("right")
		switch op {
		case "==", "!=", "<", "<=", ">", ">=":
		case "&&", "||":
			return mode == guardZero && arithSamePath(l, path)
		default:
			return false
		}
		if !arithSamePath(l, path) {
			l, r = r, l
			op = map[string]string{"<": ">", "<=": ">=", ">": "<", ">=": "<=", "==": "==", "!=": "!="}[op]
		}
		if !arithSamePath(l, path) {
			return false
		}
		c, ok := IntValue(r, Facts(p).Macros)
		if !ok {
			// i < n in the condition of a loop or if around the use: the
			// body runs only when n is above something, as in
			// for (i = 0; i < n; i++) … x / n.
			return (op == ">") && arithGuardsUse(n, use)
		}
		switch {
		case op != "==" && op != "!=" && c > 1:
			return true // a bound above 1: n >= 2, or the early exit if (n < 2) return
		case mode == guardNegative && (op == "==" || op == "!="):
			return c < 0 // n == -1: the error return
		}
		return c >= -1 && c <= 1
	case "unary_expression":
		return mode == guardZero && n.FirstChild().Text() == "!" && arithSamePath(n.Field("argument"), path)
	case "parenthesized_expression", "condition_clause":
		if parent := n.Parent(); mode == guardZero && parent.Is("if_statement", "while_statement") && parent.Field("condition").Index() == n.Index() {
			return arithSamePath(Condition(parent), path)
		}
	case "conditional_expression":
		return mode == guardZero && arithSamePath(n.Field("condition"), path)
	}
	return false
}

// arithGuardsUse reports whether test lies in the condition of an if,
// loop, ?: or && whose guarded part holds use.
func arithGuardsUse(test, use syntax.Node) bool {
	for a := test.Parent(); a.Valid(); a = a.Parent() {
		switch a.Kind() {
		case "if_statement", "while_statement", "for_statement", "do_statement", "conditional_expression":
			cond := a.Field("condition")
			return cond.Contains(test) && a.Contains(use) && !cond.Contains(use)
		case "binary_expression":
			if BinaryOp(a) == "&&" && a.Field("left").Contains(test) && a.Field("right").Contains(use) {
				return true
			}
		case "compound_statement", "function_definition", "expression_statement":
			return false
		}
	}
	return false
}

// arithSamePath reports whether e names path, possibly through a cast or
// as the target of an assignment: (n = read(…)) > 0 tests n.
func arithSamePath(e syntax.Node, path string) bool {
	e = Unparen(e)
	if e.Kind() == "assignment_expression" {
		e = e.Field("left")
	}
	if p := PathOf(e); p != "" {
		return p == path
	}
	return e.Kind() == "binary_expression" && arithExprKey(e) == path
}

// arithExprKey is the text of an expression without blanks, for tests of
// a whole expression: if (end - start > 0) … fwrite(p, end - start, …).
func arithExprKey(e syntax.Node) string {
	return strings.Join(strings.Fields(Unparen(e).Text()), "")
}

// arithZeroAssigned reports whether every definition of the variable
// that reaches use sets it to 0, and nothing increments it in between;
// it returns the line of that definition.
func arithZeroAssigned(p *checkers.Pass, fn, use syntax.Node, name string) (syntax.Node, bool) {
	var zero syntax.Node
	defs := Defs(p, fn).Reaching(name, use)
	if len(defs) == 0 {
		v := FuncScope(p, fn).Lookup(name, use)
		if v == nil || v.Param || v.Global || !v.Init.Valid() {
			return syntax.Node{}, false
		}
		zero = v.Init
	}
	for _, d := range defs {
		if d.Kind != DefAssign || BinaryOp(d.Node) != "=" && d.Node.Kind() == "assignment_expression" {
			return syntax.Node{}, false
		}
		if v, ok := IntValue(d.Value, Facts(p).Macros); !ok || v != 0 {
			return syntax.Node{}, false
		}
		zero = d.Value
	}
	if v, ok := IntValue(zero, Facts(p).Macros); !ok || v != 0 {
		return syntax.Node{}, false
	}
	changed := false
	fn.Field("body").Walk(func(n syntax.Node) bool {
		if n.Kind() == "update_expression" && n.Start() > zero.End() && PathOf(n.Field("argument")) == name {
			changed = true
		}
		return !changed
	})
	return zero, !changed
}
