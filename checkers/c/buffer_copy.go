package c

import (
	"fmt"
	"strings"

	"github.com/jsec/jsec/checkers"
	"github.com/jsec/jsec/checkers/syntax"
)

// c.buffer.memcpy-unbounded: a copy into a fixed-size array whose length
// comes from the source (strlen(src)) or from program input, with nothing
// comparing it with the destination's size.

// bufStrlenCalls return the length of a string.
var bufStrlenCalls = map[string]bool{
	"strlen": true, "wcslen": true, "_tcslen": true, "lstrlen": true, "lstrlenA": true, "lstrlenW": true, "_mbslen": true,
}

// bufNumberCalls convert their first argument to a number: the result is
// as trusted as the argument.
var bufNumberCalls = map[string]bool{
	"atoi": true, "atol": true, "atoll": true, "strtol": true, "strtoul": true, "strtoll": true, "strtoull": true,
	"ntohs": true, "ntohl": true, "be16toh": true, "be32toh": true, "be64toh": true, "le16toh": true,
	"le32toh": true, "le64toh": true, "strtoimax": true, "strtoumax": true,
}

// checkMemcpyUnbounded flags memcpy(buf, src, strlen(src)) and
// memcpy(buf, src, len) with len from input, into an array of known size,
// when nothing bounds the length.
func checkMemcpyUnbounded(p *checkers.Pass, h checkers.Hit) {
	call, sc, args, ok := bufCallOf(h)
	if !ok {
		return
	}
	s := FuncScope(p, EnclosingFunction(call))
	room, ok := bufRoomOf(p, s, call, args[sc.Dst])
	if !ok {
		return
	}
	n := args[sc.Size]
	if _, isConst := bufEval(p, s, n); isConst || bufBounded(p, s, n, 0) {
		return
	}
	if most, ok := bufLenMax(p, s, n, 0); ok {
		if b, bok := room.Bytes(); bok && most <= b {
			return // strlen of a string known to fit
		}
	}
	cause, adjust, ok := bufLenCause(p, s, n, 0)
	if !ok || bufLenGuarded(p, call, n) {
		return
	}
	p.Report(checkers.Finding{Rule: ruleMemcpyUnbounded, Span: checkers.NodeSpan(call), Adjust: adjust,
		Message: fmt.Sprintf("%s copies '%s' bytes into %s; the length is %s, and nothing compares it with the destination's size",
			h.Word, shortText(n), room.What, cause)})
}

// bufLenMax bounds a length made of strlen() of bounded strings (a
// literal, an array) plus or minus constants.
func bufLenMax(p *checkers.Pass, s *Scope, n syntax.Node, depth int) (int64, bool) {
	n = Uncast(n)
	if depth > 6 {
		return 0, false
	}
	if v, ok := bufEval(p, s, n); ok {
		return v, true
	}
	switch n.Kind() {
	case "binary_expression":
		a, ok1 := bufLenMax(p, s, n.Field("left"), depth+1)
		switch BinaryOp(n) {
		case "+":
			b, ok2 := bufLenMax(p, s, n.Field("right"), depth+1)
			return a + b, ok1 && ok2
		case "-":
			_, ok2 := bufEval(p, s, n.Field("right"))
			return a, ok1 && ok2
		}
	case "call_expression":
		if bufStrlenCalls[CalleeName(n)] {
			return bufStrBound(p, s, n, Arg(n, 0), 0)
		}
	case "identifier":
		defs := Defs(p, EnclosingFunction(n)).Reaching(n.Text(), n)
		best := int64(0)
		for _, d := range defs {
			if d.Kind != DefAssign || d.Node.Kind() == "assignment_expression" && BinaryOp(d.Node) != "=" {
				return 0, false
			}
			v, ok := bufLenMax(p, s, d.Value, depth+1)
			if !ok {
				return 0, false
			}
			best = max(best, v)
		}
		return best, len(defs) > 0
	}
	return 0, false
}

