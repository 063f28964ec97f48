package c

import (
	"sort"
	"strconv"
	"strings"

	"github.com/jsec/jsec/checkers"
	"github.com/jsec/jsec/checkers/syntax"
)

// Token-level triage for the buffer family's common triggers (memcpy,
// memset, read, malloc …): each decides from the call's argument tokens
// whether its Check could report, so that most calls are never parsed.

// bufSizedTriggers lists the calls of bufSizedCalls, sorted.
func bufSizedTriggers() []string {
	var out []string
	for name := range bufSizedCalls {
		out = append(out, name)
	}
	sort.Strings(out)
	return out
}

// bufScanfTriggers lists the scanf family, sorted.
func bufScanfTriggers() []string {
	var out []string
	for name := range bufScanfFormat {
		out = append(out, name)
	}
	sort.Strings(out)
	return out
}

// bufTokArgs returns the argument spans of the call at tok.
func bufTokArgs(lx *checkers.Lexed, tok int) ([]checkers.Span, bool) {
	if lx.Is(tok-1, ".") || lx.Is(tok-1, "->") {
		return nil, false // a method or a field named like the API
	}
	if lx.Is(tok-1, "(") && lx.Is(tok+1, ")") {
		return lx.CallArgs(tok + 1) // (sprintf)(buf, ...): a call that bypasses a macro
	}
	return lx.CallArgs(tok)
}

// bufTokText joins the tokens of a span.
func bufTokText(lx *checkers.Lexed, sp checkers.Span) string {
	var b strings.Builder
	for k := sp.Start; k < sp.End; k++ {
		b.WriteString(lx.Text(k))
	}
	return b.String()
}

// bufUncastSpan drops a leading C cast "(T *)" from a span.
func bufUncastSpan(lx *checkers.Lexed, sp checkers.Span) checkers.Span {
	if sp.End-sp.Start > 1 && lx.Is(sp.Start, "(") {
		if c := lx.Close(sp.Start); c > 0 && c+1 < sp.End {
			return checkers.Span{Start: c + 1, End: sp.End}
		}
	}
	return sp
}

// bufSizeofOperand returns the operand text of a span that is exactly
// "sizeof X" or "sizeof(X)", "" otherwise.
func bufSizeofOperand(lx *checkers.Lexed, sp checkers.Span) string {
	if sp.End-sp.Start < 2 || !lx.Is(sp.Start, "sizeof") {
		return ""
	}
	if lx.Is(sp.Start+1, "(") {
		if c := lx.Close(sp.Start + 1); c == sp.End-1 {
			return bufTokText(lx, checkers.Span{Start: sp.Start + 2, End: c})
		}
		return ""
	}
	for k := sp.Start + 1; k < sp.End; k++ {
		if lx.Kind(k) != checkers.TokIdent && !lx.Is(k, ".") && !lx.Is(k, "->") {
			return ""
		}
	}
	return bufTokText(lx, checkers.Span{Start: sp.Start + 1, End: sp.End})
}

// bufConstShaped reports whether a span may be a constant expression
// that Check can evaluate: numbers, macro-named identifiers, sizeof, casts
// and arithmetic; no calls, no variables, no assignments.
func bufConstShaped(lx *checkers.Lexed, sp checkers.Span) bool {
	if sp.End <= sp.Start {
		return false
	}
	for k := sp.Start; k < sp.End; k++ {
		switch lx.Kind(k) {
		case checkers.TokIdent:
			switch {
			case lx.Is(k, "sizeof"):
				if lx.Is(k+1, "*") || lx.Is(k+1, "(") && (lx.Is(k+2, "*") || lx.Is(k+2, "struct") || lx.Is(k+2, "union") || lx.Is(k+2, "enum")) {
					return false // sizeof *p and sizeof(struct T): Check cannot evaluate them
				}
				if lx.Is(k+1, "(") {
					if c := lx.Close(k + 1); c > 0 {
						k = c
					}
					continue
				}
				for k+1 < sp.End && (lx.Kind(k+1) == checkers.TokIdent || lx.Is(k+1, ".") || lx.Is(k+1, "->")) {
					k++
				}
			case lx.Is(k+1, ")") && lx.Is(k-1, "("), lx.Is(k+1, "*") && lx.Is(k+2, ")"):
				// a cast: (size_t)n, (char *)
			case !bufMacroName(lx.Text(k)):
				return false
			}
		case checkers.TokString, checkers.TokChar:
			return false
		case checkers.TokPunct:
			if t := lx.Text(k); strings.HasSuffix(t, "=") && t != "==" || t == "++" || t == "--" || t == "?" {
				return false
			}
		}
	}
	return true
}

// bufMacroShaped is bufConstShaped on the syntax tree: identifiers outside
// sizeof and casts are spelled like macros.
func bufMacroShaped(n syntax.Node) bool {
	ok := true
	n.Walk(func(m syntax.Node) bool {
		switch m.Kind() {
		case "sizeof_expression", "type_descriptor":
			return false
		case "identifier":
			if !bufMacroName(m.Text()) {
				ok = false
			}
		case "call_expression", "string_literal", "char_literal":
			ok = false
		}
		return ok
	})
	return ok
}

