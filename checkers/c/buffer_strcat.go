package c

import (
	"fmt"
	"strings"

	"github.com/jsec/jsec/checkers"
	"github.com/jsec/jsec/checkers/syntax"
)

// c.buffer.strcat and c.buffer.strncat-size: appending to a buffer needs
// the room left after its current contents. Both rules estimate those
// contents from the definitions that reach the call (strcpy of a literal,
// earlier appends, "= \"\"", buf[0] = '\0', snprintf with a size).

// bufWideCat are the appends that count wide characters.
var bufWideCat = map[string]bool{"wcscat": true, "lstrcatW": true, "wcsncat": true}

// checkStrcat flags strcat(dst, src) unless src is known to fit what is
// left of dst, or dst was allocated from strlen(src).
func checkStrcat(p *checkers.Pass, h checkers.Hit) {
	call, ok := CallAt(h)
	if !ok {
		return
	}
	dst, src := Arg(call, 0), Arg(call, 1)
	if !dst.Valid() || !src.Valid() || len(Args(call)) != 2 {
		return
	}
	if h.Word == "StrCat" && (IsStringLiteral(dst) || !bufIncludesWindows(p)) {
		return // absl/protobuf StrCat builds a std::string
	}
	s := FuncScope(p, EnclosingFunction(call))
	room, known := bufRoomOf(p, s, call, dst)
	limit, unit := room.Chars(bufWideCat[h.Word])
	srcLen, srcOK := bufStrBound(p, s, call, src, 0)
	if known && unit {
		have, haveOK, loop := bufContentLen(p, s, call, dst)
		switch {
		case loop:
			p.Report(checkers.Finding{Rule: ruleStrcat, Span: checkers.NodeSpan(call),
				Message: fmt.Sprintf("%s appends '%s' to %s in a loop, with no bound on the total length", h.Word, shortText(src), room.What)})
		case srcOK && haveOK:
			if have+srcLen+1 <= limit {
				return
			}
			p.Report(checkers.Finding{Rule: ruleStrcat, Span: checkers.NodeSpan(call), Adjust: 0.1,
				Message: fmt.Sprintf("%s appends up to %d characters to %s, which may already hold %d: %d bytes needed",
					h.Word, srcLen, room.What, have, have+srcLen+1)})
		case srcOK:
			if srcLen+1 <= limit && bufContentChecked(p, call, dst) {
				return
			}
			p.Report(checkers.Finding{Rule: ruleStrcat, Span: checkers.NodeSpan(call), Adjust: -0.15,
				Message: fmt.Sprintf("%s appends %d characters to %s without checking the room its current contents leave", h.Word, srcLen, room.What)})
		default:
			bufReportUnboundedCat(p, h, call, dst, src, room.What)
		}
		return
	}
	if srcOK || bufSizedFrom(p, call, dst, src) {
		return // a literal into a buffer of unknown size, or one sized from the source
	}
	bufReportUnboundedCat(p, h, call, dst, src, "'"+shortText(dst)+"'")
}

func bufReportUnboundedCat(p *checkers.Pass, h checkers.Hit, call, dst, src syntax.Node, what string) {
	origin := Trace(p, src)
	if origin.Origin == OriginLiteral {
		return
	}
	adjust := 0.0
	from := ""
	switch origin.Origin {
	case OriginExternal:
		adjust, from = 0.1, " (program input)"
		if origin.What != shortText(src) {
			from = " (from " + origin.What + ")"
		}
	case OriginUnknown:
		adjust = -0.1
	}
	if lengthChecked(p, call, src) || bufSrcLenGuarded(p, call, src) {
		adjust -= 0.35
	}
	p.Report(checkers.Finding{Rule: ruleStrcat, Span: checkers.NodeSpan(call), Adjust: adjust,
		Message: fmt.Sprintf("%s appends '%s'%s to %s without a length limit", h.Word, shortText(src), from, what)})
}

