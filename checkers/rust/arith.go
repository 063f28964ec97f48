package rust

import (
	"fmt"
	"math/big"
	"strings"

	"github.com/jsec/jsec/checkers"
	"github.com/jsec/jsec/checkers/syntax"
)

// Arithmetic family: narrowing casts, unchecked arithmetic on sizes read
// from input, allocations sized by input. Rules are in rules/rust_arith.go.
const (
	ruleTruncCast     = "rust.int.truncating-cast"
	ruleOverflow      = "rust.int.overflow"
	ruleUncappedAlloc = "rust.dos.uncapped-alloc"
)

// arithCheckers is the arith family; its rules are in rules/rust_arith.go.
var arithCheckers = []*checkers.Checker{
	{
		Name:     "rust/arith/truncating-cast",
		Rules:    []string{ruleTruncCast},
		Triggers: []string{"as"},
		Triage:   triageCast,
		Check:    checkCast,
	},
	{
		Name:     "rust/arith/input-size",
		Rules:    []string{ruleOverflow, ruleUncappedAlloc},
		Triggers: sizeSourceTriggers,
		Triage:   triageSizeSource,
		Check:    checkSizeSource,
	},
}

// castAliases maps the C type aliases of std::os::raw and libc to the
// Rust integer type they are on 64-bit Linux.
var castAliases = map[string]string{
	"c_char": "i8", "c_schar": "i8", "c_uchar": "u8", "c_short": "i16", "c_ushort": "u16",
	"c_int": "i32", "c_uint": "u32", "c_long": "i64", "c_ulong": "u64", "c_longlong": "i64",
	"c_ulonglong": "u64", "size_t": "usize", "ssize_t": "isize", "socklen_t": "u32",
	"off_t": "i64", "pid_t": "i32", "uid_t": "u32", "gid_t": "u32", "mode_t": "u32",
}

// castInt returns the integer type a type name denotes ("" for others).
func castInt(t string) string {
	if i := strings.LastIndex(t, "::"); i >= 0 {
		t = t[i+2:]
	}
	if a, ok := castAliases[t]; ok {
		return a
	}
	if _, ok := locIntBits[t]; ok {
		return t
	}
	return ""
}

// triageCast keeps `<source> as <int>` outside test items where the
// source's type may be known: an identifier, a field, .len(), a suffixed
// literal.
func triageCast(lx *checkers.Lexed, tok int) bool {
	if castInt(locTok(lx, tok+1)) == "" && !(lx.Is(tok+2, "::") && castInt(locTok(lx, tok+3)) != "") {
		return false
	}
	it := lx.ItemOf(tok)
	if it < 0 || lx.Items[it].Test {
		return false
	}
	switch prev := tok - 1; lx.Kind(prev) {
	case checkers.TokIdent:
		if locKeywords[locTok(lx, prev)] {
			return false
		}
		if lx.Is(prev-1, ".") {
			return true // a field: its type is looked up in Check
		}
		return triageTypedName(lx, lx.Items[it].TokStart, tok, locTok(lx, prev), 0)
	case checkers.TokNumber:
		return locLiteralSuffix(locTok(lx, prev)) != ""
	case checkers.TokPunct:
		if lx.Is(prev, ")") {
			o := locOpenBefore(lx, prev)
			switch locTok(lx, o-1) {
			case "len", "count", "capacity", "from_le_bytes", "from_be_bytes", "from_ne_bytes":
				return true
			}
		}
	}
	return false
}