// bufTriageSizeMismatch keeps calls into a destination that may have a
// known size, whose size may be a constant and is not just sizeof the
// destination itself.
func bufTriageSizeMismatch(lx *checkers.Lexed, tok int) bool {
	args, ok := bufTokArgs(lx, tok)
	sc, known := bufSizedCalls[lx.Text(tok)]
	if !ok || !known || sc.Dst >= len(args) || sc.Size >= len(args) || sc.Count >= len(args) {
		return false
	}
	if !bufConstShaped(lx, args[sc.Size]) || sc.Count >= 0 && !bufConstShaped(lx, args[sc.Count]) {
		return false
	}
	if sc.Count >= 0 {
		room, ok := bufTokRoom(lx, tok, bufTokText(lx, args[sc.Dst]), false)
		n, nok := bufTokValue(lx, tok, args[sc.Size])
		m, mok := bufTokValue(lx, tok, args[sc.Count])
		if ok && nok && mok && n*m <= room {
			return false // fread(buf, 1, sizeof buf, f) into a local array
		}
	}
	if sc.Count < 0 {
		op := bufSizeofOperand(lx, args[sc.Size])
		dst := bufTokText(lx, bufUncastSpan(lx, args[sc.Dst]))
		// sizeof counts bytes: a wide call counts characters (Check
		// reports wcsncpy(w, s, sizeof(w))).
		if !sc.Wide && op != "" && (op == dst || "&"+op == dst) {
			return false // sizeof the destination: the sizes agree
		}
		if !sc.Wide && bufSizeofMinus(lx, args[sc.Size], dst) {
			return false // f(buf + k, sizeof(buf) - k)
		}
		if decl := bufLocalSizeText(lx, tok, dst); decl != "" && decl == bufTokText(lx, args[sc.Size]) {
			return false // char buf[N] … f(buf, N): the sizes agree
		}
		if room, ok := bufTokRoom(lx, tok, dst, sc.Wide); ok {
			if n, ok := bufTokValue(lx, tok, args[sc.Size]); ok && n <= room {
				return false // the size fits the local array
			}
		}
	}
	return bufRoomCandidate(lx, tok, args[sc.Dst])
}

// bufSizeofMinus reports a size "sizeof(X) - N" (N a number) for the
// destination X, &X, X + M or &X[M] with M <= N: never more than the
// room.
func bufSizeofMinus(lx *checkers.Lexed, size checkers.Span, dst string) bool {
	s := size.Start
	if !lx.Is(s, "sizeof") {
		return false
	}
	e := s + 2 // sizeof x
	if lx.Is(s+1, "(") {
		e = lx.Close(s+1) + 1
	}
	if e <= s+1 || e+2 != size.End || !lx.Is(e, "-") || lx.Kind(e+1) != checkers.TokNumber {
		return false
	}
	op := bufSizeofOperand(lx, checkers.Span{Start: s, End: e})
	n, err := strconv.ParseUint(lx.Text(e+1), 0, 32)
	if op == "" || err != nil {
		return false
	}
	if dst == op || dst == "&"+op {
		return true
	}
	for m := uint64(0); m <= n && m <= 64; m++ {
		if dst == op+"+"+strconv.FormatUint(m, 10) || dst == "&"+op+"["+strconv.FormatUint(m, 10)+"]" {
			return true
		}
	}
	return false
}

// bufTriageVariableSize keeps copies into a destination that may have a
// known size, whose length is not a number or a plain sizeof.
func bufTriageVariableSize(lx *checkers.Lexed, tok int) bool {
	args, ok := bufTokArgs(lx, tok)
	if !ok || len(args) < 3 {
		return false
	}
	size := args[2]
	if size.End-size.Start == 1 && lx.Kind(size.Start) == checkers.TokNumber || bufSizeofOperand(lx, size) != "" {
		return false
	}
	if size.End-size.Start == 1 && bufUnchangedParam(lx, tok, lx.Text(size.Start)) {
		return false // the caller's length: Trace says parameter, not input
	}
	return bufRoomCandidate(lx, tok, args[0]) && bufTokLenSuspect(lx, tok, size)
}

// bufTokLenSuspect over-approximates, from tokens, what Check's
// bufLenCause can prove: the length mentions strlen(), or one of its
// names may carry program input within the function (Trace's reach:
// assignments, address-taken variables, buffers filled or copied into).
func bufTokLenSuspect(lx *checkers.Lexed, tok int, size checkers.Span) bool {
	if !bufInputInItem(lx, tok) {
		return false
	}
	idx := lx.ItemOf(tok)
	seen := map[string]bool{}
	var suspect func(from, to, depth int) bool
	suspect = func(from, to, depth int) bool {
		for k := from; k < to; k++ {
			if lx.Kind(k) != checkers.TokIdent || lx.Is(k-1, ".") || lx.Is(k-1, "->") {
				continue
			}
			w := lx.Text(k)
			if bufStrlenCalls[w] || bufNumberCalls[w] || externalReturns[w] || w == "argv" || w == "optarg" {
				return true
			}
			if _, fills := externalFills[w]; fills || lx.Is(k+1, "(") || seen[w] || depth > 12 {
				continue
			}
			seen[w] = true
			if bufTokNameSuspect(lx, idx, w, func(a, b int) bool { return suspect(a, b, depth+1) }) {
				return true
			}
		}
		return false
	}
	return suspect(size.Start, size.End, 0)
}

