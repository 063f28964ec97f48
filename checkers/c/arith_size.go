package c

import (
	"fmt"
	"iter"
	"slices"
	"strings"

	"github.com/jsec/jsec/checkers"
	"github.com/jsec/jsec/checkers/syntax"
)

// Signed sizes: an int, long or ssize_t that may be negative, passed
// where a size_t is expected, becomes a huge size.

// arithSizeArgs maps size-taking calls to their size arguments.
var arithSizeArgs = map[string][]int{
	"memcpy": {2}, "memmove": {2}, "memset": {2}, "memcmp": {2}, "memchr": {2}, "strncpy": {2},
	"strncat": {2}, "strndup": {1}, "malloc": {0}, "calloc": {0, 1}, "realloc": {1}, "alloca": {0},
	"read": {2}, "recv": {2}, "pread": {2}, "write": {2}, "send": {2}, "fread": {1, 2}, "fwrite": {1, 2},
	"bcopy": {2}, "bzero": {1}, "xmalloc": {0}, "g_malloc": {0}, "memdup": {1}, "strnlen": {1},
}

// arithSignedWords are type words of signed integers (plain char, whose
// signedness varies, is left out).
var arithSignedWords = map[string]bool{
	"int": true, "long": true, "short": true, "signed": true, "ssize_t": true, "off_t": true, "off64_t": true,
	"int8_t": true, "int16_t": true, "int32_t": true, "int64_t": true, "intptr_t": true, "ptrdiff_t": true,
	"intmax_t": true, "SSIZE_T": true, "INT": true, "LONG": true, "INT32": true, "INT64": true, "LONG_PTR": true,
	"gint": true, "gint32": true, "gint64": true, "glong": true, "gssize": true, "curl_off_t": true,
}

// arithSizeTriggers are the size-taking calls.
func arithSizeTriggers() []string {
	out := make([]string, 0, len(arithSizeArgs))
	for k := range arithSizeArgs {
		out = append(out, k)
	}
	return out
}

// arithSignedType reports whether a declared type is a signed integer.
func arithSignedType(t string) bool {
	signed := false
	for _, w := range strings.Fields(t) {
		switch {
		case w == "unsigned" || w == "size_t":
			return false
		case arithSignedWords[w]:
			signed = true
		}
	}
	return signed
}

// triageSignedSize keeps a call only when an identifier in one of its
// size arguments is declared with a signed type earlier in the same item
// (a parameter or a local): Check looks at nothing else.
func triageSignedSize(lx *checkers.Lexed, tok int) bool {
	args, ok := lx.CallArgs(tok)
	it := lx.ItemOf(tok)
	if !ok || it < 0 {
		return false
	}
	from := lx.Items[it].TokStart
	for _, i := range arithSizeArgs[lx.Text(tok)] {
		if i >= len(args) {
			continue
		}
		for j := args[i].Start; j < args[i].End; j++ {
			if lx.Is(j, "sizeof") {
				if lx.Is(j+1, "(") {
					if c := lx.Close(j + 1); c > j {
						j = c
					}
				} else {
					j++
				}
				continue
			}
			if lx.Kind(j) != checkers.TokIdent || lx.Is(j-1, ".") || lx.Is(j-1, "->") || lx.Is(j+1, "(") {
				continue
			}
			if name := lx.Text(j); arithDeclaredSigned(lx, from, tok, name) && arithMayBeNegTokens(lx, from, tok, name, 0) {
				return true
			}
		}
	}
	return false
}

// arithDeclaredSigned looks for a declaration of name among tokens
// [from, to) whose type is signed: "int n", "ssize_t got", or a comma
// list "int a, n" (checked from the statement's first word).
func arithDeclaredSigned(lx *checkers.Lexed, from, to int, name string) bool {
	for k := range arithMentions(lx, from, to, name) {
		prev := k - 1
		for prev > from && lx.Is(prev, "const") {
			prev--
		}
		w := lx.Text(prev)
		switch {
		case arithSignedWords[w]:
			if !lx.Is(prev-1, "unsigned") && !lx.Is(prev-2, "unsigned") {
				return true
			}
		case w == ",":
			if arithListSigned(lx, from, prev) {
				return true
			}
		}
	}
	return false
}

// arithIndexMin is the span (tokens) from which arithMentions looks a
// name up in an index of the item's identifiers instead of comparing
// every token with it. The scans run from the item's start for each
// operand of each size argument, and again for each name on the right of
// an assignment to it: fine for functions of ordinary size, but a 1.2 MB
// function with 20,000 calls took 13 s. (A variable for the test that
// holds the two ways to the same answers.)
var arithIndexMin = 4096