// bufLenCause says why a length is not under the program's control: it
// is the length of a string (strlen), or it comes from program input.
// The reason completes "the length is …".
func bufLenCause(p *checkers.Pass, s *Scope, n syntax.Node, depth int) (string, float64, bool) {
	n = Uncast(n)
	if depth > 6 {
		return "", 0, false
	}
	switch n.Kind() {
	case "binary_expression":
		switch BinaryOp(n) {
		case "+", "-", "*":
			if _, ok := bufEval(p, s, n.Field("right")); ok {
				return bufLenCause(p, s, n.Field("left"), depth+1)
			}
			if _, ok := bufEval(p, s, n.Field("left")); ok && BinaryOp(n) != "-" {
				return bufLenCause(p, s, n.Field("right"), depth+1)
			}
		}
		return "", 0, false
	case "call_expression":
		name := CalleeName(n)
		if bufStrlenCalls[name] {
			src := Arg(n, 0)
			why := fmt.Sprintf("the source's own length (%s)", shortText(n))
			if o := Trace(p, src); o.Origin == OriginExternal {
				return why + ", and the source is " + o.What, 0.1, true
			}
			return why, 0, true
		}
		if bufNumberCalls[name] {
			if o := Trace(p, Arg(n, 0)); o.Origin == OriginExternal {
				return "read from " + o.What, 0.1, true
			}
		}
		return "", 0, false
	case "identifier":
		fn := EnclosingFunction(n)
		for _, d := range Defs(p, fn).Reaching(n.Text(), n) {
			if d.Kind == DefAssign && (d.Node.Kind() != "assignment_expression" || BinaryOp(d.Node) == "=") {
				if c, adj, ok := bufLenCause(p, s, d.Value, depth+1); ok {
					return c, adj, true
				}
			}
		}
	}
	if o := Trace(p, n); o.Origin == OriginExternal {
		return "read from " + o.What, 0.1, true
	}
	return "", 0, false
}

// bufBounded reports whether a length expression carries its own bound:
// a constant, a sizeof, MIN(n, sizeof buf), a conditional that compares,
// n & MASK, n % K, or a variable every reaching definition of which is
// bounded.
func bufBounded(p *checkers.Pass, s *Scope, n syntax.Node, depth int) bool {
	n = Uncast(n)
	if depth > 6 || !n.Valid() {
		return false
	}
	if _, ok := bufEval(p, s, n); ok {
		return true
	}
	switch n.Kind() {
	case "sizeof_expression":
		return true
	case "call_expression":
		name := strings.ToLower(CalleeName(n))
		if strings.Contains(name, "min") {
			for _, a := range Args(n) {
				if bufBounded(p, s, a, depth+1) {
					return true
				}
			}
		}
		if name == "strnlen" || name == "wcsnlen" {
			return bufBounded(p, s, Arg(n, 1), depth+1)
		}
	case "conditional_expression":
		if bufRelational(Condition(n)) || bufRelational(Unparen(n.Field("condition"))) {
			return bufBounded(p, s, n.Field("consequence"), depth+1) || bufBounded(p, s, n.Field("alternative"), depth+1)
		}
	case "binary_expression":
		switch BinaryOp(n) {
		case "&", "%":
			return bufBounded(p, s, n.Field("right"), depth+1)
		case "-", "/", ">>":
			return bufBounded(p, s, n.Field("left"), depth+1)
		case "+", "*":
			return bufBounded(p, s, n.Field("left"), depth+1) && bufBounded(p, s, n.Field("right"), depth+1)
		}
	case "identifier":
		fn := EnclosingFunction(n)
		defs := Defs(p, fn).Reaching(n.Text(), n)
		if len(defs) == 0 {
			return false
		}
		for _, d := range defs {
			if d.Kind != DefAssign || !bufBounded(p, s, d.Value, depth+1) {
				return false
			}
		}
		return true
	}
	return false
}

// bufRelational reports whether a condition holds an ordering comparison
// (<, <=, >, >=) whose operands are not a literal zero or one.
func bufRelational(cond syntax.Node) bool {
	found := false
	cond.Walk(func(n syntax.Node) bool {
		if found {
			return false
		}
		if n.Kind() == "binary_expression" && bufOrdering(BinaryOp(n)) && !bufSmallLiteral(n.Field("left")) && !bufSmallLiteral(n.Field("right")) {
			found = true
		}
		return !found
	})
	return found
}