// bufTokNameSuspect reports whether a name's value in item idx may come
// from input: its address is taken, it is an argument of a call that
// fills or copies into buffers, or a value assigned to it is suspect.
// In an item of guardIndexMin bytes or more it looks at the name's
// mentions and the fill and copy calls' arguments from bufItemMentions,
// found once per item, instead of scanning the item twice per name.
func bufTokNameSuspect(lx *checkers.Lexed, idx int, name string, rhs func(from, to int) bool) bool {
	it := lx.Items[idx]
	if it.End-it.Start >= guardIndexMin {
		f := bufItemMentions(lx, idx)
		for _, k := range f.at[name] {
			if bufMentionSuspect(lx, it, int(k), rhs) {
				return true
			}
		}
		return f.filled[name]
	}
	for k := it.TokStart; k < it.TokEnd; k++ {
		if !lx.Is(k, name) || lx.Is(k-1, ".") || lx.Is(k-1, "->") {
			continue
		}
		if bufMentionSuspect(lx, it, k, rhs) {
			return true
		}
	}
	// An argument of a call that fills it with input or copies into it.
	for k := it.TokStart; k < it.TokEnd; k++ {
		if args, ok := bufFillArgs(lx, k); ok {
			for _, a := range args {
				if bufTokText(lx, a) == name {
					return true
				}
			}
		}
	}
	return false
}

// bufMentionSuspect reports whether the mention of a name at token k may
// give it input: &name, or an assignment whose right-hand side is suspect.
func bufMentionSuspect(lx *checkers.Lexed, it checkers.Item, k int, rhs func(from, to int) bool) bool {
	if lx.Is(k-1, "&") {
		return true
	}
	if lx.Is(k+1, "=") || bufAssignOps[lx.Text(k+1)] {
		end := k + 2
		for depth := 0; end < it.TokEnd; end++ {
			if lx.Is(end, "(") || lx.Is(end, "[") || lx.Is(end, "{") {
				depth++
			} else if lx.Is(end, ")") || lx.Is(end, "]") || lx.Is(end, "}") {
				depth--
			}
			if depth < 0 || depth == 0 && (lx.Is(end, ";") || lx.Is(end, ",")) {
				break
			}
		}
		if rhs(k+2, end) {
			return true
		}
	}
	return false
}

// bufFillArgs returns the arguments of the call at token k when its callee
// fills buffers with input or copies into them.
func bufFillArgs(lx *checkers.Lexed, k int) ([]checkers.Span, bool) {
	w := lx.Text(k)
	_, fills := externalFills[w]
	_, copies := copyFills[w]
	if (!fills && !copies) || !lx.Is(k+1, "(") {
		return nil, false
	}
	return lx.CallArgs(k)
}

// bufMentionIndex is what bufTokNameSuspect asks of a large item: where each
// identifier is mentioned (not as a member after . or ->), in token order,
// and the texts of the fill and copy calls' arguments.
type bufMentionIndex struct {
	at     map[string][]int32
	filled map[string]bool
}

var bufMentionsSlot = checkers.NewMemoSlot()

// bufItemMentions returns item idx's bufMentionIndex, found once per item.
func bufItemMentions(lx *checkers.Lexed, idx int) *bufMentionIndex {
	return checkers.ItemMemo(lx, bufMentionsSlot, idx, func() *bufMentionIndex {
		it := lx.Items[idx]
		f := &bufMentionIndex{at: map[string][]int32{}, filled: map[string]bool{}}
		for k := it.TokStart; k < it.TokEnd; k++ {
			if lx.Kind(k) == checkers.TokIdent && !lx.Is(k-1, ".") && !lx.Is(k-1, "->") {
				w := lx.Text(k)
				f.at[w] = append(f.at[w], int32(k))
			}
			if args, ok := bufFillArgs(lx, k); ok {
				for _, a := range args {
					f.filled[bufTokText(lx, a)] = true
				}
			}
		}
		return f
	})
}

// bufUnchangedParam reports whether name is a parameter of the function
// around tok that its body never assigns, increments or takes the address
// of.
func bufUnchangedParam(lx *checkers.Lexed, tok int, name string) bool {
	it := lx.ItemOf(tok)
	if it < 0 {
		return false
	}
	body := bufFunctionBodyStart(lx, lx.Items[it])
	if body < 0 {
		return false
	}
	param := false
	for k := lx.Items[it].TokStart; k < body; k++ {
		if lx.Is(k, name) && (lx.Is(k+1, ",") || lx.Is(k+1, ")")) {
			param = true
		}
	}
	if !param {
		return false
	}
	for k := body; k < lx.Items[it].TokEnd; k++ {
		if !lx.Is(k, name) {
			continue
		}
		if bufAssignOps[lx.Text(k+1)] || lx.Is(k+1, "++") || lx.Is(k+1, "--") || lx.Is(k-1, "++") || lx.Is(k-1, "--") || lx.Is(k-1, "&") || bufDeclPrev(lx, k-1) {
			return false
		}
	}
	return true
}

