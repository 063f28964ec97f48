package c

import (
	"fmt"

	"github.com/jsec/jsec/checkers"
	"github.com/jsec/jsec/checkers/syntax"
)

// Rules about the size argument of calls that write into a buffer: a
// constant larger than the destination (size-mismatch), sizeof of a
// pointer (sizeof-pointer), a length taken from the source or from input
// with no bound (memcpy-unbounded), and strncpy with the whole buffer
// size (strncpy-nul).

// bufSized describes a call that writes at most Size bytes (or wide
// characters) into argument Dst.
type bufSized struct {
	Dst, Size int
	// Count is fread's element count (the size is Size*Count), -1 if none.
	Count int
	// Src is the source buffer of a copy, -1 if none.
	Src int
	// Wide: the size counts wide characters, not bytes.
	Wide bool
	// Pads: the call always writes Size bytes (memset, memcpy, strncpy),
	// not "at most".
	Pads bool
}

// bufSizedCalls are the calls whose size argument the size rules judge.
var bufSizedCalls = map[string]bufSized{
	"fgets":          {Dst: 0, Size: 1, Count: -1, Src: -1},
	"fgetws":         {Dst: 0, Size: 1, Count: -1, Src: -1, Wide: true},
	"read":           {Dst: 1, Size: 2, Count: -1, Src: -1},
	"pread":          {Dst: 1, Size: 2, Count: -1, Src: -1},
	"recv":           {Dst: 1, Size: 2, Count: -1, Src: -1},
	"recvfrom":       {Dst: 1, Size: 2, Count: -1, Src: -1},
	"readlink":       {Dst: 1, Size: 2, Count: -1, Src: -1},
	"SSL_read":       {Dst: 1, Size: 2, Count: -1, Src: -1},
	"fread":          {Dst: 0, Size: 1, Count: 2, Src: -1},
	"memcpy":         {Dst: 0, Size: 2, Count: -1, Src: 1, Pads: true},
	"memmove":        {Dst: 0, Size: 2, Count: -1, Src: 1, Pads: true},
	"memccpy":        {Dst: 0, Size: 3, Count: -1, Src: 1},
	"memset":         {Dst: 0, Size: 2, Count: -1, Src: -1, Pads: true},
	"bzero":          {Dst: 0, Size: 1, Count: -1, Src: -1, Pads: true},
	"explicit_bzero": {Dst: 0, Size: 1, Count: -1, Src: -1, Pads: true},
	"strncpy":        {Dst: 0, Size: 2, Count: -1, Src: 1, Pads: true},
	"wcsncpy":        {Dst: 0, Size: 2, Count: -1, Src: 1, Pads: true, Wide: true},
	"strlcpy":        {Dst: 0, Size: 2, Count: -1, Src: 1},
	"strlcat":        {Dst: 0, Size: 2, Count: -1, Src: 1},
	"snprintf":       {Dst: 0, Size: 1, Count: -1, Src: -1},
	"vsnprintf":      {Dst: 0, Size: 1, Count: -1, Src: -1},
	"wmemcpy":        {Dst: 0, Size: 2, Count: -1, Src: 1, Pads: true, Wide: true},
	"wmemmove":       {Dst: 0, Size: 2, Count: -1, Src: 1, Pads: true, Wide: true},
	"wmemset":        {Dst: 0, Size: 2, Count: -1, Src: -1, Pads: true, Wide: true},
	"getcwd":         {Dst: 0, Size: 1, Count: -1, Src: -1},
	"gethostname":    {Dst: 0, Size: 1, Count: -1, Src: -1},
	"inet_ntop":      {Dst: 2, Size: 3, Count: -1, Src: -1},
	"strxfrm":        {Dst: 0, Size: 2, Count: -1, Src: -1},
}

// bufCallOf returns the call of a hit and its table row.
func bufCallOf(h checkers.Hit) (syntax.Node, bufSized, []syntax.Node, bool) {
	call, ok := CallAt(h)
	if !ok {
		return syntax.Node{}, bufSized{}, nil, false
	}
	sc, ok := bufSizedCalls[h.Word]
	args := Args(call)
	if !ok || sc.Dst >= len(args) || sc.Size >= len(args) || sc.Count >= len(args) {
		return syntax.Node{}, bufSized{}, nil, false
	}
	return call, sc, args, true
}

