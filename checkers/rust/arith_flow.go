package rust

import (
	"fmt"
	"math/big"
	"strings"

	"github.com/jsec/jsec/checkers"
	"github.com/jsec/jsec/checkers/syntax"
)

// This file follows integers read from input (from_le_bytes, byteorder's
// read_u32, bytes' get_u32, str::parse) through the lets of one function
// to the places where they size an allocation (rust.dos.uncapped-alloc)
// or go through unchecked arithmetic that sizes an allocation, a slice or
// a bounds check (rust.int.overflow). A value compared against a bound
// before that point is capped and stays silent.

var sizeSourceTriggers = []string{
	"from_le_bytes", "from_be_bytes", "from_ne_bytes",
	"read_u16", "read_u32", "read_u64", "read_u128", "read_i16", "read_i32", "read_i64", "read_uint",
	"get_u16", "get_u32", "get_u64", "get_u16_le", "get_u32_le", "get_u64_le", "get_i32", "get_i64",
	"get_i32_le", "get_i64_le", "get_uint", "parse",
}

// sizeTaint is what is known about a value derived from input.
type sizeTaint struct {
	bits  int         // how many bits the value may use
	tbits int         // the width of its type
	src   syntax.Node // the call that read it
	arith syntax.Node // the unchecked arithmetic it went through, if any
	names []string    // the bindings it went through, for the cap check
}

// triageSizeSource keeps input-reading calls outside test items whose
// item sizes something: an allocation, or arithmetic next to slicing or
// a length. parse() counts only with an integer type (turbofish or let
// annotation).
func triageSizeSource(lx *checkers.Lexed, tok int) bool {
	w := locTok(lx, tok)
	if strings.HasPrefix(w, "from_") && !lx.Is(tok-1, "::") || !strings.HasPrefix(w, "from_") && !lx.Is(tok-1, ".") {
		return false
	}
	it := lx.ItemOf(tok)
	if it < 0 || lx.Items[it].Test || w == "parse" && !triageIntParse(lx, tok, lx.Items[it].TokStart) {
		return false
	}
	arith, span := false, false
	for j := lx.Items[it].TokStart; j < lx.Items[it].TokEnd; j++ {
		switch locTok(lx, j) {
		case "with_capacity", "vec", "reserve", "reserve_exact", "resize", "Layout", "set_len", "split_at":
			return true
		case "+", "*", "<<", "+=", "*=":
			arith = true
		case "..", "len":
			span = true
		}
	}
	return arith && span
}

// triageIntParse reports whether the parse() at tok produces an integer:
// parse::<u32>(), or `let n: usize = ….parse()`.
func triageIntParse(lx *checkers.Lexed, tok, from int) bool {
	if lx.Is(tok+1, "::") && lx.Is(tok+2, "<") {
		return castInt(locTok(lx, tok+3)) != ""
	}
	for j := tok - 1; j > from && !lx.Is(j, ";") && !lx.Is(j, "{") && !lx.Is(j, "}"); j-- {
		if lx.Is(j, "let") {
			k := j + 1
			if lx.Is(k, "mut") {
				k++
			}
			return lx.Is(k+1, ":") && castInt(locTok(lx, k+2)) != ""
		}
	}
	return false
}

type sizeFnKey struct{ fn int }

// checkSizeSource analyzes the function around an input read once and
// reports every sink the reads reach.
func checkSizeSource(p *checkers.Pass, h checkers.Hit) {
	fn := EnclosingFunction(h.Node)
	if !fn.Valid() || locInTest(p, h.Node) {
		return
	}
	done := true
	checkers.Memo(p, sizeFnKey{fn.Index()}, func() bool { done = false; return true })
	if done {
		return // an earlier read in this function analyzed it
	}
	taint := sizeBindings(p, fn)
	if len(taint) == 0 && !sizeHasDirectSource(fn) {
		return
	}
	fn.Field("body").Walk(func(n syntax.Node) bool {
		for _, s := range sizeSinks(n) {
			sizeReport(p, fn, s, taint)
		}
		return true
	})
}

// sizeHasDirectSource reports whether fn holds a source call at all
// (bindings may be empty when the read feeds a sink directly).
func sizeHasDirectSource(fn syntax.Node) bool {
	found := false
	fn.Walk(func(n syntax.Node) bool {
		if !found && n.Kind() == "call_expression" {
			_, ok := sizeSourceBits(n)
			found = ok
		}
		return !found
	})
	return found
}