// bufInputInItem reports whether the function around tok mentions what
// Check needs to call a length unbounded: a strlen() call, a call that
// Trace knows returns or fills in program input (getenv, read, recv,
// fgets …), optarg, or it is main (argv).
func bufInputInItem(lx *checkers.Lexed, tok int) bool {
	it := lx.ItemOf(tok)
	if it < 0 {
		return false
	}
	from, to := lx.Items[it].TokStart, lx.Items[it].TokEnd
	for k := from; k < to; k++ {
		if lx.Is(k, "(") {
			if name := lx.Text(k - 1); k > from && (name == "main" || name == "wmain") {
				return true
			}
			break
		}
	}
	for k := from; k < to; k++ {
		if lx.Kind(k) != checkers.TokIdent || lx.Is(k-1, ".") || lx.Is(k-1, "->") {
			continue
		}
		w := lx.Text(k)
		if w == "optarg" {
			return true
		}
		if !lx.Is(k+1, "(") {
			continue
		}
		if _, fills := externalFills[w]; fills || externalReturns[w] || bufStrlenCalls[w] {
			return true
		}
	}
	return false
}

// bufSimpleSize reports whether a span is one number or macro token, or
// "sizeof X" — the sizes strncpy-nul compares with the destination.
func bufSimpleSize(lx *checkers.Lexed, sp checkers.Span) bool {
	if sp.End-sp.Start == 1 {
		k := lx.Kind(sp.Start)
		return k == checkers.TokNumber || k == checkers.TokIdent && bufMacroName(lx.Text(sp.Start))
	}
	return bufSizeofOperand(lx, sp) != ""
}

// bufTriageSprintf keeps sprintf calls whose output may be unbounded, or
// may not fit: it drops a literal format made only of conversions whose
// length Check computes the same way (no %s, %f, '*') written into a local
// array that holds that length, or into a destination whose size cannot
// be known.
func bufTriageSprintf(lx *checkers.Lexed, tok int) bool {
	args, ok := bufTokArgs(lx, tok)
	if !ok || len(args) < 2 {
		return ok
	}
	fa := args[1]
	if lx.Kind(fa.Start) != checkers.TokString {
		return true
	}
	var text strings.Builder
	for k := fa.Start; k < fa.End; k++ {
		if lx.Kind(k) != checkers.TokString {
			return true // a macro in the format
		}
		t := lx.Text(k)
		if i := strings.IndexByte(t, '"'); i >= 0 && len(t) >= i+2 {
			text.WriteString(t[i+1 : len(t)-1])
		}
	}
	specs, literal, ok := parsePrintf(text.String())
	if !ok {
		return true
	}
	bound := int64(literal)
	for _, sp := range specs {
		n, ok := bufNumLen(sp, int64(sp.Prec))
		if !ok || sp.Width == -2 || sp.Prec == -2 {
			return true
		}
		bound += max(n, int64(sp.Width))
	}
	if !bufRoomCandidate(lx, tok, args[0]) {
		return false // bounded output into a destination of unknown size: Check is silent
	}
	room, ok := bufTokRoom(lx, tok, bufTokText(lx, args[0]), false)
	return !ok || bound+1 > room
}

// bufTriageStrcpy keeps strcpy calls unless the source is one string
// literal and the destination is not a name declared as an array: Check
// judges a literal only against an array's size.
func bufTriageStrcpy(lx *checkers.Lexed, tok int) bool {
	args, ok := bufTokArgs(lx, tok)
	if !ok || len(args) != 2 {
		return ok
	}
	src := args[1]
	if src.End-src.Start != 1 || lx.Kind(src.Start) != checkers.TokString {
		return true
	}
	dst := args[0]
	return dst.End-dst.Start == 1 && bufRoomCandidate(lx, tok, dst)
}

// bufTriageSimpleSize keeps strncpy calls whose size is sizeof the
// destination, or a constant into a destination that may have a known
// size.
func bufTriageSimpleSize(lx *checkers.Lexed, tok int) bool {
	args, ok := bufTokArgs(lx, tok)
	if !ok || len(args) != 3 || !bufSimpleSize(lx, args[2]) {
		return false
	}
	if bufTokTerminatedNext(lx, tok, args[0]) {
		return false
	}
	if op := bufSizeofOperand(lx, args[2]); op != "" {
		return op == bufTokText(lx, bufUncastSpan(lx, args[0]))
	}
	if room, ok := bufTokRoom(lx, tok, bufTokText(lx, args[0]), lx.Is(tok, "wcsncpy")); ok {
		if n, ok := bufTokValue(lx, tok, args[2]); ok && n != room {
			return false // strncpy-nul judges only a size equal to the array's
		}
	}
	return bufRoomCandidate(lx, tok, args[0])
}

// bufTokTerminatedNext reports whether the statement right after the call
// at tok is "dst[…] = 0;" or "dst[…] = '\0';".
func bufTokTerminatedNext(lx *checkers.Lexed, tok int, dst checkers.Span) bool {
	c := lx.Close(tok + 1)
	if c < 0 || !lx.Is(c+1, ";") {
		return false
	}
	name := bufTokText(lx, dst)
	k := c + 2
	var b strings.Builder
	for ; k < len(lx.Tokens) && !lx.Is(k, "[") && k < c+12; k++ {
		b.WriteString(lx.Text(k))
	}
	if b.String() != name || !lx.Is(k, "[") {
		return false
	}
	e := lx.Close(k)
	if e < 0 || !lx.Is(e+1, "=") || !lx.Is(e+3, ";") {
		return false
	}
	v := lx.Text(e + 2)
	return v == "0" || v == `'\0'`
}