func bufOrdering(op string) bool { return op == "<" || op == "<=" || op == ">" || op == ">=" }

func bufSmallLiteral(n syntax.Node) bool {
	n = Uncast(n)
	return n.Kind() == "number_literal" && (n.Text() == "0" || n.Text() == "1")
}

// bufLenGuarded reports whether an ordering comparison of the length (or
// of a variable or strlen() call it is made of, or computed from) guards
// the call.
func bufLenGuarded(p *checkers.Pass, call, n syntax.Node) bool {
	names := bufLenNames(n)
	fn := EnclosingFunction(call)
	for _, id := range names {
		for _, d := range Defs(p, fn).Reaching(id, call) {
			if d.Kind == DefAssign && d.Value.Valid() {
				names = append(names, bufLenNames(d.Value)...)
			}
		}
	}
	return bufGuardedBy(p, call, names)
}

// bufGuardedBy reports whether an ordering comparison of one of names
// (with anything but a literal 0 or 1) guards the call: in the condition
// of an enclosing if, while or ?:, in an earlier if statement of an
// enclosing block, or in an assertion before it.
func bufGuardedBy(p *checkers.Pass, call syntax.Node, names []string) bool {
	if len(names) == 0 {
		return false
	}
	fn := EnclosingFunction(call)
	guards := func(cond syntax.Node) bool {
		found := false
		cond.Walk(func(m syntax.Node) bool {
			if found {
				return false
			}
			if m.Kind() == "binary_expression" && bufOrdering(BinaryOp(m)) {
				l, r := m.Field("left"), m.Field("right")
				if bufMentions(l, names) && !bufSmallLiteral(r) || bufMentions(r, names) && !bufSmallLiteral(l) {
					found = true
				}
			}
			return !found
		})
		return found
	}
	for a := call; a.Valid() && a.Index() != fn.Index(); a = a.Parent() {
		par := a.Parent()
		switch par.Kind() {
		case "if_statement", "while_statement", "conditional_expression":
			if a.FieldName() != "condition" && guards(par.Field("condition")) {
				return true
			}
		case "compound_statement":
			if par.End()-par.Start() >= guardIndexMin {
				// A large block: only its statements that hold an
				// ordering comparison (guardStmts).
				for _, g := range guardStmts(p, par) {
					if g.start >= a.Start() {
						break
					}
					if guards(g.what) {
						return true
					}
				}
				continue
			}
			for st := a.PrevSibling(); st.Valid(); st = st.PrevSibling() {
				switch st.Kind() {
				case "if_statement":
					if guards(st.Field("condition")) {
						return true
					}
				case "expression_statement":
					if c := Uncast(st.NamedChild(0)); c.Kind() == "call_expression" && strings.Contains(strings.ToLower(CalleeName(c)), "assert") && guards(c.Field("arguments")) {
						return true
					}
				}
			}
		}
	}
	return false
}

// bufLenNames lists the texts a guard may compare: the identifiers of the
// length expression and its strlen() calls.
func bufLenNames(n syntax.Node) []string {
	var out []string
	n.Walk(func(m syntax.Node) bool {
		switch m.Kind() {
		case "identifier":
			if !(m.Parent().Kind() == "call_expression" && m.FieldName() == "function") {
				out = append(out, m.Text())
			}
		case "call_expression":
			if bufStrlenCalls[CalleeName(m)] {
				out = append(out, strings.Join(strings.Fields(m.Text()), ""))
				return false
			}
		}
		return true
	})
	return out
}

// bufMentions reports whether an expression names one of the texts.
func bufMentions(e syntax.Node, names []string) bool {
	found := false
	e.Walk(func(m syntax.Node) bool {
		if found {
			return false
		}
		t := m.Text()
		if m.Kind() == "call_expression" {
			t = strings.Join(strings.Fields(t), "")
		}
		if m.Kind() == "identifier" || m.Kind() == "call_expression" {
			for _, nm := range names {
				if t == nm {
					found = true
				}
			}
		}
		return !found
	})
	return found
}