// sizeBindings computes the tainted bindings of fn in source order.
func sizeBindings(p *checkers.Pass, fn syntax.Node) map[int]sizeTaint {
	taint := map[int]sizeTaint{}
	fn.Field("body").Walk(func(n syntax.Node) bool {
		switch n.Kind() {
		case "let_declaration":
			pat := n.Field("pattern")
			if pat.Kind() == "mut_pattern" {
				pat = pat.NamedChild(pat.NamedChildCount() - 1)
			}
			if pat.Kind() != "identifier" || !n.Field("value").Valid() {
				return true
			}
			t, ok := sizeExpr(p, n.Field("value"), taint, 0)
			if ok && t.bits == 0 {
				// parse() without a turbofish: the annotation says the type.
				if ty := castInt(locTypeText(n.Field("type"))); ty != "" {
					t.bits, t.tbits = locIntBits[ty], locIntBits[ty]
				}
			}
			if ok && t.bits > 0 {
				t.names = append(append([]string(nil), t.names...), pat.Text())
				taint[pat.Index()] = t
			}
		case "assignment_expression", "compound_assignment_expr":
			left := n.Field("left")
			b, ok := locResolve(p, left)
			if !ok {
				return true
			}
			t, ok := sizeExpr(p, n.Field("right"), taint, 0)
			if !ok || t.bits == 0 {
				return true
			}
			if op := n.Field("operator").Text(); op == "+=" || op == "*=" || op == "<<=" {
				t = sizeCombine(p, n, op[:len(op)-1], taint[b.Pat.Index()], t)
			}
			t.names = append(append([]string(nil), t.names...), b.Name)
			taint[b.Pat.Index()] = t
		}
		return true
	})
	return taint
}

// sizeSourceBits recognizes a call that reads an integer from input and
// returns the width of what it reads (0 for parse() without a type).
func sizeSourceBits(call syntax.Node) (int, bool) {
	name, method, recv := locCallName(call)
	switch {
	case !method && strings.HasPrefix(name, "from_") && strings.HasSuffix(name, "_bytes"):
		head := call.Field("function").Field("path").Text()
		if b, ok := locIntBits[head]; ok && head != "char" {
			return b, true
		}
	case method && name == "parse":
		if locIsLiteral(locPeel(recv)) {
			return 0, false
		}
		if ta := TypeArgs(call); len(ta) == 1 {
			b, ok := locIntBits[castInt(locTypeText(ta[0]))]
			return b, ok
		}
		return 0, true
	case method && (strings.HasPrefix(name, "read_") || strings.HasPrefix(name, "get_")):
		t := strings.TrimSuffix(strings.TrimSuffix(name[strings.Index(name, "_")+1:], "_le"), "_be")
		if t == "uint" {
			return 64, true
		}
		if b, ok := locIntBits[t]; ok {
			return b, true
		}
	}
	return 0, false
}

// sizeExpr returns the taint of expression e, if it derives from input.
func sizeExpr(p *checkers.Pass, e syntax.Node, taint map[int]sizeTaint, depth int) (sizeTaint, bool) {
	if depth > 8 || !e.Valid() {
		return sizeTaint{}, false
	}
	switch e.Kind() {
	case "parenthesized_expression", "try_expression", "reference_expression":
		return sizeExpr(p, e.NamedChild(e.NamedChildCount()-1), taint, depth+1)
	case "type_cast_expression":
		t, ok := sizeExpr(p, e.Field("value"), taint, depth+1)
		ty := castInt(locTypeText(e.Field("type")))
		if !ok || ty == "" {
			return sizeTaint{}, false
		}
		if t.bits == 0 || t.bits > locIntBits[ty] {
			t.bits = locIntBits[ty]
		}
		t.tbits = locIntBits[ty]
		return t, true
	case "identifier":
		if b, ok := locResolve(p, e); ok {
			t, ok := taint[b.Pat.Index()]
			return t, ok
		}
	case "call_expression":
		return sizeCall(p, e, taint, depth)
	case "binary_expression":
		op := e.Field("operator").Text()
		l, lok := sizeExpr(p, e.Field("left"), taint, depth+1)
		r, rok := sizeExpr(p, e.Field("right"), taint, depth+1)
		switch {
		case !lok && !rok:
			return sizeTaint{}, false
		case op == "+" || op == "*" || op == "<<":
			if !lok {
				return sizeCombine(p, e, op, r, sizeOperand(p, e.Field("left"), r.tbits)), true
			}
			if !rok {
				r = sizeOperand(p, e.Field("right"), l.tbits)
			}
			return sizeCombine(p, e, op, l, r), true
		case op == "-" || op == "/":
			if lok {
				return l, true
			}
		}
	}
	return sizeTaint{}, false
}