var arithNamesSlot = checkers.NewMemoSlot()

// arithMentions yields, in order, the tokens in (from, to) whose text is
// name, an identifier; from is the first token of an item.
func arithMentions(lx *checkers.Lexed, from, to int, name string) iter.Seq[int] {
	return arithMentionsIn(lx, from, to, name, arithNames)
}

// arithWrites is arithMentions that, where it uses an index, yields only
// the mentions arithMayBeNegTokens can act on at that depth
// (arithWriteNames): of a name passed to every one of 20,000 calls and
// never assigned, each call looked at all the mentions before it.
func arithWrites(lx *checkers.Lexed, from, to int, name string, depth int) iter.Seq[int] {
	index := func(lx *checkers.Lexed, it int) map[string][]int32 { return arithWriteNames(lx, it)[min(depth, 1)] }
	return arithMentionsIn(lx, from, to, name, index)
}

// arithMentionsIn is arithMentions with the index to use.
func arithMentionsIn(lx *checkers.Lexed, from, to int, name string, index func(*checkers.Lexed, int) map[string][]int32) iter.Seq[int] {
	return func(yield func(int) bool) {
		it := lx.ItemOf(from)
		if to-from < arithIndexMin || it < 0 || lx.Items[it].TokStart != from || to > lx.Items[it].TokEnd {
			for k := from + 1; k < to; k++ {
				if lx.Is(k, name) && !yield(k) {
					return
				}
			}
			return
		}
		ks := index(lx, it)[name]
		i, _ := slices.BinarySearch(ks, int32(from+1))
		for ; i < len(ks) && int(ks[i]) < to; i++ {
			if !yield(int(ks[i])) {
				return
			}
		}
	}
}

// arithNames indexes the identifiers of item it by their text, found
// once per item.
func arithNames(lx *checkers.Lexed, it int) map[string][]int32 {
	return checkers.ItemMemo(lx, arithNamesSlot, it, func() map[string][]int32 {
		out := map[string][]int32{}
		for k := lx.Items[it].TokStart; k < lx.Items[it].TokEnd; k++ {
			if lx.Kind(k) == checkers.TokIdent {
				out[lx.Text(k)] = append(out[lx.Text(k)], int32(k))
			}
		}
		return out
	})
}

var arithWritesSlot = checkers.NewMemoSlot()

// arithWriteNames indexes the identifiers of item it that
// arithMayBeNegTokens acts on, by their text, found once per item: not a
// member (after . or ->), and at depth 0 assigned (n = …) or
// address-taken (&n); deeper, also an argument ((n or , n).
func arithWriteNames(lx *checkers.Lexed, it int) [2]map[string][]int32 {
	return checkers.ItemMemo(lx, arithWritesSlot, it, func() [2]map[string][]int32 {
		out := [2]map[string][]int32{{}, {}}
		for k := lx.Items[it].TokStart; k < lx.Items[it].TokEnd; k++ {
			if lx.Kind(k) != checkers.TokIdent || lx.Is(k-1, ".") || lx.Is(k-1, "->") {
				continue
			}
			w := lx.Text(k)
			if lx.Is(k+1, "=") || lx.Is(k-1, "&") {
				out[0][w] = append(out[0][w], int32(k))
			}
			if lx.Is(k+1, "=") || lx.Is(k-1, "&") || lx.Is(k-1, "(") || lx.Is(k-1, ",") {
				out[1][w] = append(out[1][w], int32(k))
			}
		}
		return out
	})
}

// arithListSigned walks back from the comma at i to the start of its
// statement and reports whether that starts with a signed type.
func arithListSigned(lx *checkers.Lexed, from, i int) bool {
	depth := 0
	for j := i - 1; j >= from; j-- {
		switch lx.Text(j) {
		case ")", "]", "}":
			depth++
		case "[":
			depth--
		case "(", "{", ";":
			if depth > 0 && lx.Text(j) != ";" {
				depth--
				continue
			}
			words := 0
			for k := j + 1; k < i && lx.Kind(k) == checkers.TokIdent && words < 4; k++ {
				if lx.Is(k, "unsigned") {
					return false
				}
				if arithSignedWords[lx.Text(k)] {
					return true
				}
				words++
			}
			return false
		}
	}
	return false
}