// bufRoomCandidate reports whether a destination may have a size jsec can
// know: its name is declared as an array at file scope or in a struct,
// or as a local array of the current function, or it is assigned an
// allocation of constant size in the current function.
func bufRoomCandidate(lx *checkers.Lexed, tok int, dst checkers.Span) bool {
	name := bufDstName(lx, dst)
	if name == "" || !bufOffsetConst(lx, bufUncastSpan(lx, dst)) {
		return false
	}
	names := bufFileNames(lx)
	if names.globals[name] || names.members[name] && (names.cpp || bufIsField(lx, dst, name)) {
		return true
	}
	it := lx.ItemOf(tok)
	if it < 0 {
		return false
	}
	body := lx.Items[it].TokStart
	for body < tok && !lx.Is(body, "{") {
		body++
	}
	for k := body; k < tok; k++ {
		if !lx.Is(k, name) {
			continue
		}
		if lx.Is(k+1, "[") && bufDeclPrev(lx, k-1) {
			return true
		}
		if lx.Is(k+1, "=") {
			m := k + 2
			if lx.Is(m, "(") { // a cast
				if c := lx.Close(m); c > 0 {
					m = c + 1
				}
			}
			if idx, alloc := bufAllocators[lx.Text(m)]; alloc {
				args, ok := lx.CallArgs(m)
				good := ok
				for _, i := range idx {
					if good = good && i < len(args); good {
						_, good = bufTokValue(lx, tok, args[i])
					}
				}
				if good {
					return true
				}
			}
			if lx.Is(m, "new") {
				return true
			}
		}
	}
	return false
}

// bufLocalSizeText returns the size text of "T name[SIZE]" declared in
// the function before tok, "" when there is none (or several).
func bufLocalSizeText(lx *checkers.Lexed, tok int, name string) string {
	it := lx.ItemOf(tok)
	if it < 0 || name == "" {
		return ""
	}
	found := ""
	for k := lx.Items[it].TokStart; k < tok; k++ {
		if lx.Is(k, name) && lx.Is(k+1, "[") && bufDeclPrev(lx, k-1) {
			c := lx.Close(k + 1)
			if c < 0 || found != "" {
				return ""
			}
			found = bufTokText(lx, checkers.Span{Start: k + 2, End: c})
			if lx.Is(c+1, "[") {
				return "" // a multi-dimensional array
			}
		}
	}
	return found
}

// bufTokLocalArray finds the declarations "T name[SIZE]" of the function
// around tok and evaluates them: the element count and the element size
// (0 when the type is not a basic one). ok is false when there is none,
// or several that disagree.
func bufTokLocalArray(lx *checkers.Lexed, tok int, name string) (n, elem int64, ok bool) {
	it := lx.ItemOf(tok)
	if it < 0 || name == "" {
		return 0, 0, false
	}
	body := bufFunctionBodyStart(lx, lx.Items[it])
	if body < 0 || bufFileNames(lx).globals[name] {
		return 0, 0, false // a file-scope array of the same name may be the one in scope
	}
	found := false
	decl := func(k int) bool {
		if !bufDeclPrev(lx, k-1) || !bufOutsideParens(lx, body, k) {
			return true
		}
		dn, de, dok := bufTokDecl(lx, body, k)
		if !dok || found && (dn != n || de != elem) {
			return false
		}
		n, elem, found = dn, de, true
		return true
	}
	if item := lx.Items[it]; item.End-item.Start >= guardIndexMin && bufIdentName(name) {
		// In a large item, only the tokens "name [" from the item's index.
		for _, k := range bufItemSubscripts(lx, it, body)[name] {
			if int(k) >= tok {
				break
			}
			if !decl(int(k)) {
				return 0, 0, false
			}
		}
		return n, elem, found
	}
	for k := body; k < tok; k++ {
		if lx.Is(k, name) && lx.Is(k+1, "[") && !decl(k) {
			return 0, 0, false
		}
	}
	return n, elem, found
}

var bufSubscriptsSlot = checkers.NewMemoSlot()

// bufIdentName reports whether s can be the text of an identifier token.
func bufIdentName(s string) bool {
	for i := 0; i < len(s); i++ {
		if !IdentByte(s[i]) {
			return false
		}
	}
	return s != "" && !(s[0] >= '0' && s[0] <= '9')
}

// bufItemSubscripts returns where each name is followed by "[" in item it
// from token body on, in token order; found once per item.
func bufItemSubscripts(lx *checkers.Lexed, it, body int) map[string][]int32 {
	return checkers.ItemMemo(lx, bufSubscriptsSlot, it, func() map[string][]int32 {
		out := map[string][]int32{}
		for k := body; k < lx.Items[it].TokEnd; k++ {
			if lx.Is(k+1, "[") && lx.Kind(k) == checkers.TokIdent {
				out[lx.Text(k)] = append(out[lx.Text(k)], int32(k))
			}
		}
		return out
	})
}