// triageTypedName reports whether name is declared in the item before
// token to with an integer type or a value whose type is visible: a
// parameter or let annotation (name: u64), a let whose initializer holds
// .len(), a cast, a suffixed literal, from_*_bytes or a char, or a let
// that copies another such name.
func triageTypedName(lx *checkers.Lexed, from, to int, name string, depth int) bool {
	for j := from; j < to && depth < 3; j++ {
		if !lx.Is(j, name) {
			continue
		}
		if lx.Is(j+1, ":") {
			k := j + 2
			for lx.Is(k, "&") || lx.Is(k, "mut") || lx.Is(k, "::") || lx.Is(k, "libc") {
				k++
			}
			if castInt(locTok(lx, k)) != "" || lx.Is(k, "char") {
				return true
			}
		}
		if lx.Is(j+1, "=") && (lx.Is(j-1, "let") || lx.Is(j-1, "mut")) {
			if lx.Kind(j+2) == checkers.TokIdent && lx.Is(j+3, ";") && triageTypedName(lx, from, j, locTok(lx, j+2), depth+1) {
				return true // let x = y; with y typed
			}
			for k := j + 2; k < to && !lx.Is(k, ";"); k++ {
				switch t := locTok(lx, k); {
				case t == "len" || t == "count" || t == "as" || strings.HasPrefix(t, "from_") && strings.HasSuffix(t, "_bytes"):
					return true
				case lx.Kind(k) == checkers.TokNumber && locLiteralSuffix(t) != "", lx.Kind(k) == checkers.TokChar:
					return true
				case castInt(t) != "" && lx.Is(k+1, "::"):
					return true // u32::from(x), u64::MAX
				}
			}
		}
	}
	return false
}

// checkCast flags `x as T` when the type of x is known and T cannot hold
// all its values: a narrower integer, or an unsigned type for a signed
// value. Bounded values (a literal that fits, x & 0xff, x >> 24, x % 256)
// and values compared against a bound earlier in the function are
// silent.
func checkCast(p *checkers.Pass, h checkers.Hit) {
	cast := h.Node.Parent()
	if cast.Kind() != "type_cast_expression" || locInTest(p, cast) || castInConst(cast) {
		return
	}
	to := castInt(locTypeText(cast.Field("type")))
	val := cast.Field("value")
	from := castInt(locType(p, val, 0))
	if to == "" || from == "" || from == to {
		return
	}
	fb, tb := locIntBits[from], locIntBits[to]
	narrowing := tb < fb
	signLoss := locSigned(from) && !locSigned(to) && from != "char"
	if !narrowing && !signLoss {
		return
	}
	if castBounded(p, val, to, 0) || castChecked(p, val, cast, from == "char") || castInTest(val, cast) {
		return
	}
	subject := strings.Join(strings.Fields(val.Text()), "")
	if len(subject) > 40 {
		subject = subject[:37] + "..."
	}
	adjust := 0.0
	var msg string
	if narrowing {
		msg = fmt.Sprintf("`%s` (%s) cast to %s silently truncates values above %s::MAX", subject, from, to, to)
		if signLoss {
			msg += " and wraps negative values"
		}
		if from == "char" {
			msg = fmt.Sprintf("`%s` (char) cast to %s keeps only the low byte of non-ASCII characters", subject, to)
		}
	} else {
		msg = fmt.Sprintf("`%s` (%s) cast to %s turns negative values into huge ones", subject, from, to)
		adjust -= 0.05
	}
	if call := locPeel(val); call.Kind() == "call_expression" {
		if name, method, _ := locCallName(call); method && name == "len" {
			adjust += 0.05 // lengths of input-sized buffers
		}
	}
	if signLoss && !narrowing && castFromC(val) {
		adjust -= 0.15
		msg += " (a parameter of an extern \"C\" callback, non-negative by the C API's contract?)"
	}
	if castExplained(p, cast) {
		adjust -= 0.2
		msg += " (a comment explains the cast)"
	}
	msg += fmt.Sprintf("; use %s::try_from(%s) and handle the error", to, subject)
	p.Report(checkers.Finding{Rule: ruleTruncCast, Span: checkers.NodeSpan(cast), Adjust: adjust, Message: msg})
}

// castInTest reports whether the cast sits in the branch of an if (or
// a match arm guard) whose condition tests the cast value:
// `if fits_one_byte(v) { v as u8 }`.
func castInTest(val, cast syntax.Node) bool {
	root := castRoot(val)
	if root == "" {
		return false
	}
	return castInTestOf(root, cast)
}

// castInTestOf reports whether node n sits in the branch of an if (or a
// match arm guard) whose condition mentions identifier root.
func castInTestOf(root string, n syntax.Node) bool {
	for q := n; q.Valid() && q.Kind() != "function_item"; q = q.Parent() {
		var cond syntax.Node
		switch p := q.Parent(); {
		case p.Kind() == "if_expression" && q.FieldName() == "consequence":
			cond = p.Field("condition")
		case p.Kind() == "match_arm" && q.FieldName() == "value":
			cond = p.Field("pattern").Field("condition")
		}
		found := false
		cond.Walk(func(m syntax.Node) bool {
			if m.FieldName() == "pattern" && m.Parent().Kind() == "let_condition" {
				return false // `if let Some(x) = …` binds x, it does not test it
			}
			found = found || m.Kind() == "identifier" && m.Text() == root
			return !found
		})
		if found {
			return true
		}
	}
	return false
}

