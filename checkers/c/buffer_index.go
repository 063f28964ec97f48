package c

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/jsec/jsec/checkers"
	"github.com/jsec/jsec/checkers/syntax"
)

// c.buffer.off-by-one: writes one past the end of an array.
//
// Two triggers. "sizeof" catches x[sizeof x] = … for any x. The element
// types of local arrays (char, int, uint8_t …) catch the declaration of a
// local array; the function is parsed only when its tokens hold a write to
// that array with a suspicious index: a constant (number, macro, sizeof),
// a loop variable tested with <= (or with < against a constant), or a
// length returned by read(), recv() … into that same array. Check verifies
// exactly those candidates on the syntax tree, so Triage never drops what
// Check would report.

// bufElemTypes are the element types of the local arrays off-by-one
// watches: the declaration is the trigger.
var bufElemTypes = []string{
	"char", "wchar_t", "TCHAR", "WCHAR", "u_char", "uint8_t", "int8_t", "BYTE", "int", "unsigned",
	"long", "short", "uint16_t", "uint32_t", "uint64_t", "int16_t", "int32_t", "int64_t", "size_t",
	"float", "double",
}

// bufReadCalls return how many bytes they stored into argument Dst.
var bufReadCalls = map[string]bool{
	"read": true, "pread": true, "recv": true, "recvfrom": true, "readlink": true, "fread": true, "SSL_read": true,
}

// bufAssignOps are the operators that write their left operand.
var bufAssignOps = map[string]bool{
	"=": true, "+=": true, "-=": true, "*=": true, "/=": true, "%=": true, "|=": true, "&=": true, "^=": true, "<<=": true, ">>=": true,
}

// bufIdxCand is a write to a local array that may go past its end.
type bufIdxCand struct {
	decl  int // token of the array's name in its declaration
	write int // token of the array's name in the write
}

// bufTriageIndex is the Triage of the element-type triggers.
func bufTriageIndex(lx *checkers.Lexed, tok int) bool { return len(bufIdxCandidates(lx, tok)) > 0 }

// bufIdxCandidates finds, from the tokens alone, the local arrays declared
// at tok and the writes to them with a suspicious index.
func bufIdxCandidates(lx *checkers.Lexed, tok int) []bufIdxCand {
	it := lx.ItemOf(tok)
	if it < 0 {
		return nil
	}
	if prev := tok - 1; lx.Is(prev, "(") || lx.Is(prev, ",") || lx.Is(prev, "<") || lx.Is(prev, "sizeof") {
		return nil // a cast, a parameter, a template argument
	}
	if !bufMayDeclareArray(lx, tok, lx.Items[it].TokEnd) {
		return nil
	}
	return bufIdxWalk(lx, tok, it)
}

// bufIdxWalk is bufIdxCandidates past its first checks: the declarator
// walk and the search for writes.
func bufIdxWalk(lx *checkers.Lexed, tok, it int) []bufIdxCand {
	end := lx.Items[it].TokEnd
	type arr struct {
		name int
		size int64  // the declared size when the tokens show it, -1 otherwise
		text string // the size's text
	}
	var arrs []arr
	j := tok + 1
	for ; j < end && !lx.Is(j, ";"); j++ {
		if j-tok > 64 {
			return nil
		}
		switch {
		case lx.Is(j, "("), lx.Is(j, "{"), lx.Is(j, ")"):
			return nil
		case lx.Is(j, "="):
			// Skip the initializer.
			for j+1 < end && !lx.Is(j+1, ",") && !lx.Is(j+1, ";") {
				if c := lx.Close(j + 1); c > 0 {
					j = c
				} else {
					j++
				}
			}
		case lx.Kind(j) == checkers.TokIdent && lx.Is(j+1, "["):
			c := lx.Close(j + 1)
			if c < 0 {
				return nil
			}
			text := bufTokText(lx, checkers.Span{Start: j + 2, End: c})
			var macros map[string]int64 // the file's #defines, gathered only for a name
			for k := j + 2; k < c && macros == nil; k++ {
				if lx.Kind(k) == checkers.TokIdent {
					macros = bufFileMacros(lx).macros
				}
			}
			size, ok := evalConst(text, macros)
			if !ok || size <= 0 {
				if text != "" {
					j = c
					continue // a size the file does not define: Check cannot know it either
				}
				size = -1 // sized by its initializer
			}
			arrs = append(arrs, arr{j, size, text})
			j = c
		}
	}
	if len(arrs) == 0 || !bufInFunctionBody(lx, lx.Items[it], tok) {
		return nil
	}
	var out []bufIdxCand
	for _, a := range arrs {
		name := lx.Text(a.name)
		for k := j; k < end; k++ {
			if lx.Kind(k) != checkers.TokIdent || !lx.Is(k+1, "[") || !lx.Is(k, name) || lx.Is(k-1, ".") || lx.Is(k-1, "->") {
				continue
			}
			c := lx.Close(k + 1)
			if c < 0 || !(bufAssignOps[lx.Text(c+1)] || lx.Is(c+1, "++") || lx.Is(c+1, "--") || lx.Is(k-1, "++") || lx.Is(k-1, "--")) {
				continue
			}
			if bufDeclPrev(lx, k-1) {
				continue // another declaration of the name
			}
			if bufSuspectIndex(lx, k+2, c, a.size, a.text, j, end, k) {
				out = append(out, bufIdxCand{decl: a.name, write: k})
			}
		}
	}
	return out
}