// bufOutsideParens reports whether token k is not inside parentheses of
// its statement: "f(a, b[i])" is a call, not a declaration.
func bufOutsideParens(lx *checkers.Lexed, body, k int) bool {
	depth := 0
	for j := k - 1; j > body; j-- {
		switch {
		case lx.Is(j, ";") || lx.Is(j, "{") || lx.Is(j, "}"):
			return depth == 0
		case lx.Is(j, ")"):
			depth--
		case lx.Is(j, "("):
			depth++
			if depth > 0 {
				return false
			}
		}
	}
	return depth == 0
}

// bufTokDecl evaluates the array declarator whose name is token k.
func bufTokDecl(lx *checkers.Lexed, body, k int) (n, elem int64, ok bool) {
	c := lx.Close(k + 1)
	if c < 0 || lx.Is(c+1, "[") {
		return 0, 0, false
	}
	n, ok = evalConst(bufTokText(lx, checkers.Span{Start: k + 2, End: c}), bufFileMacros(lx).macros)
	if !ok || n <= 0 {
		return 0, 0, false
	}
	if lx.Is(k-1, "*") {
		return n, 8, true
	}
	// The type: the words that start the declaration ("unsigned char a[4], b[8]").
	start := k - 1
	for start > body && !lx.Is(start-1, ";") && !lx.Is(start-1, "{") && !lx.Is(start-1, "}") {
		start--
	}
	var words []string
	for j := start; j < k && lx.Kind(j) == checkers.TokIdent && !lx.Is(j+1, "[") && !lx.Is(j+1, ",") && !lx.Is(j+1, "="); j++ {
		words = append(words, lx.Text(j))
	}
	elem, _ = basicTypeSize(strings.Join(typeWords(words), " "))
	return n, elem, true
}

// bufLocalArrayOnly reports whether the function around tok declares name
// as an array and nowhere as a pointer: sizeof name is the array's size.
func bufLocalArrayOnly(lx *checkers.Lexed, tok int, name string) bool {
	if _, _, ok := bufTokLocalArray(lx, tok, name); !ok {
		return false
	}
	it := lx.Items[lx.ItemOf(tok)]
	for k := it.TokStart; k < it.TokEnd; k++ {
		if lx.Is(k, name) && (lx.Is(k-1, "*") || bufQualifier[lx.Text(k-1)]) {
			return false
		}
	}
	return true
}

// bufTokRoom is a local array's room in bytes (wide: in elements).
func bufTokRoom(lx *checkers.Lexed, tok int, name string, wide bool) (int64, bool) {
	n, elem, ok := bufTokLocalArray(lx, tok, name)
	if !ok || elem == 0 {
		return 0, false
	}
	if wide {
		return n, true
	}
	return n * elem, true
}

// bufTokValue evaluates a size from its tokens: numbers, macros and
// arithmetic, or sizeof of a local array of a basic type.
func bufTokValue(lx *checkers.Lexed, tok int, sp checkers.Span) (int64, bool) {
	if op := bufSizeofOperand(lx, sp); op != "" {
		return bufTokRoom(lx, tok, op, false)
	}
	for k := sp.Start; k < sp.End; k++ {
		if lx.Kind(k) != checkers.TokNumber && lx.Kind(k) != checkers.TokIdent && lx.Kind(k) != checkers.TokPunct || lx.Is(k, "sizeof") {
			return 0, false
		}
	}
	return evalConst(bufTokText(lx, sp), bufFileMacros(lx).macros)
}

// bufDeclPrev reports whether the token before a name may end the type of
// a declaration: a type name, '*' or ','.
func bufDeclPrev(lx *checkers.Lexed, prev int) bool {
	return lx.Kind(prev) == checkers.TokIdent && !bufNotDeclPrev[lx.Text(prev)] || lx.Is(prev, "*") || lx.Is(prev, ",")
}

// bufOffsetConst reports whether the offset of a destination is one that
// Check can evaluate: &buf[K] and buf + K with K constant-shaped (Check
// knows no room at an offset it cannot compute).
func bufOffsetConst(lx *checkers.Lexed, sp checkers.Span) bool {
	depth := 0
	for k := sp.Start; k < sp.End; k++ {
		switch {
		case lx.Is(k, "(") || lx.Is(k, "["):
			if lx.Is(k, "[") && depth == 0 && lx.Is(sp.Start, "&") {
				c := lx.Close(k)
				if c < 0 || !bufConstShaped(lx, checkers.Span{Start: k + 1, End: c}) {
					return false
				}
			}
			depth++
		case lx.Is(k, ")") || lx.Is(k, "]"):
			depth--
		case depth == 0 && lx.Is(k, "+"):
			return bufConstShaped(lx, checkers.Span{Start: k + 1, End: sp.End})
		}
	}
	return true
}