// castRoot returns the identifier a cast source is about: x for x,
// self.x, x.len().
func castRoot(val syntax.Node) string {
	for {
		switch val.Kind() {
		case "identifier":
			return val.Text()
		case "field_expression":
			if f := val.Field("field"); val.Field("value").Kind() == "self" {
				return f.Text()
			}
			val = val.Field("value")
		case "call_expression":
			val = val.Field("function")
		case "parenthesized_expression":
			val = val.NamedChild(0)
		default:
			return ""
		}
	}
}

// castFromC reports whether the cast source is a parameter of an extern
// "C" function (a callback whose arguments C fills in).
func castFromC(val syntax.Node) bool {
	fn := EnclosingFunction(val)
	if !HasModifier(fn, "extern") && !strings.Contains(fn.Field("parameters").Text(), "c_int") {
		return false
	}
	for par := range fn.Field("parameters").NamedChildren() {
		if par.Field("pattern").Text() == val.Text() {
			return true
		}
	}
	return false
}

// castExplained reports whether a comment on the cast's line or the line
// above says why the cast is fine.
func castExplained(p *checkers.Pass, cast syntax.Node) bool {
	lines := p.File.Lines()
	line := lines.Line(cast.Start())
	for _, c := range p.Lex.Comments {
		l := lines.Line(c.Start)
		if l < line-1 || l > line {
			continue
		}
		t := strings.ToLower(string(p.Lex.Src[c.Start:c.End]))
		for _, w := range []string{"truncat", "fits", "never", "at most", "always", "safe", "overflow", "cannot", "can't", "intentional", "wrap"} {
			if strings.Contains(t, w) {
				return true
			}
		}
	}
	return false
}

// castInConst reports whether a cast is evaluated at compile time.
func castInConst(n syntax.Node) bool {
	a := n.Ancestor("const_item", "static_item", "function_item", "enum_variant", "array_type")
	return a.Valid() && a.Kind() != "function_item"
}

// castBounded reports whether the value of e fits in type to whatever
// its operands are: a literal that fits, a mask, a shift, a remainder, a
// .min() with a literal; also through a let binding.
func castBounded(p *checkers.Pass, e syntax.Node, to string, depth int) bool {
	if depth > 3 {
		return false
	}
	e = castUnparen(e)
	switch e.Kind() {
	case "integer_literal":
		return castLitFits(e.Text(), to)
	case "identifier":
		if b, ok := locResolve(p, e); ok && b.Direct && b.Value.Valid() && !b.IsParam() {
			return castBounded(p, b.Value, to, depth+1)
		}
	case "type_cast_expression":
		inner := castInt(locTypeText(e.Field("type")))
		if inner != "" && locIntBits[inner] <= locIntBits[to] && locSigned(inner) == locSigned(to) {
			return true
		}
		return castBounded(p, e.Field("value"), to, depth+1)
	case "binary_expression":
		r := castUnparen(e.Field("right"))
		switch e.Field("operator").Text() {
		case "&":
			return castBounded(p, r, to, depth+1) || castBounded(p, e.Field("left"), to, depth+1)
		case "%":
			return r.Kind() == "integer_literal" && castLitFits(r.Text(), to)
		case ">>":
			return true // extracting a byte or word: the truncation is the point
		}
	case "call_expression":
		name, method, _ := locCallName(e)
		if a := Args(e); method && (name == "min" || name == "clamp") && len(a) > 0 {
			return castBounded(p, a[len(a)-1], to, depth+1)
		}
		if method && (name == "count_ones" || name == "leading_zeros" || name == "trailing_zeros" || name == "count_zeros") {
			return true
		}
	}
	return false
}

func castUnparen(e syntax.Node) syntax.Node {
	for e.Kind() == "parenthesized_expression" {
		e = e.NamedChild(0)
	}
	return e
}