// bufMayDeclareArray reports whether the declarator walk of
// bufIdxCandidates from the type word tok may find an array: a "[" comes
// before the first ";", "(", "{" or ")" (where the walk stops or gives
// up) and within its reach of 65 tokens, or an "=" does, whose
// initializer the walk skips. Most type words start no array: this
// rules them out with one byte compare per token, before the walk's
// string compares.
func bufMayDeclareArray(lx *checkers.Lexed, tok, end int) bool {
	for j := tok + 1; j < end && j <= tok+65; j++ {
		switch lx.Byte(j) {
		case '[', '=':
			return true
		case ';', '(', '{', ')':
			return false
		}
	}
	return false
}

// bufInFunctionBody reports whether tok lies in the body of a function
// item.
func bufInFunctionBody(lx *checkers.Lexed, it checkers.Item, tok int) bool {
	b := bufFunctionBodyStart(lx, it)
	return b >= 0 && b < tok
}

// bufSuspectIndex judges the index tokens [from, to) of a write to an
// array of size elements (-1: unknown) declared as [text]: a constant at
// least the size (a number, a macro, the size's own name, sizeof of an
// operand), or a variable that a loop tests with <= (or with < against a
// constant above the size), or that holds what a read call returned.
func bufSuspectIndex(lx *checkers.Lexed, from, to int, size int64, text string, bodyFrom, bodyTo, write int) bool {
	if lx.Is(from, "sizeof") {
		return bufSizeofOperand(lx, checkers.Span{Start: from, End: to}) != ""
	}
	if to != from+1 {
		return false
	}
	macros := bufFileMacros(lx).macros
	atLeast := func(k int) bool { // token k's value may reach the size
		v, ok := evalConst(lx.Text(k), macros)
		return !ok || size < 0 || v >= size
	}
	switch lx.Kind(from) {
	case checkers.TokNumber:
		return atLeast(from)
	case checkers.TokIdent:
	default:
		return false
	}
	idx := lx.Text(from)
	if idx == text || bufMacroName(idx) {
		return idx == text || atLeast(from)
	}
	for k := bodyFrom; k < bodyTo; k++ {
		if lx.Text(k) != idx {
			continue
		}
		switch {
		case (lx.Is(k+1, "<=") || lx.Is(k+1, "<")) && !bufInLoopOver(lx, k, write):
			// A test in a loop that does not hold the write.
		case lx.Is(k+1, "<="):
			return true
		case lx.Is(k+1, "<"):
			if n := k + 2; lx.Kind(n) == checkers.TokNumber || lx.Kind(n) == checkers.TokIdent && bufMacroName(lx.Text(n)) && lx.Text(n) != text {
				if v, ok := evalConst(lx.Text(n), macros); !ok || size < 0 || v > size {
					return true
				}
			}
		case lx.Is(k+1, "="):
			for m := k + 2; m < k+8 && m < bodyTo; m++ {
				if lx.Kind(m) == checkers.TokIdent && bufReadCalls[lx.Text(m)] && lx.Is(m+1, "(") {
					return true
				}
			}
		}
	}
	return false
}

