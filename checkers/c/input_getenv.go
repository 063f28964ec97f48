package c

import (
	"fmt"
	"strings"

	"github.com/jsec/jsec/checkers"
	"github.com/jsec/jsec/checkers/syntax"
)

// getenvSinks maps the library functions that dereference a pointer
// argument (and so crash on NULL) to those positions. System calls
// (open, chdir, stat …) are left out: they fail with EFAULT instead.
var getenvSinks = map[string][]int{
	"strlen": {0}, "strnlen": {0}, "strcpy": {1}, "strncpy": {1}, "strcat": {1}, "strncat": {1},
	"strcmp": {0, 1}, "strncmp": {0, 1}, "strcasecmp": {0, 1}, "strncasecmp": {0, 1}, "strcoll": {0, 1},
	"strdup": {0}, "strndup": {0}, "strchr": {0}, "strrchr": {0}, "strstr": {0, 1}, "strspn": {0, 1},
	"strcspn": {0, 1}, "strpbrk": {0, 1}, "atoi": {0}, "atol": {0}, "atoll": {0}, "atof": {0},
	"strtol": {0}, "strtoul": {0}, "strtoll": {0}, "strtoull": {0}, "strtod": {0}, "sscanf": {0},
	"puts": {0}, "fputs": {0}, "memcpy": {1}, "setenv": {1}, "strcasestr": {0, 1}, "index": {0}, "rindex": {0},
	"string": {0}, "basic_string": {0},
}

// getenvPrintf maps printf-family functions to their format argument.
var getenvPrintf = map[string]int{
	"printf": 0, "fprintf": 1, "dprintf": 1, "sprintf": 1, "snprintf": 2, "syslog": 1,
}

// triageGetenv drops the two checked idioms that need no parse: the call
// tested where it stands (if (getenv("X")), getenv("X") != NULL), and
// "v = getenv(...);" whose next mention of v is a NULL test. Check stops
// at exactly those.
func triageGetenv(lx *checkers.Lexed, tok int) bool {
	end := lx.Close(tok + 1)
	if end < 0 {
		return false
	}
	if inTokNullTest(lx, tok, end) {
		return false
	}
	if !lx.Is(tok-1, "=") || lx.Kind(tok-2) != checkers.TokIdent || !lx.Is(end+1, ";") {
		return true
	}
	name := lx.Text(tok - 2)
	it := lx.ItemOf(tok)
	for j := end + 1; j < lx.Items[it].TokEnd; j++ {
		if lx.Kind(j) == checkers.TokIdent && lx.Is(j, name) && !lx.Is(j-1, ".") && !lx.Is(j-1, "->") {
			return !inTokNullTest(lx, j, j)
		}
	}
	return false // never used
}

// inTokNullTest reports whether the expression spanning tokens
// [from, to] is tested for NULL: !e, e == / != x, e && / ||, e ? …, or
// the whole condition of an if or while.
func inTokNullTest(lx *checkers.Lexed, from, to int) bool {
	switch lx.Text(to + 1) {
	case "==", "!=", "&&", "||", "?":
		return true
	}
	switch lx.Text(from - 1) {
	case "!", "&&", "||":
		return true
	case "(":
		return lx.Is(to+1, ")") && (lx.Is(from-2, "if") || lx.Is(from-2, "while"))
	}
	return false
}

// checkGetenv reports getenv() results that reach a dereference or a
// NULL-intolerant argument without a NULL check.
func checkGetenv(p *checkers.Pass, h checkers.Hit) {
	call, ok := CallAt(h)
	if !ok {
		return
	}
	e := inClimbParens(call)
	if inNullTested(e) {
		return
	}
	if why := inNullUse(e); why != "" {
		p.Report(checkers.Finding{Rule: ruleGetenv, Span: checkers.NodeSpan(call),
			Message: fmt.Sprintf("%s may return NULL and its result is %s without a check", shortText(call), why)})
		return
	}
	def := e.Parent()
	var name string
	switch def.Kind() {
	case "init_declarator":
		name = declIdent(def.Field("declarator"))
		if t := inDeclType(def); strings.Contains(t, "string") && !strings.Contains(def.Field("declarator").Kind(), "pointer") {
			p.Report(checkers.Finding{Rule: ruleGetenv, Span: checkers.NodeSpan(call),
				Message: fmt.Sprintf("%s may return NULL and constructs %s '%s' without a check (undefined behaviour)", shortText(call), t, name)})
			return
		}
	case "assignment_expression":
		if def.Field("right").Index() == e.Index() {
			name = Ident(def.Field("left"))
		}
		if inNullTested(inClimbParens(def)) {
			return // if ((v = getenv("X")) == NULL)
		}
	}
	if name == "" {
		return
	}
	if use, why := inUncheckedUse(p, def, name); use.Valid() {
		p.Report(checkers.Finding{Rule: ruleGetenv, Span: checkers.NodeSpan(use),
			Message: fmt.Sprintf("'%s' holds %s, which may be NULL, and is %s without a check", name, shortText(call), why)})
	}
}