// sizeCall handles the calls a tainted value flows through: conversions
// keep it, min/clamp and checked/saturating/wrapping arithmetic end it.
func sizeCall(p *checkers.Pass, e syntax.Node, taint map[int]sizeTaint, depth int) (sizeTaint, bool) {
	if bits, ok := sizeSourceBits(e); ok {
		return sizeTaint{bits: bits, tbits: bits, src: e}, true
	}
	name, method, recv := locCallName(e)
	switch {
	case method && (name == "unwrap" || name == "expect" || name == "into" || name == "try_into" || name == "unwrap_or_default"):
		return sizeExpr(p, recv, taint, depth+1)
	case !method && (name == "from" || name == "try_from") && len(Args(e)) == 1:
		t, ok := sizeExpr(p, Args(e)[0], taint, depth+1)
		if ty := castInt(e.Field("function").Field("path").Text()); ok && ty != "" {
			t.tbits = locIntBits[ty]
		}
		return t, ok
	}
	return sizeTaint{}, false
}

// sizeOperand describes the untainted operand of arithmetic on a tainted
// value: a literal has its own width; anything else may be as wide as the
// type.
func sizeOperand(p *checkers.Pass, e syntax.Node, tbits int) sizeTaint {
	e = castUnparen(e)
	if e.Kind() == "integer_literal" {
		s := strings.ReplaceAll(e.Text(), "_", "")
		s = strings.TrimSuffix(s, locLiteralSuffix(s))
		if v, ok := new(big.Int).SetString(s, 0); ok {
			return sizeTaint{bits: v.BitLen(), tbits: tbits}
		}
	}
	if e.Kind() == "call_expression" && strings.Contains(e.Field("function").Text(), "size_of") {
		return sizeTaint{bits: 12, tbits: tbits} // mem::size_of::<T>(): small
	}
	return sizeTaint{bits: tbits, tbits: tbits}
}

// sizeCombine gives the taint of `a op b` where a is tainted.
func sizeCombine(p *checkers.Pass, e syntax.Node, op string, a, b sizeTaint) sizeTaint {
	t := a
	if b.src.Valid() && (!a.src.Valid() || b.bits > a.bits) {
		t = b
	}
	t.names = append(append([]string(nil), a.names...), b.names...)
	if t.tbits == 0 {
		t.tbits = max(a.tbits, b.tbits)
	}
	switch op {
	case "*":
		t.bits = a.bits + b.bits
	case "+":
		t.bits = max(a.bits, b.bits) + 1
	case "<<":
		t.bits = t.tbits + 1
	}
	t.arith = e
	return t
}

// sizeSink is one place where a value sizes something.
type sizeSink struct {
	arg   syntax.Node   // the size expression
	toks  []syntax.Node // for vec![x; n]: the token-tree nodes of n
	alloc bool          // an allocation (uncapped-alloc applies)
	what  string        // "Vec::with_capacity", "slice index" …
}

// sizeSinks returns the size expressions that node n uses.
func sizeSinks(n syntax.Node) []sizeSink {
	switch n.Kind() {
	case "call_expression":
		name, method, _ := locCallName(n)
		args := Args(n)
		if len(args) == 0 {
			return nil
		}
		switch {
		case !method && name == "with_capacity":
			return []sizeSink{{arg: args[0], alloc: true, what: Path(n)}}
		case method && (name == "reserve" || name == "reserve_exact" || name == "resize" && len(args) == 2):
			return []sizeSink{{arg: args[0], alloc: true, what: name}}
		case !method && (name == "array" || name == "from_size_align") && strings.Contains(Path(n), "Layout"):
			return []sizeSink{{arg: args[0], alloc: true, what: "Layout::" + name}}
		case method && (name == "set_len" || name == "split_at" || name == "split_at_mut" || name == "split_off"):
			return []sizeSink{{arg: args[0], what: name}}
		}
	case "macro_invocation":
		if locMacroName(n) != "vec" {
			return nil
		}
		var toks []syntax.Node
		semi := false
		for c := range n.NamedChild(1).Children() {
			switch {
			case c.Kind() == ";":
				semi = true
			case semi && c.Kind() != "]" && c.Kind() != ")":
				toks = append(toks, c)
			}
		}
		if len(toks) > 0 {
			return []sizeSink{{toks: toks, alloc: true, what: "vec!"}}
		}
	case "index_expression":
		idx := n.NamedChild(1)
		if idx.Kind() == "range_expression" {
			var out []sizeSink
			for c := range idx.NamedChildren() {
				out = append(out, sizeSink{arg: c, what: "a slice bound"})
			}
			return out
		}
		return []sizeSink{{arg: idx, what: "an index"}}
	case "binary_expression":
		if !locCmpOps[n.Field("operator").Text()] {
			return nil
		}
		l, r := n.Field("left"), n.Field("right")
		if strings.Contains(r.Text(), "len()") {
			return []sizeSink{{arg: l, what: "a bounds check"}}
		}
		if strings.Contains(l.Text(), "len()") {
			return []sizeSink{{arg: r, what: "a bounds check"}}
		}
	}
	return nil
}