// bufInLoopOver reports whether token k lies in the header of a for loop
// whose body holds token write.
func bufInLoopOver(lx *checkers.Lexed, k, write int) bool {
	open := k
	for open > 0 && !lx.Is(open, ";") && !lx.Is(open, "{") && !lx.Is(open, "}") {
		if lx.Is(open, "(") && lx.Is(open-1, "for") {
			break
		}
		open--
	}
	if !lx.Is(open, "(") || !lx.Is(open-1, "for") {
		// The test may be in the loop's condition after the first ';'.
		for open > 0 && k-open < 64 && !(lx.Is(open, "(") && lx.Is(open-1, "for")) {
			open--
		}
		if !lx.Is(open, "(") || !lx.Is(open-1, "for") {
			return false
		}
	}
	c := lx.Close(open)
	if c < 0 || k > c || write < c {
		return false
	}
	if lx.Is(c+1, "{") {
		return write < lx.Close(c+1)
	}
	for e := c + 1; e < len(lx.Tokens); e++ {
		if lx.Is(e, ";") {
			return write < e
		}
		if lx.Is(e, "(") || lx.Is(e, "[") || lx.Is(e, "{") {
			if cl := lx.Close(e); cl > 0 {
				e = cl
			}
		}
	}
	return false
}

// bufMacroName reports whether a name is spelled like a macro: no
// lower-case letters.
func bufMacroName(s string) bool {
	return strings.ToUpper(s) == s && strings.ContainsAny(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZ")
}

// checkIndexDecl verifies the candidates of an array declaration.
func checkIndexDecl(p *checkers.Pass, h checkers.Hit) {
	for _, c := range bufIdxCandidates(p.Lex, h.Tok) {
		id := p.Tree.NodeAt(int(p.Lex.Tokens[c.write].Start))
		sub := id.Parent()
		if id.Kind() != "identifier" || sub.Kind() != "subscript_expression" || sub.Field("argument").Index() != id.Index() || !bufIsWrite(sub) {
			continue
		}
		fn := EnclosingFunction(sub)
		s := FuncScope(p, fn)
		v := s.Lookup(id.Text(), id)
		if v == nil || !v.Decl.Valid() || v.Decl.Start() != int(p.Lex.Tokens[c.decl].Start) {
			continue
		}
		a := bufVarArray(p, s, v)
		if a == nil || a.Dims[0] <= 0 {
			continue
		}
		bufCheckWrite(p, s, sub, a.Dims[0])
	}
}

// bufIsWrite reports whether a subscript expression is written: assigned
// to, or incremented.
func bufIsWrite(sub syntax.Node) bool {
	par := sub.Parent()
	switch par.Kind() {
	case "assignment_expression":
		return par.Field("left").Index() == sub.Index()
	case "update_expression":
		return true
	}
	return false
}

// bufCheckWrite judges one write a[idx] to an array of n elements.
func bufCheckWrite(p *checkers.Pass, s *Scope, sub syntax.Node, n int64) {
	name := sub.Field("argument").Text()
	idx := Uncast(bufIndexExpr(sub))
	report := func(adjust float64, format string, args ...any) {
		p.Report(checkers.Finding{Rule: ruleOffByOne, Span: checkers.NodeSpan(sub), Adjust: adjust, Message: fmt.Sprintf(format, args...)})
	}
	if v, ok := bufEval(p, s, idx); ok {
		if v >= n {
			report(0.1, "writes %s, %s the end of '%s' (%d elements)", shortText(sub), bufPast(v, n), name, n)
		}
		return
	}
	if idx.Kind() != "identifier" {
		return
	}
	if bound, op, ok := bufLoopBound(p, s, sub, idx.Text()); ok {
		last := bound
		if op == "<" {
			last--
		}
		if last >= n {
			report(0, "the loop runs '%s' up to %d (%s %s), but '%s' has %d elements: %s writes %s its end",
				idx.Text(), last, op, bufBoundText(bound), name, n, shortText(sub), bufPast(last, n))
		}
		return
	}
	if call, ok := bufReadIndex(p, s, sub, idx, n); ok {
		report(0, "%s returns up to the whole size of '%s' (%d), so %s can write one past its end",
			CalleeName(call)+"()", name, n, shortText(sub))
	}
}

func bufPast(v, n int64) string {
	if v == n {
		return "one past"
	}
	return fmt.Sprintf("%d past", v-n+1)
}

func bufBoundText(v int64) string { return strconv.FormatInt(v, 10) }

// bufLoopBound finds the for loop around a write that steps variable i
// upwards and tests it with i <= X or i < X (X constant).
func bufLoopBound(p *checkers.Pass, s *Scope, at syntax.Node, i string) (int64, string, bool) {
	for l := at.Ancestor("for_statement"); l.Valid(); l = l.Ancestor("for_statement") {
		cond := Unparen(l.Field("condition"))
		upd := l.Field("update")
		if !strings.Contains(upd.Text(), i) || !strings.Contains(upd.Text(), "++") && !strings.Contains(upd.Text(), "+=") {
			continue
		}
		var found bool
		var bound int64
		var op string
		cond.Walk(func(n syntax.Node) bool {
			if found || n.Kind() != "binary_expression" {
				return !found
			}
			o := BinaryOp(n)
			if (o == "<=" || o == "<") && Ident(n.Field("left")) == i {
				if v, ok := bufEval(p, s, n.Field("right")); ok {
					found, bound, op = true, v, o
				}
			}
			return !found
		})
		if found {
			return bound, op, true
		}
	}
	return 0, "", false
}

// bufReadIndex reports whether the index of a write holds what a read
// call returned after reading up to the array's full size into it, with
// no comparison bounding the index in between.
func bufReadIndex(p *checkers.Pass, s *Scope, sub, idx syntax.Node, n int64) (syntax.Node, bool) {
	fn := EnclosingFunction(sub)
	arr := PathOf(sub.Field("argument"))
	for _, d := range Defs(p, fn).Reaching(idx.Text(), idx) {
		if d.Kind != DefAssign {
			continue
		}
		call := Uncast(d.Value)
		sc, isRead := bufSizedCalls[CalleeName(call)]
		if call.Kind() != "call_expression" || !isRead || !bufReadCalls[CalleeName(call)] || PathOf(Arg(call, sc.Dst)) != arr {
			continue
		}
		size, ok := bufEval(p, s, Arg(call, sc.Size))
		if sc.Count >= 0 {
			m, mok := bufEval(p, s, Arg(call, sc.Count))
			size, ok = size*m, ok && mok
		}
		room, rok := bufRoomOf(p, s, call, Arg(call, sc.Dst))
		bytes, bok := room.Bytes()
		if !ok || !rok || !bok || size < bytes || room.ElemSize != 1 || bufGuardedBy(p, sub, []string{idx.Text()}) {
			continue
		}
		return call, true
	}
	return syntax.Node{}, false
}

// bufTriageSizeofIndex keeps "[ sizeof X ] =" and "[ sizeof(X) ] =".
func bufTriageSizeofIndex(lx *checkers.Lexed, tok int) bool {
	if !lx.Is(tok-1, "[") {
		return false
	}
	end := lx.Close(tok - 1)
	if end < 0 || bufSizeofOperand(lx, checkers.Span{Start: tok, End: end}) == "" {
		return false
	}
	return bufAssignOps[lx.Text(end+1)] || lx.Is(end+1, "++") || lx.Is(end+1, "--") || lx.Is(tok-3, "++") || lx.Is(tok-3, "--")
}

// checkSizeofIndex flags x[sizeof x] = … (and x[sizeof(x)]).
func checkSizeofIndex(p *checkers.Pass, h checkers.Hit) {
	se := h.Node.Parent()
	if se.Kind() != "sizeof_expression" {
		return
	}
	sub := se.Parent()
	if sub.Kind() == "subscript_argument_list" {
		sub = sub.Parent()
	}
	if sub.Kind() != "subscript_expression" || Uncast(bufIndexExpr(sub)).Index() != se.Index() || !bufIsWrite(sub) {
		return
	}
	if par := sub.Parent(); par.Kind() == "update_expression" && par.FirstChild().Index() != sub.Index() {
		return // ++x[sizeof x]: only the postfix and assignment forms (Triage's shape)
	}
	expr, _ := SizeofOperand(se)
	arr := sub.Field("argument")
	if PathOf(expr) == "" || PathOf(expr) != PathOf(arr) {
		return
	}
	s := FuncScope(p, EnclosingFunction(sub))
	if _, isPtr := bufPointerOperand(p, s, sub, expr); isPtr {
		return
	}
	what := fmt.Sprintf("'%s'", shortText(arr))
	if a, ok := bufArrayOf(p, s, arr); ok && a.Dims[0] > 0 {
		what = fmt.Sprintf("'%s' (%d elements)", shortText(arr), a.Dims[0])
	}
	p.Report(checkers.Finding{Rule: ruleOffByOne, Span: checkers.NodeSpan(sub), Adjust: 0.1,
		Message: fmt.Sprintf("writes %s: index sizeof is one past the end of %s; the last element is %s[sizeof %s - 1]",
			shortText(sub), what, shortText(arr), shortText(arr))})
}