// inDeclType returns the type of the declaration that holds an init_declarator.
func inDeclType(initDecl syntax.Node) string {
	return strings.Join(strings.Fields(initDecl.Parent().Field("type").Text()), " ")
}

// inClimbParens climbs from e through parentheses and casts.
func inClimbParens(e syntax.Node) syntax.Node {
	for e.Parent().Is("parenthesized_expression", "cast_expression") {
		e = e.Parent()
	}
	return e
}

// inNullTested reports whether the value of e is tested for NULL where it
// stands: a condition, an operand of !, && or ||, or compared with == / !=.
func inNullTested(e syntax.Node) bool {
	par := e.Parent()
	switch par.Kind() {
	case "condition_clause", "if_statement", "while_statement", "do_statement", "for_statement":
		return e.FieldName() == "condition" || e.FieldName() == "value" || par.Kind() == "condition_clause"
	case "conditional_expression":
		return par.Field("condition").Index() == e.Index()
	case "unary_expression":
		return BinaryOp(par) == "!" || par.FirstChild().Text() == "!"
	case "binary_expression":
		switch BinaryOp(par) {
		case "&&", "||", "==", "!=":
			return true
		}
	}
	return false
}

// inNullUse says how the value of e is used when NULL is not allowed there:
// dereferenced, indexed, or passed to a NULL-intolerant argument.
func inNullUse(e syntax.Node) string {
	par := e.Parent()
	switch par.Kind() {
	case "pointer_expression":
		if par.FirstChild().Text() == "*" {
			return "dereferenced"
		}
	case "subscript_expression", "field_expression":
		if par.Field("argument").Index() == e.Index() {
			return "dereferenced"
		}
	case "argument_list":
		call := par.Parent()
		name := CalleeName(call)
		if call.Kind() != "call_expression" {
			return ""
		}
		idx := -1
		for i, a := range Args(call) {
			if a.Index() == e.Index() {
				idx = i
			}
		}
		for _, k := range getenvSinks[name] {
			if k == idx {
				return "passed to " + name + "()"
			}
		}
		if f, ok := getenvPrintf[name]; ok && idx > f {
			if conv := inFormatConvAt(Arg(call, f), idx-f-1); conv == 's' {
				return "printed with %s by " + name + "()"
			}
		}
	}
	return ""
}

// inFormatConvAt returns the conversion character of the k-th argument
// of a literal format, or 0.
func inFormatConvAt(format syntax.Node, k int) byte {
	s, ok := StringValue(format)
	if !ok {
		return 0
	}
	n := 0
	for i := 0; i < len(s); i++ {
		if s[i] != '%' {
			continue
		}
		i++
		if i < len(s) && s[i] == '%' {
			continue
		}
		for i < len(s) && strings.IndexByte("-+ #0123456789.*hlLqjzt'I", s[i]) >= 0 {
			if s[i] == '*' {
				n++ // a width argument
			}
			i++
		}
		if i >= len(s) {
			return 0
		}
		if n == k {
			return s[i]
		}
		n++
	}
	return 0
}

// inUncheckedUse walks the uses of name after its definition def and
// returns the first one where NULL is not allowed, unless a NULL test or
// a redefinition comes first.
func inUncheckedUse(p *checkers.Pass, def syntax.Node, name string) (syntax.Node, string) {
	fn := EnclosingFunction(def)
	if !fn.Valid() {
		return syntax.Node{}, ""
	}
	defs := Defs(p, fn)
	var use syntax.Node
	var why string
	done := false
	fn.Field("body").Walk(func(n syntax.Node) bool {
		if done || n.Kind() == "lambda_expression" {
			return false
		}
		if n.Kind() != "identifier" || n.Text() != name || n.Start() <= def.End() {
			return true
		}
		if !inDefReaches(defs, name, n, def) {
			done = true // redefined
			return false
		}
		e := inClimbParens(n)
		if inNullTested(e) || inNullGuarded(n, name) {
			done = true
			return false
		}
		if w := inNullUse(e); w != "" {
			use, why, done = n, w, true
		}
		return true
	})
	return use, why
}

// inDefReaches reports whether definition def of name may reach use.
func inDefReaches(defs *DefIndex, name string, use, def syntax.Node) bool {
	for _, d := range defs.Reaching(name, use) {
		if d.Node.Index() == def.Index() {
			return true
		}
	}
	return false
}

// inNullGuarded reports whether n lies in the branch of a condition that
// tests name (if (name && ...) { n }, name ? n : x).
func inNullGuarded(n syntax.Node, name string) bool {
	for a := n.Parent(); a.Valid() && a.Kind() != "function_definition"; a = a.Parent() {
		switch a.Kind() {
		case "if_statement", "while_statement", "conditional_expression":
			if c := Condition(a); c.Valid() && !c.Contains(n) && inMentions(c, name) {
				return true
			}
		case "binary_expression":
			if op := BinaryOp(a); (op == "&&" || op == "||") && inMentions(a.Field("left"), name) && !a.Field("left").Contains(n) {
				return true
			}
		}
	}
	return false
}