// bufSpanCalls measure a prefix of their first argument.
var bufSpanCalls = map[string]bool{"strlen": true, "strnlen": true, "strcspn": true, "strspn": true, "wcslen": true, "wcsnlen": true}

type bufWindowsKey struct{}

// bufIncludesWindows reports whether the file includes <windows.h> or
// <shlwapi.h>, which declare the Win32 StrCat.
func bufIncludesWindows(p *checkers.Pass) bool {
	return checkers.Memo(p, bufWindowsKey{}, func() bool {
		for _, i := range directiveToks(p.Lex) {
			t := p.Lex.Tokens[i]
			d, rest := directiveName(p.Lex.Src[t.Start:t.End])
			r := strings.ToLower(string(rest))
			if d == "include" && (strings.Contains(r, "windows.h") || strings.Contains(r, "shlwapi.h")) {
				return true
			}
		}
		return false
	})
}

// bufSrcLenGuarded reports whether the source's length, or a variable
// holding it (l = strlen(src)), is compared before the call.
func bufSrcLenGuarded(p *checkers.Pass, call, src syntax.Node) bool {
	path := PathOf(src)
	needle := "strlen(" + strings.Join(strings.Fields(src.Text()), "") + ")"
	names := []string{needle}
	fn := EnclosingFunction(call)
	defs := Defs(p, fn)
	// In a large body, only the variables that some assignment gives a
	// length of src are asked about (spanHolders).
	indexed, holders := false, map[string]bool(nil)
	if body := fn.Field("body"); body.End()-body.Start() >= guardIndexMin {
		indexed, holders = true, spanHolders(p, fn, defs)[path]
	}
	var vars []*Var
	if !indexed || len(holders) > 0 {
		vars = FuncScope(p, fn).Vars()
	}
	for _, v := range vars {
		if indexed && !holders[v.Name] {
			continue
		}
		for _, d := range defs.Reaching(v.Name, call) {
			if d.Kind != DefAssign || !d.Value.Valid() {
				continue
			}
			// l = strlen(src) + …, l = strcspn(src, "\n"): a length of src.
			found := false
			d.Value.Walk(func(n syntax.Node) bool {
				if n.Kind() == "call_expression" && bufSpanCalls[CalleeName(n)] && path != "" && PathOf(Arg(n, 0)) == path {
					found = true
				}
				return !found
			})
			if found {
				names = append(names, v.Name)
			}
		}
	}
	return bufGuardedBy(p, call, names)
}

// bufContentChecked reports whether strlen(dst) is compared before the
// call (the contents' length is checked against the size).
func bufContentChecked(p *checkers.Pass, call, dst syntax.Node) bool {
	return lengthChecked(p, call, dst)
}

// bufContentLen returns an upper bound on strlen(dst) just before call,
// from the definitions that reach it. loop is set when the call appends
// inside a loop that does not reset dst first.
func bufContentLen(p *checkers.Pass, s *Scope, call, dst syntax.Node) (n int64, ok bool, loop bool) {
	dst = Uncast(dst)
	fn := EnclosingFunction(call)
	if dst.Kind() != "identifier" || !fn.Valid() {
		return 0, false, false
	}
	name := dst.Text()
	defs := Defs(p, fn)
	if l := call.Ancestor("for_statement", "while_statement", "do_statement"); l.Valid() && fn.Contains(l) {
		loop = true
		for _, d := range defs.All(name) {
			if l.Contains(d.Node) && d.Node.End() <= call.Start() && !d.Partial {
				loop = false
			}
		}
		if loop {
			return 0, false, true
		}
	}
	reaching := defs.Reaching(name, call)
	if len(reaching) == 0 {
		return 0, false, false
	}
	last := reaching[len(reaching)-1]
	if last.Partial || last.Kind == DefOther || !last.Stmt.Valid() || !last.Stmt.Parent().Contains(call) {
		return 0, false, false // may be uninitialised or unknown on some path
	}
	var sum, base int64
	for _, d := range reaching {
		v, ok := bufDefLen(p, s, d)
		if !ok {
			return 0, false, false
		}
		if d.Partial {
			sum += v
		} else {
			base = max(base, v)
		}
	}
	return sum + base, true, false
}