// checkSizeMismatch flags a constant or sizeof size larger than the
// destination: fgets(buf, 128, f) into char buf[64].
func checkSizeMismatch(p *checkers.Pass, h checkers.Hit) {
	call, sc, args, ok := bufCallOf(h)
	if !ok {
		return
	}
	if !bufMacroShaped(args[sc.Size]) || sc.Count >= 0 && !bufMacroShaped(args[sc.Count]) {
		return // only sizes Triage keeps: variables are not constants
	}
	s := FuncScope(p, EnclosingFunction(call))
	room, ok := bufRoomOf(p, s, call, args[sc.Dst])
	if !ok {
		return
	}
	n, ok := bufEval(p, s, args[sc.Size])
	if !ok {
		return
	}
	sizeText := shortText(args[sc.Size])
	if sc.Count >= 0 {
		m, ok := bufEval(p, s, args[sc.Count])
		if !ok {
			return
		}
		n *= m
		sizeText = shortText(args[sc.Size]) + " * " + shortText(args[sc.Count])
	}
	limit, unit := room.Bytes()
	units := "bytes"
	if sc.Wide {
		limit, unit = room.Elems, true
		units = "wide characters"
	}
	if !unit || n <= limit {
		return
	}
	adjust := 0.0
	verb := "may write"
	if sc.Pads {
		adjust, verb = 0.1, "writes"
	}
	if sizeText != fmt.Sprint(n) {
		units += " (" + sizeText + ")"
	}
	p.Report(checkers.Finding{Rule: ruleSizeMismatch, Span: checkers.NodeSpan(call), Adjust: adjust,
		Message: fmt.Sprintf("%s %s %d %s into %s", h.Word, verb, n, units, room.What)})
}

// checkSizeofPointer flags memset(p, 0, sizeof(p)) where p is a pointer,
// and p = malloc(sizeof(p)).
func checkSizeofPointer(p *checkers.Pass, h checkers.Hit) {
	if _, ok := bufAllocators[h.Word]; ok {
		checkAllocSizeofPointer(p, h)
		return
	}
	call, sc, args, ok := bufCallOf(h)
	if !ok {
		return
	}
	s := FuncScope(p, EnclosingFunction(call))
	sizes := []int{sc.Size}
	if sc.Count >= 0 {
		sizes = append(sizes, sc.Count)
	}
	for _, si := range sizes {
		expr, _ := SizeofOperand(args[si])
		path := PathOf(expr)
		if path == "" {
			continue
		}
		if path != PathOf(args[sc.Dst]) && (sc.Src < 0 || sc.Src >= len(args) || path != PathOf(args[sc.Src])) {
			continue
		}
		why, ok := bufPointerOperand(p, s, call, expr)
		if !ok {
			continue
		}
		p.Report(checkers.Finding{Rule: ruleSizeofPointer, Span: checkers.NodeSpan(call),
			Message: fmt.Sprintf("%s is given %s: %s", h.Word, shortText(args[si]), why)})
		return
	}
}

// bufPointerOperand reports whether a sizeof operand is a pointer (a
// pointer variable or field, or an array parameter), and says so.
func bufPointerOperand(p *checkers.Pass, s *Scope, at, e syntax.Node) (string, bool) {
	name := shortText(e)
	switch e.Kind() {
	case "identifier":
		v := s.Lookup(e.Text(), e)
		if v == nil {
			return "", false
		}
		if v.Param && v.IsArray() {
			return fmt.Sprintf("'%s' is an array parameter, which is a pointer: sizeof gives the pointer's size, not the array's", name), true
		}
		if !v.IsPointer() || v.Reference {
			return "", false
		}
		msg := fmt.Sprintf("'%s' is a pointer, so this is the pointer's size (8 bytes), not the buffer's", name)
		if r, ok := bufHeapRoom(p, s, at, e); ok {
			if b, ok := r.Bytes(); ok {
				msg += fmt.Sprintf(" (%d bytes allocated)", b)
			}
		}
		return msg, true
	case "field_expression":
		f := bufFieldOf(p, s, e)
		if f == nil || f.Pointer == 0 || len(f.Dims) > 0 {
			return "", false
		}
		return fmt.Sprintf("the field '%s' is a pointer, so this is the pointer's size (8 bytes), not the buffer's", name), true
	}
	return "", false
}