// arithMayBeNegTokens is the token-level shadow of arithTracer.negative:
// it reports whether some assignment to name in [from, to) could make it
// negative (a negated value, a call that returns -1, a conversion, input,
// or another variable that could), or whether an input call fills it
// (scanf("%d", &n), read(fd, &n, …)). It errs on the side of true.
func arithMayBeNegTokens(lx *checkers.Lexed, from, to int, name string, depth int) bool {
	for k := range arithWrites(lx, from, to, name, depth) {
		if lx.Is(k-1, ".") || lx.Is(k-1, "->") {
			continue
		}
		switch {
		case lx.Is(k+1, "=") && arithNegRHS(lx, from, to, k+2, depth):
			return true
		case lx.Is(k-1, "&") || depth > 0 && (lx.Is(k-1, "(") || lx.Is(k-1, ",")):
			callee := arithCallee(lx, from, k)
			_, fills := externalFills[callee]
			_, copies := copyFills[callee]
			if fills || copies || callee == "sscanf" {
				return true // filled with input: scanf("%d", &n), fgets(buf, …)
			}
		}
	}
	return false
}

// arithCallee returns the name of the call whose argument list holds
// token k, or "".
func arithCallee(lx *checkers.Lexed, from, k int) string {
	depth := 0
	for j := k - 1; j > from; j-- {
		switch lx.Text(j) {
		case ")", "]", "}":
			depth++
		case "[", "{":
			depth--
		case "(":
			if depth == 0 {
				if lx.Kind(j-1) == checkers.TokIdent {
					return lx.Text(j - 1)
				}
				return ""
			}
			depth--
		case ";":
			return ""
		}
	}
	return ""
}

// arithNegRHS scans an assignment's right-hand side from token i.
func arithNegRHS(lx *checkers.Lexed, from, to, i int, depth int) bool {
	for j := i; j < to; j++ {
		switch {
		case lx.Is(j, ";") || lx.Is(j, ",") || lx.Is(j, ")") || lx.Is(j, "}"):
			return false
		case lx.Is(j, "-") && j == i:
			return true // n = -1
		case lx.Kind(j) == checkers.TokIdent && lx.Is(j+1, "("):
			w := lx.Text(j)
			if arithNegReturns[w] || arithConverters[w] || arithByteOrder[w] {
				return true
			}
			if c := lx.Close(j + 1); c > j {
				j = c
			}
		case lx.Kind(j) == checkers.TokIdent && depth < 3:
			if lx.Text(j) == "argv" || lx.Text(j) == "optarg" || arithMayBeNegTokens(lx, from, to, lx.Text(j), depth+1) {
				return true
			}
		}
	}
	return false
}

// checkSignedSize reports signed variables in a size argument that may be
// negative and are not tested for it first.
func checkSignedSize(p *checkers.Pass, h checkers.Hit) {
	call, ok := CallAt(h)
	fn := EnclosingFunction(call)
	if !ok || !fn.Valid() {
		return
	}
	scope := FuncScope(p, fn)
	t := newArithTracer(p, fn)
	for _, i := range arithSizeArgs[h.Word] {
		arg := Arg(call, i)
		for _, id := range arithSizeOperands(arg) {
			v := scope.Lookup(id.Text(), id)
			if v == nil || v.Global || v.Pointer > 0 || v.IsArray() || !arithSignedType(v.Type) {
				continue
			}
			reason, external := t.negative(id, 0)
			if reason == "" || arithGuarded(p, fn, id, id.Text(), guardNegative) {
				continue
			}
			if e := Uncast(arg); e.Kind() == "binary_expression" && arithGuarded(p, fn, id, arithExprKey(e), guardNegative) {
				continue // the whole size was tested: if (end - start > 0)
			}
			f := checkers.Finding{Rule: ruleSignedSize, Span: checkers.NodeSpan(arg),
				Message: fmt.Sprintf("%s() takes '%s' as a size, but '%s' is a signed %s that may be negative: %s, and it is not checked for < 0", h.Word, shortText(arg), id.Text(), v.Type, reason)}
			if external {
				f.Adjust = 0.1
			}
			p.Report(f)
			return
		}
	}
}

// arithSizeOperands returns the identifiers whose value makes up a size
// expression: n in n, n + 1, n * sizeof(T), (size_t)n; not the operands
// of sizeof, of calls (strlen(s)) or of subscripts.
func arithSizeOperands(e syntax.Node) []syntax.Node {
	e = Uncast(e)
	switch e.Kind() {
	case "identifier":
		return []syntax.Node{e}
	case "binary_expression":
		switch BinaryOp(e) {
		case "+", "-", "*":
			return append(arithSizeOperands(e.Field("left")), arithSizeOperands(e.Field("right"))...)
		}
	case "conditional_expression":
		return append(arithSizeOperands(e.Field("consequence")), arithSizeOperands(e.Field("alternative"))...)
	}
	return nil
}