// bufDstName returns the name whose declaration gives a destination its
// size: "buf" for buf, buf + 4, &buf[4], (char *)buf; "name" for
// s->name; "tab" for tab[i]. "" when there is none.
func bufDstName(lx *checkers.Lexed, sp checkers.Span) string {
	sp = bufUncastSpan(lx, sp)
	k := sp.Start
	if lx.Is(k, "&") {
		k++
	}
	name := ""
	for ; k < sp.End; k++ {
		switch {
		case lx.Kind(k) == checkers.TokIdent:
			name = lx.Text(k)
		case lx.Is(k, ".") || lx.Is(k, "->") || lx.Is(k, "(") || lx.Is(k, ")") || lx.Is(k, "*"):
		default:
			return name
		}
	}
	return name
}

// bufNames is what a token scan of a file knows for triage: the names
// declared as arrays at file scope or in structs, the names declared as
// pointers anywhere (array parameters included), and the integer macros.
type bufNames struct {
	globals, members, pointers map[string]bool
	macros                     map[string]int64
	// cpp: the file has "::" or "class"; a bare name may be a member.
	cpp bool
	// errH, errorH: the file includes <err.h>, <error.h>.
	errH, errorH bool
	// named: globals, members and pointers are filled in (bufFileNames).
	named bool
}

// errHeader reports whether the file includes the header that declares
// the format function name of the err family.
func (x *bufNames) errHeader(name string) bool {
	if name == "error" || name == "error_at_line" {
		return x.errorH
	}
	return x.errH
}

// bufIsField reports whether name is reached through "." or "->" in a
// destination span.
func bufIsField(lx *checkers.Lexed, sp checkers.Span, name string) bool {
	for k := sp.Start + 1; k < sp.End; k++ {
		if lx.Is(k, name) && (lx.Is(k-1, ".") || lx.Is(k-1, "->")) {
			return true
		}
	}
	return false
}

var bufNamesSlot = checkers.NewMemoSlot()

// bufNotDeclPrev are keywords that precede an expression, not a
// declarator: "return buf[0]" declares nothing.
var bufNotDeclPrev = map[string]bool{
	"return": true, "case": true, "sizeof": true, "else": true, "do": true, "goto": true, "typeof": true,
	"__typeof__": true, "decltype": true, "delete": true, "throw": true, "co_return": true,
}

// bufInBraces reports whether token k of a non-function item lies inside
// braces: a struct member rather than a file-scope variable.
func bufInBraces(lx *checkers.Lexed, it checkers.Item, k int) bool {
	depth := 0
	for j := it.TokStart; j < k; j++ {
		switch {
		case lx.Is(j, "{"):
			depth++
		case lx.Is(j, "}"):
			depth--
		}
	}
	return depth > 0
}

// bufFunctionBodyStart returns the token of a function item's body "{",
// -1 for other items.
func bufFunctionBodyStart(lx *checkers.Lexed, it checkers.Item) int {
	for k := it.TokStart; k < it.TokEnd; k++ {
		if lx.Is(k, "{") {
			if lx.Is(k-1, ")") || lx.Is(k-1, "const") || lx.Is(k-1, "noexcept") || lx.Is(k-1, "override") {
				return k
			}
			return -1
		}
	}
	return -1
}

// bufNameFollow marks the one-byte tokens after which bufScanNames
// records the name before them.
var bufNameFollow = [256]bool{'[': true, ',': true, ';': true, '=': true, ')': true}

// bufQualifier are the qualifiers that may sit between "*" and a name.
var bufQualifier = map[string]bool{"const": true, "restrict": true, "__restrict": true, "__restrict__": true, "volatile": true}

// bufFileMacros returns what the file's directives and keywords say
// (integer macros, <err.h>, C++), computed once per file: triage sees only
// tokens, and a scan per call would cost too much.
func bufFileMacros(lx *checkers.Lexed) *bufNames {
	return checkers.Memoize(lx, bufNamesSlot, func() *bufNames { return bufScanDirectives(lx) })
}

// bufFileNames is bufFileMacros with the file's array and pointer names
// too, which take a pass over every declaration: computed on first need.
func bufFileNames(lx *checkers.Lexed) *bufNames {
	x := bufFileMacros(lx)
	if !x.named {
		bufScanNames(lx, x)
		x.named = true
	}
	return x
}

func bufScanDirectives(lx *checkers.Lexed) *bufNames {
	facts := fileLexFacts(lx)
	x := &bufNames{macros: map[string]int64{}, cpp: facts.cppMarker}
	for _, i := range facts.directives {
		t := lx.Tokens[i]
		if name, v, ok := defineInt(lx.Src[t.Start:t.End], x.macros); ok {
			x.macros[name] = v
		}
		if d, rest := directiveName(lx.Src[t.Start:t.End]); d == "include" {
			x.errH = x.errH || string(rest) == "<err.h>"
			x.errorH = x.errorH || string(rest) == "<error.h>"
		}
	}
	return x
}