// checkAllocSizeofPointer flags "p = malloc(sizeof(p))": the size of the
// pointer instead of the object (sizeof *p).
func checkAllocSizeofPointer(p *checkers.Pass, h checkers.Hit) {
	call, ok := CallAt(h)
	if !ok {
		return
	}
	target := bufAssignTarget(call)
	if !target.Valid() {
		return
	}
	s := FuncScope(p, EnclosingFunction(call))
	for _, i := range bufAllocators[h.Word] {
		expr, _ := SizeofOperand(Arg(call, i))
		if !expr.Valid() || PathOf(expr) == "" || PathOf(expr) != PathOf(target) {
			continue
		}
		if expr.Kind() == "identifier" {
			v := s.Lookup(expr.Text(), expr)
			if v == nil || !v.IsPointer() || v.Pointer != 1 || v.Type == "void" {
				continue
			}
		} else if f := bufFieldOf(p, s, expr); f == nil || f.Pointer != 1 || len(f.Dims) > 0 || f.Type == "void" {
			continue
		}
		p.Report(checkers.Finding{Rule: ruleSizeofPointer, Span: checkers.NodeSpan(call),
			Message: fmt.Sprintf("%s(%s) allocates the size of the pointer '%s' (8 bytes), not of the object it points to (sizeof *%s)",
				h.Word, shortText(Arg(call, i)), shortText(expr), shortText(expr))})
		return
	}
}

// bufAssignTarget returns the variable a call's result is assigned to:
// x = f(), T *x = f(), x = (T *)f().
func bufAssignTarget(call syntax.Node) syntax.Node {
	n := call
	for n.Parent().Is("parenthesized_expression", "cast_expression") {
		n = n.Parent()
	}
	par := n.Parent()
	switch par.Kind() {
	case "assignment_expression":
		if par.Field("right").Index() == n.Index() && BinaryOp(par) == "=" {
			return Uncast(par.Field("left"))
		}
	case "init_declarator":
		d := par.Field("declarator")
		for d.Kind() == "pointer_declarator" {
			d = d.Field("declarator")
		}
		if d.Kind() == "identifier" {
			return d
		}
	}
	return syntax.Node{}
}

// checkStrncpyNul flags strncpy(dst, src, sizeof dst) when nothing
// terminates dst afterwards.
func checkStrncpyNul(p *checkers.Pass, h checkers.Hit) {
	call, sc, args, ok := bufCallOf(h)
	if !ok {
		return
	}
	dst, src, size := args[sc.Dst], args[sc.Src], args[sc.Size]
	s := FuncScope(p, EnclosingFunction(call))
	room, known := bufRoomOf(p, s, call, dst)
	limit, unit := room.Chars(sc.Wide)
	full := false
	adjust := 0.0
	if expr, _ := SizeofOperand(size); expr.Valid() && PathOf(expr) != "" && PathOf(expr) == PathOf(dst) {
		if _, isPtr := bufPointerOperand(p, s, call, expr); isPtr {
			return // the sizeof-pointer rule's business
		}
		full = true
		if !known {
			adjust = -0.1
		}
	} else if n, ok := bufEval(p, s, size); ok && known && unit && n == limit && bufSimpleSizeNode(size) {
		full = true
	}
	if !full {
		return
	}
	if n, ok := bufStrBound(p, s, call, src, 0); ok && known && unit && n < limit {
		return // the source is shorter: strncpy pads with NULs
	}
	if bufTerminatedAfter(p, s, call, dst) || bufTokTerminatedNext(p.Lex, h.Tok, bufArgSpan(p.Lex, h.Tok, sc.Dst)) {
		return
	}
	what := "'" + shortText(dst) + "'"
	if known {
		what = room.What
	}
	p.Report(checkers.Finding{Rule: ruleStrncpyNul, Span: checkers.NodeSpan(call), Adjust: adjust,
		Message: fmt.Sprintf("%s fills all of %s: a source of %s or more characters leaves it without a terminating NUL, and nothing terminates it afterwards",
			h.Word, what, shortText(size))})
}