// sizeTokens computes the taint of the tokens of a macro argument
// (vec![0; n * 4]).
func sizeTokens(p *checkers.Pass, toks []syntax.Node, taint map[int]sizeTaint) (sizeTaint, bool) {
	if len(toks) == 1 {
		return sizeExpr(p, toks[0], taint, 0)
	}
	var t sizeTaint
	found := false
	op := "+"
	for _, c := range toks {
		switch c.Kind() {
		case "*", "<<":
			op = c.Kind()
		case "identifier":
			if b, ok := locResolve(p, c); ok {
				if x, ok := taint[b.Pat.Index()]; ok && (!found || x.bits > t.bits) {
					t, found = x, true
				}
			}
		}
	}
	if !found {
		return t, false
	}
	t.bits = sizeCombine(p, toks[0], op, t, sizeTaint{bits: t.tbits, tbits: t.tbits}).bits
	t.arith = toks[0]
	return t, true
}

// sizeReport reports the findings of one sink.
func sizeReport(p *checkers.Pass, fn syntax.Node, s sizeSink, taint map[int]sizeTaint) {
	var t sizeTaint
	var ok bool
	span := checkers.NodeSpan(s.arg)
	if s.toks != nil {
		t, ok = sizeTokens(p, s.toks, taint)
		span = checkers.Span{Start: s.toks[0].Start(), End: s.toks[len(s.toks)-1].End()}
		if ok && len(s.toks) == 1 {
			t.arith = syntax.Node{}
		}
	} else {
		t, ok = sizeExpr(p, s.arg, taint, 0)
	}
	if !ok || t.bits == 0 || !t.src.Valid() || sizeCapped(p, fn, t, span.Start) {
		return
	}
	src := strings.Join(strings.Fields(t.src.Text()), "")
	if len(src) > 40 {
		src = src[:37] + "..."
	}
	line := p.File.Lines().Line(t.src.Start())
	if t.arith.Valid() && (t.bits > t.tbits || t.tbits == 64 && t.bits > 32) {
		adjust, note := 0.0, ""
		if t.bits <= t.tbits {
			adjust, note = -0.25, " on 32-bit targets"
		}
		aspan := checkers.NodeSpan(t.arith)
		if s.toks != nil {
			aspan = span
		}
		expr := strings.Join(strings.Fields(string(p.File.Src[aspan.Start:aspan.End])), " ")
		msg := fmt.Sprintf("`%s` uses %s (line %d) without checked arithmetic and can overflow%s before it sizes %s; use checked_mul/checked_add and reject the input",
			expr, src, line, note, s.what)
		p.Report(checkers.Finding{Rule: ruleOverflow, Span: aspan, Adjust: adjust, Message: msg})
	}
	if s.alloc && t.bits > 16 {
		adjust := 0.0
		if t.bits >= 64 {
			adjust = 0.05
		}
		msg := fmt.Sprintf("%s sized by %s (line %d) with no upper bound: a crafted length makes it allocate up to 2^%d elements",
			s.what, src, line, min(t.bits, 64))
		p.Report(checkers.Finding{Rule: ruleUncappedAlloc, Span: span, Adjust: adjust, Message: msg})
	}
}

// sizeCapped reports whether one of the bindings the value went through
// is compared against a bound (or clamped with min) before offset at.
func sizeCapped(p *checkers.Pass, fn syntax.Node, t sizeTaint, at int) bool {
	lx := p.Lex
	from, end := lx.TokenAt(fn.Start()), lx.TokenAt(at)
	if from < 0 || end < 0 {
		return false
	}
	for _, name := range t.names {
		if locCompared(lx, from, end, []string{name}) {
			return true
		}
	}
	return false
}