// bufDefLen bounds the string length a definition leaves (full
// definitions) or adds (appends).
func bufDefLen(p *checkers.Pass, s *Scope, d Def) (int64, bool) {
	switch d.Kind {
	case DefAssign:
		if d.Node.Kind() == "init_declarator" {
			if d.Value.Kind() == "initializer_list" {
				for c := range d.Value.NamedChildren() {
					if v, ok := bufEval(p, s, c); !ok || v != 0 {
						return 0, false
					}
				}
				return 0, true
			}
			return bufStrBound(p, s, d.Node, d.Value, 0)
		}
		left := Uncast(d.Node.Field("left"))
		if BinaryOp(d.Node) != "=" {
			return 0, false
		}
		if left.Kind() == "subscript_expression" {
			k, kok := bufEval(p, s, bufIndexExpr(left))
			v, vok := bufEval(p, s, d.Value)
			return k, kok && vok && v == 0
		}
		return bufStrBound(p, s, d.Node, d.Value, 0)
	case DefExternal:
		if CalleeName(d.Node) == "fgets" {
			n, ok := bufEval(p, s, Arg(d.Node, 1))
			return n - 1, ok
		}
	case DefCopy:
		return bufCopyLen(p, s, d.Node)
	}
	return 0, false
}

// bufCopyLen bounds what a copy or append call writes as a string.
func bufCopyLen(p *checkers.Pass, s *Scope, call syntax.Node) (int64, bool) {
	name := CalleeName(call)
	switch name {
	case "strcpy", "stpcpy", "wcscpy", "strcat", "wcscat":
		return bufStrBound(p, s, call, Arg(call, 1), 0)
	case "strncpy", "strncat", "strlcpy", "strlcat":
		n, nok := bufEval(p, s, Arg(call, 2))
		if name == "strlcpy" || name == "strlcat" {
			n--
		}
		l, lok := bufStrBound(p, s, call, Arg(call, 1), 0)
		switch {
		case nok && lok:
			return min(n, l), true
		case nok:
			return n, true
		}
		return l, lok
	case "snprintf", "vsnprintf":
		if n, ok := bufEval(p, s, Arg(call, 1)); ok {
			return n - 1, true
		}
		if est, ok := bufPrintfEstimate(p, s, call, 2, 3); ok && est.bounded() {
			return est.Max, true
		}
	case "sprintf":
		if est, ok := bufPrintfEstimate(p, s, call, 1, 2); ok && est.bounded() {
			return est.Max, true
		}
	}
	return 0, false
}

// bufSizedFrom reports whether dst was allocated from strlen(src): a
// definition of dst before the call whose value mentions strlen(src),
// directly or through a variable ("len = strlen(a) + strlen(b) + 1").
func bufSizedFrom(p *checkers.Pass, call, dst, src syntax.Node) bool {
	name := Ident(bufDstBase(dst))
	fn := EnclosingFunction(call)
	if name == "" || !fn.Valid() {
		return false
	}
	needle := strings.Join(strings.Fields(src.Text()), "")
	defs := Defs(p, fn)
	mentions := func(v syntax.Node) bool {
		t := strings.Join(strings.Fields(v.Text()), "")
		return strings.Contains(t, "strlen("+needle+")") || strings.Contains(t, "wcslen("+needle+")") || strings.Contains(t, "_tcslen("+needle+")")
	}
	for _, d := range defs.All(name) {
		if d.Kind != DefAssign || d.Node.Start() > call.Start() || !d.Value.Valid() {
			continue
		}
		if mentions(d.Value) {
			return true
		}
		found := false
		d.Value.Walk(func(n syntax.Node) bool {
			if found || n.Kind() != "identifier" {
				return !found
			}
			for _, vd := range defs.Reaching(n.Text(), n) {
				if vd.Kind == DefAssign && vd.Value.Valid() && mentions(vd.Value) {
					found = true
				}
			}
			return !found
		})
		if found {
			return true
		}
	}
	return false
}