// bufArgSpan returns the token span of argument i of the call at tok.
func bufArgSpan(lx *checkers.Lexed, tok, i int) checkers.Span {
	args, ok := bufTokArgs(lx, tok)
	if !ok || i >= len(args) {
		return checkers.Span{}
	}
	return args[i]
}

// bufSimpleSizeNode mirrors bufSimpleSize: a number or a macro name.
func bufSimpleSizeNode(n syntax.Node) bool {
	n = Unparen(n)
	return n.Kind() == "number_literal" || n.Kind() == "identifier" && bufMacroName(n.Text())
}

// bufTerminatedAfter reports whether, after the statement holding call,
// the first statement of the same block that mentions dst writes a NUL
// into it (dst[sizeof dst - 1] = '\0') or tests one of its bytes.
func bufTerminatedAfter(p *checkers.Pass, s *Scope, call, dst syntax.Node) bool {
	path := PathOf(dst)
	if path == "" {
		return false
	}
	stmt := EnclosingStatement(call)
	for st := stmt.NextSibling(); st.Valid(); st = st.NextSibling() {
		if !st.IsNamed() || st.Kind() == "comment" {
			continue
		}
		mentions, terminates := false, false
		st.Walk(func(n syntax.Node) bool {
			if mentions {
				return false
			}
			if n.Kind() == "subscript_expression" && PathOf(n.Field("argument")) == path {
				mentions = true
				par := n.Parent()
				if par.Kind() == "assignment_expression" && par.Field("left").Index() == n.Index() {
					v, ok := bufEval(p, s, par.Field("right"))
					terminates = ok && v == 0
				} else {
					terminates = par.Kind() == "binary_expression" // a test of the last byte
				}
				return false
			}
			if PathOf(n) == path {
				mentions = true
				return false
			}
			return true
		})
		if mentions {
			return terminates
		}
	}
	return false
}

// bufTcharMacros make a narrow or wide literal depending on the build:
// TEXT("x") has the length of "x".
var bufTcharMacros = map[string]bool{"TEXT": true, "_T": true, "_TEXT": true, "__T": true}

// bufUnwrapTchar returns the literal inside TEXT("…"), or e.
func bufUnwrapTchar(e syntax.Node) syntax.Node {
	u := Uncast(e)
	if u.Kind() == "call_expression" && bufTcharMacros[CalleeName(u)] && len(Args(u)) == 1 && IsStringLiteral(Arg(u, 0)) {
		return Arg(u, 0)
	}
	return e
}

// bufStrBound returns an upper bound on the length of the string an
// expression holds: a literal, an array's size minus one, a pointer whose
// every reaching definition is bounded.
func bufStrBound(p *checkers.Pass, s *Scope, at, e syntax.Node, depth int) (int64, bool) {
	e = bufUnwrapTchar(Uncast(e))
	if depth > 4 {
		return 0, false
	}
	if str, ok := StringValue(e); ok {
		return int64(len(str)), true
	}
	switch e.Kind() {
	case "conditional_expression":
		a, ok1 := bufStrBound(p, s, at, e.Field("consequence"), depth+1)
		b, ok2 := bufStrBound(p, s, at, e.Field("alternative"), depth+1)
		return max(a, b), ok1 && ok2
	case "identifier", "field_expression", "subscript_expression":
		if a, ok := bufArrayOf(p, s, e); ok {
			if r, ok := a.room(""); ok && r.ElemSize > 0 && r.ElemSize <= 4 {
				return r.Elems - 1, true
			}
			return 0, false
		}
	}
	if e.Kind() != "identifier" {
		return 0, false
	}
	v := s.Lookup(e.Text(), e)
	fn := EnclosingFunction(at)
	if v == nil || !v.IsPointer() || !fn.Valid() {
		return 0, false
	}
	defs := Defs(p, fn).Reaching(e.Text(), e)
	if len(defs) == 0 {
		return 0, false
	}
	best := int64(0)
	for _, d := range defs {
		if d.Kind != DefAssign || d.Node.Kind() == "assignment_expression" && (BinaryOp(d.Node) != "=" || Uncast(d.Node.Field("left")).Kind() != "identifier") {
			return 0, false
		}
		n, ok := bufStrBound(p, s, d.Node, d.Value, depth+1)
		if !ok {
			return 0, false
		}
		best = max(best, n)
	}
	return best, true
}