// castLitFits reports whether integer literal lit fits in type to.
func castLitFits(lit, to string) bool {
	s := strings.ReplaceAll(lit, "_", "")
	if suf := locLiteralSuffix(s); suf != "" {
		s = strings.TrimSuffix(s, suf)
	}
	v, ok := new(big.Int).SetString(s, 0)
	if !ok {
		return false
	}
	bits := locIntBits[to]
	if locSigned(to) {
		bits--
	}
	return v.BitLen() <= bits
}

// castChecked reports whether the cast value is compared (<, <=, >, >=)
// or tested with a range check earlier in the function, or the cast sits
// in the branch of such a test: `if x > u8::MAX as u32 { return }`. For
// a char, an is_ascii* test counts.
func castChecked(p *checkers.Pass, val, cast syntax.Node, char bool) bool {
	fn := EnclosingFunction(cast)
	if !fn.Valid() {
		return false
	}
	lx := p.Lex
	from, to := lx.TokenAt(fn.Start()), lx.TokenAt(cast.Start())
	v0, v1 := lx.TokenAt(val.Start()), -1
	for j := v0; j >= 0 && j < len(lx.Tokens) && int(lx.Tokens[j].End) <= val.End(); j++ {
		v1 = j + 1
	}
	if from < 0 || to < 0 || v0 < 0 || v1 <= v0 {
		return false
	}
	want := make([]string, 0, v1-v0)
	for j := v0; j < v1; j++ {
		want = append(want, locTok(lx, j))
	}
	last := lx.TokenAt(fn.End() - 1)
	if castTried(lx, from, to, last, want) {
		return true
	}
	if char && v1 == v0+1 {
		// c.is_ascii(), c.is_ascii_digit() … before the cast
		for j := from; j+2 < to; j++ {
			if lx.Is(j, want[0]) && lx.Is(j+1, ".") && strings.HasPrefix(locTok(lx, j+2), "is_ascii") {
				return true
			}
		}
	}
	return locCompared(lx, from, to, want)
}

// castTried reports whether the source was converted with try_from or
// try_into before the cast (a debug_assert! of it, a fallible path) or
// is split into words with >> anywhere in the function (the low-word
// cast is then intended).
func castTried(lx *checkers.Lexed, from, to, last int, want []string) bool {
	n := len(want)
	for j := from; j+n <= last; j++ {
		match := true
		for k, w := range want {
			if !lx.Is(j+k, w) {
				match = false
				break
			}
		}
		if !match {
			continue
		}
		if lx.Is(j+n, ">>") {
			return true // anywhere in the function
		}
		if j < to && (lx.Is(j-1, "(") && lx.Is(j-2, "try_from") || lx.Is(j+n, ".") && lx.Is(j+n+1, "try_into")) {
			return true
		}
	}
	return false
}

// locCompared reports whether the token sequence want appears between
// tokens from and to as an operand of a comparison (<, <=, >, >=), of a
// range-contains test, or of .min()/.clamp().
func locCompared(lx *checkers.Lexed, from, to int, want []string) bool {
	n := len(want)
	for j := from; j+n <= to; j++ {
		match := true
		for k, w := range want {
			if !lx.Is(j+k, w) {
				match = false
				break
			}
		}
		if !match {
			continue
		}
		before, after := locTok(lx, j-1), locTok(lx, j+n)
		if lx.Is(j-1, ".") || lx.Is(j-1, "::") {
			continue // a field or method of something else
		}
		if locCmpOps[after] && !locArithOps[before] || locCmpOps[before] && !locArithOps[after] && after != "." {
			return true
		}
		if after == "." && (lx.Is(j+n+1, "min") || lx.Is(j+n+1, "clamp")) {
			return true
		}
		if before == "(" && lx.Is(j-2, "contains") {
			return true // (0..=255).contains(&x)
		}
		if before == "&" && lx.Is(j-2, "(") && lx.Is(j-3, "contains") {
			return true
		}
	}
	return false
}

var (
	locCmpOps   = map[string]bool{"<": true, "<=": true, ">": true, ">=": true}
	locArithOps = map[string]bool{"+": true, "-": true, "*": true, "/": true, "%": true, "<<": true, ">>": true, "as": true}
)