// bufDstBase returns the buffer a destination points into: buf for
// buf + n and &buf[n].
func bufDstBase(dst syntax.Node) syntax.Node {
	for {
		dst = Uncast(dst)
		switch {
		case dst.Kind() == "binary_expression" && BinaryOp(dst) == "+":
			dst = dst.Field("left")
		case dst.Kind() == "pointer_expression" && dst.FirstChild().Text() == "&" && Uncast(dst.Field("argument")).Kind() == "subscript_expression":
			dst = Uncast(dst.Field("argument")).Field("argument")
		default:
			return dst
		}
	}
}

// checkStrncatSize flags strncat(dst, src, n) whose n is the whole size
// of dst (or one less), a constant that large, or the source's length,
// instead of the room left after dst's contents.
func checkStrncatSize(p *checkers.Pass, h checkers.Hit) {
	call, ok := CallAt(h)
	if !ok {
		return
	}
	dst, src, n := Arg(call, 0), Arg(call, 1), Arg(call, 2)
	if !n.Valid() {
		return
	}
	s := FuncScope(p, EnclosingFunction(call))
	room, known := bufRoomOf(p, s, call, dst)
	limit, unit := room.Chars(bufWideCat[h.Word])
	what := "'" + shortText(dst) + "'"
	if known {
		what = room.What
	}
	minus, whole := bufWholeSize(p, s, call, dst, n)
	if !whole && known && unit {
		if v, ok := bufEval(p, s, n); ok && v >= limit-1 {
			whole, minus = true, limit-v
		}
	}
	var msg string
	switch {
	case whole && minus <= 0:
		msg = fmt.Sprintf("%s's bound %s is the whole size of %s, not the room left after its contents: it can write %s characters and a NUL past the existing string",
			h.Word, shortText(n), what, shortText(n))
	case whole:
		if have, ok, loop := bufContentLen(p, s, call, dst); ok && !loop && have == 0 {
			return // appending to an empty buffer: size - 1 is right
		}
		msg = fmt.Sprintf("%s's bound %s ignores what %s already holds: the room left is %s - strlen(%s) - 1",
			h.Word, shortText(n), what, bufSizeText(dst), shortText(dst))
	default:
		c := Uncast(n)
		if c.Kind() != "call_expression" || !bufStrlenCalls[CalleeName(c)] || PathOf(Arg(c, 0)) != PathOf(src) || PathOf(src) == "" {
			return
		}
		if bufSizedFrom(p, call, dst, src) {
			return
		}
		msg = fmt.Sprintf("%s's bound %s is the source's length, which limits nothing: the room left in %s is what must bound it",
			h.Word, shortText(n), what)
	}
	p.Report(checkers.Finding{Rule: ruleStrncatSize, Span: checkers.NodeSpan(call), Message: msg})
}

// bufWholeSize recognises sizeof(dst) and sizeof(dst) - k; minus is k.
func bufWholeSize(p *checkers.Pass, s *Scope, call, dst, n syntax.Node) (minus int64, ok bool) {
	n = Uncast(n)
	path := PathOf(dst)
	if path == "" {
		return 0, false
	}
	if n.Kind() == "binary_expression" && BinaryOp(n) == "-" {
		k, kok := bufEval(p, s, n.Field("right"))
		m, mok := bufWholeSize(p, s, call, dst, n.Field("left"))
		return m + k, kok && mok
	}
	expr, _ := SizeofOperand(n)
	if !expr.Valid() || PathOf(expr) != path {
		return 0, false
	}
	if _, isPtr := bufPointerOperand(p, s, call, expr); isPtr {
		return 0, false
	}
	return 0, true
}

func bufSizeText(dst syntax.Node) string { return "sizeof(" + shortText(dst) + ")" }