func bufScanNames(lx *checkers.Lexed, x *bufNames) {
	x.globals, x.members, x.pointers = map[string]bool{}, map[string]bool{}, map[string]bool{}
	toks := lx.Tokens
	for _, it := range lx.Items {
		fn := bufFunctionBodyStart(lx, it)
		// A name counts only before one of the bytes of bufNameFollow:
		// the pass looks at each token's first byte until one is, and
		// then at the name before it.
		for j := max(it.TokStart, 1) + 1; j < it.TokEnd; j++ {
			t := &toks[j]
			if !bufNameFollow[t.One] || toks[j-1].Kind != checkers.TokIdent {
				continue
			}
			k, prev := j-1, j-2
			switch next := t.First; {
			case next == '[' && bufDeclPrev(lx, prev):
				if c := lx.Close(k + 1); c > 0 && (lx.Is(c+1, ")") || lx.Is(c+1, ",") && fn >= 0 && k < fn) {
					x.pointers[lx.Text(k)] = true // an array parameter
				} else if fn < 0 && bufInBraces(lx, it, k) {
					x.members[lx.Text(k)] = true
				} else if fn < 0 {
					x.globals[lx.Text(k)] = true
				}
			case (next == ',' || next == ';' || next == '=' || next == ')') && (lx.Is(prev, "*") || lx.Is(prev-1, "*") && bufQualifier[lx.Text(prev)]):
				x.pointers[lx.Text(k)] = true
			}
		}
	}
}

// bufScanfConvRE finds the conversions scanf-width judges;
// bufScanfBareRE those without a width.
var (
	bufScanfConvRE  = checkers.LazyRegexp(`%[0-9]*[hlLjzt]*[sSc\[]`)
	bufScanfBareRE  = checkers.LazyRegexp(`%[hlLjzt]*[sS\[]`)
	bufScanfWidthRE = checkers.LazyRegexp(`%([0-9]+)[hlLjzt]*[sSc\[]`)
)

// bufTriageScanf keeps scanf calls whose literal format has a %s or %[
// without a width, or a width and an argument that may be an array of
// known size.
func bufTriageScanf(lx *checkers.Lexed, tok int) bool {
	args, ok := bufTokArgs(lx, tok)
	fi, known := bufScanfFormat[lx.Text(tok)]
	if !ok || !known || fi >= len(args) {
		return false
	}
	sp := args[fi]
	widths := false
	for k := sp.Start; k < sp.End; k++ {
		if lx.Kind(k) != checkers.TokString {
			continue
		}
		text := lx.Text(k)
		if strings.IndexByte(text, '%') < 0 {
			continue // no conversion: none of the expressions can match
		}
		text = strings.ReplaceAll(text, "%%", "")
		if bufScanfBareRE().MatchString(text) {
			return true
		}
		widths = widths || bufScanfConvRE().MatchString(text)
	}
	if !widths {
		return false
	}
	// Widths only: Check reports one that does not fit its array. Drop the
	// call when every array argument is a local whose size exceeds the
	// largest width.
	widest := int64(0)
	for k := sp.Start; k < sp.End; k++ {
		if lx.Kind(k) == checkers.TokString {
			for _, m := range bufScanfWidthRE().FindAllStringSubmatch(lx.Text(k), -1) {
				widest = max(widest, int64(atoiSmall(m[1])))
			}
		}
	}
	macros := bufFileMacros(lx).macros
	for _, a := range args[fi+1:] {
		if !bufRoomCandidate(lx, tok, a) {
			continue
		}
		text := bufLocalSizeText(lx, tok, bufTokText(lx, a))
		if n, ok := evalConst(text, macros); !ok || n <= widest {
			return true
		}
	}
	return false
}

// bufTriageSizeofPointer keeps calls whose size is sizeof of their own
// destination or source argument (memset(p, 0, sizeof(p))), and
// allocations assigned to the operand of their sizeof (p = malloc(sizeof(p))).
func bufTriageSizeofPointer(lx *checkers.Lexed, tok int) bool {
	args, ok := bufTokArgs(lx, tok)
	if !ok {
		return false
	}
	name := lx.Text(tok)
	if idx, alloc := bufAllocators[name]; alloc {
		for _, i := range idx {
			if i >= len(args) {
				continue
			}
			op := bufSizeofOperand(lx, args[i])
			if op != "" && op[0] != '*' && bufAssignedTo(lx, tok, op) && bufFileNames(lx).pointers[bufDstName(lx, args[i])] {
				return true
			}
		}
		return false
	}
	sc, known := bufSizedCalls[name]
	if !known {
		return false
	}
	for _, si := range []int{sc.Size, sc.Count} {
		if si < 0 || si >= len(args) {
			continue
		}
		op := bufSizeofOperand(lx, args[si])
		if op == "" {
			continue
		}
		for _, bi := range []int{sc.Dst, sc.Src} {
			if bi < 0 || bi >= len(args) || bufTokText(lx, bufUncastSpan(lx, args[bi])) != op {
				continue
			}
			name := bufDstName(lx, args[bi])
			if bufFileNames(lx).pointers[name] && !bufLocalArrayOnly(lx, tok, name) {
				return true
			}
		}
	}
	return false
}

// bufAssignedTo reports whether the call at tok is assigned to text:
// "text = [cast] f(" within a few tokens before it.
func bufAssignedTo(lx *checkers.Lexed, tok int, text string) bool {
	for eq := tok - 1; eq >= 0 && eq >= tok-10; eq-- {
		if !lx.Is(eq, "=") {
			continue
		}
		var b []string
		for k := eq - 1; k >= 0 && k >= eq-8; k-- {
			b = append([]string{lx.Text(k)}, b...)
			if strings.Join(b, "") == text {
				return true
			}
		}
		return false
	}
	return false
}
