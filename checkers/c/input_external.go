package c

import (
	"fmt"
	"strings"

	"github.com/jsec/jsec/checkers"
	"github.com/jsec/jsec/checkers/syntax"
)

// inExternalTriggers are where numbers come in from outside: a function
// holding one is searched for indexes, loop bounds and allocation sizes
// that come from program input.
var inExternalTriggers = []string{
	"atoi", "atol", "atoll", "strtol", "strtoul", "strtoll", "strtoull", "strtoimax", "strtoumax",
	"ntohs", "ntohl", "be16toh", "be32toh", "be64toh", "le16toh", "le32toh", "le64toh",
	"scanf", "fscanf", "sscanf", "recv", "recvfrom", "read", "fread", "fgets", "getenv", "argv", "optarg",
}

// inConversions pass program input through: atoi(argv[1]) is as external as
// argv[1], ntohl(hdr.len) as hdr.
var inConversions = map[string]bool{
	"atoi": true, "atol": true, "atoll": true, "strtol": true, "strtoul": true, "strtoll": true,
	"strtoull": true, "strtoimax": true, "strtoumax": true, "ntohs": true, "ntohl": true,
	"be16toh": true, "be32toh": true, "be64toh": true, "le16toh": true, "le32toh": true, "le64toh": true,
	"htons": true, "htonl": true, "_byteswap_ulong": true, "__builtin_bswap32": true,
}

// inFilledArgs maps the input calls that fill arguments to the first
// filled one (scanf: every pointer after the format).
var inFilledArgs = map[string]int{
	"read": 1, "recv": 1, "recvfrom": 1, "fread": 0, "fgets": 0, "scanf": 1, "fscanf": 2, "sscanf": 2,
}

// triageExternal follows the input at the trigger through the item's
// tokens (assignments, calls that fill &x) and keeps it when a tainted name
// reaches a subscript, a loop header or an allocation. It over-approximates
// what Check traces, so it drops nothing Check would report from it.
//
// Check analyses the whole function of a hit at once, so the answer is
// the item's: every trigger of the item seeds one spread, computed once.
func triageExternal(lx *checkers.Lexed, tok int) bool {
	it := lx.ItemOf(tok)
	if it < 0 {
		return false
	}
	return checkers.ItemMemo(lx, inExternalSlot, it, func() bool {
		item := lx.Items[it]
		t := &inTokenTaint{lx: lx, start: item.TokStart, end: item.TokEnd}
		if item.End-item.Start >= guardIndexMin {
			t.outer = outerOpeners(lx, item.TokStart, item.TokEnd)
		}
		return t.seedAll(item) || t.spread()
	})
}

// seedAll seeds the item's triggers; it reports one that sits in a sink.
func (t *inTokenTaint) seedAll(item checkers.Item) bool {
	for k := item.TokStart; k < item.TokEnd; k++ {
		// The first byte and the length rule out most names before the
		// set is asked.
		tk := &t.lx.Tokens[k]
		if tk.Kind != checkers.TokIdent || !inExternalTriggerShape.may(tk) || !inExternalTriggerWords.MayHave(t.lx, k) {
			continue
		}
		if inExternalTriggerSet[t.lx.Text(k)] && t.seed(k, item) {
			return true
		}
	}
	return false
}

// wordShape holds the first bytes and lengths of a set of words: a
// token of another first byte or length is none of them.
type wordShape struct {
	first [256]bool
	lens  uint64 // bit n: some word has n bytes (n < 64)
}

func newWordShape(words []string) (s wordShape) {
	for _, w := range words {
		s.first[w[0]] = true
		s.lens |= 1 << min(len(w), 63)
	}
	return s
}

// may reports whether token t could be one of the words.
func (s *wordShape) may(t *checkers.Token) bool {
	n := t.End - t.Start
	return s.first[t.First] && (n >= 63 || s.lens&(1<<n) != 0)
}

var inExternalTriggerShape = newWordShape(inExternalTriggers)

// inExternalTriggerWords is the WordSet of inExternalTriggers, for the
// tokens the shape lets through.
var inExternalTriggerWords = checkers.NewWordSet(inExternalTriggers)

var inExternalSlot, inBracketedSlot = checkers.NewMemoSlot(), checkers.NewMemoSlot()

var inExternalTriggerSet = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range inExternalTriggers {
		m[w] = true
	}
	return m
}()

// seed taints what the trigger at tok brings in; it reports a trigger that
// sits in a sink itself.
func (t *inTokenTaint) seed(tok int, item checkers.Item) bool {
	lx := t.lx
	word := lx.Text(tok)
	if word == "argv" && (lx.Is(tok-1, ".") || lx.Is(tok-1, "->") || !inMainItem(lx, item)) {
		return false // Check takes argv as input in main alone (tracer.isMainArgv)
	}
	if k, ok := inFilledArgs[word]; ok {
		args, ok := lx.CallArgs(tok)
		if !ok {
			return false
		}
		filled := args[min(k, len(args)):]
		if !strings.Contains(word, "scanf") && len(filled) > 1 {
			filled = filled[:1] // read, recv, fread, fgets fill one buffer
		}
		for _, a := range filled {
			t.addLHS(a.Start, a.End)
		}
		return false
	}
	if args, ok := lx.CallArgs(tok); ok && len(args) > 0 && inConversions[word] {
		a := args[0]
		if a.End-a.Start == 1 && lx.Kind(a.Start) == checkers.TokString {
			return false // atoi("42")
		}
	}
	if t.inSink(tok) {
		return true
	}
	t.addAssignedFrom(tok) // n = atoi(...), v = getenv(...), p = argv[1]
	return false
}

// inMainItem reports whether the item may define main or wmain: one of
// the names is followed by "(" before the body opens.
func inMainItem(lx *checkers.Lexed, item checkers.Item) bool {
	for k := item.TokStart; k+1 < item.TokEnd && !lx.Is(k, "{"); k++ {
		if (lx.Is(k, "main") || lx.Is(k, "wmain")) && lx.Is(k+1, "(") {
			return true
		}
	}
	return false
}

// inTokenTaint is a token-level may-taint over one item.
type inTokenTaint struct {
	lx         *checkers.Lexed
	start, end int
	// names and fields are the tainted variables and members (after .
	// or ->), kept apart so that tainting s.data does not taint a
	// variable named data; first marks their first bytes, which rules
	// out most tokens without a map lookup.
	names, fields map[string]bool
	first         [256]bool
	// outer, set in large items, holds outerOpeners for inSink.
	outer []int32
}

func (t *inTokenTaint) isField(j int) bool { return t.lx.Is(j-1, ".") || t.lx.Is(j-1, "->") }

// mark taints the name at token j.
func (t *inTokenTaint) mark(j int) {
	m := &t.names
	if t.isField(j) {
		m = &t.fields
	}
	if *m == nil {
		*m = map[string]bool{}
	}
	(*m)[t.lx.Text(j)] = true
	t.first[t.lx.Tokens[j].First] = true
}

// count is how many names are tainted.
func (t *inTokenTaint) count() int { return len(t.names) + len(t.fields) }

func (t *inTokenTaint) tainted(j int) bool {
	if t.lx.Kind(j) != checkers.TokIdent || !t.first[t.lx.Tokens[j].First] {
		return false
	}
	if t.isField(j) {
		return t.fields[t.lx.Text(j)]
	}
	return t.names[t.lx.Text(j)]
}

func (t *inTokenTaint) hasTainted(from, to int) bool {
	for j := from; j < to; j++ {
		if t.tainted(j) {
			return true
		}
	}
	return false
}

// hasTaintedValue is hasTainted for the value of an expression, as Check
// traces it: a tainted name inside the arguments of a call counts only
// when the call is a conversion (atoi, ntohl) or passes its argument
// through (strchr, strdup); strlen(tainted) is not tainted.
func (t *inTokenTaint) hasTaintedValue(from, to int) bool {
	for j := from; j < to; j++ {
		if t.tainted(j) && !t.inOpaqueCall(from, j) {
			return true
		}
	}
	return false
}

// inOpaqueCall reports whether token j lies in the arguments of a call,
// opened at or after from, that neither converts nor passes it through.
func (t *inTokenTaint) inOpaqueCall(from, j int) bool {
	depth := 0
	for k := j - 1; k >= from; k-- {
		switch t.lx.Text(k) {
		case ")":
			depth++
		case "(":
			if depth > 0 {
				depth--
				continue
			}
			if t.lx.Kind(k-1) != checkers.TokIdent {
				continue // a cast or grouping
			}
			switch callee := t.lx.Text(k - 1); {
			case inConversions[callee], inPassThrough[callee]:
			default:
				return true
			}
		}
	}
	return false
}

// inPassThrough are the calls Trace sees through.
var inPassThrough = map[string]bool{
	"strdup": true, "strndup": true, "xstrdup": true, "g_strdup": true, "basename": true, "dirname": true,
	"strchr": true, "strrchr": true, "strstr": true, "getenv": true, "secure_getenv": true,
}

// isAssignOp reports "=", "+=", "|=" … but not "==", "<=", ">=", "!=".
func (t *inTokenTaint) isAssignOp(j int) bool {
	if t.lx.Kind(j) != checkers.TokPunct {
		return false
	}
	s := t.lx.Text(j)
	switch s {
	case "=", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>=":
		return true
	}
	return false
}

// stmtStart returns the first token of the statement or declaration that
// holds token j.
func (t *inTokenTaint) stmtStart(j int) int {
	for k := j - 1; k >= t.start; k-- {
		switch t.lx.Text(k) {
		case ";", "{", "}":
			return k + 1
		}
	}
	return t.start
}

// exprEnd returns the token after the expression that starts at j: the
// next ";" or "," at depth 0, or an unmatched closing bracket.
func (t *inTokenTaint) exprEnd(j int) int {
	depth := 0
	for k := j; k < t.end; k++ {
		switch t.lx.Text(k) {
		case "(", "[", "{":
			depth++
		case ")", "]", "}":
			if depth == 0 {
				return k
			}
			depth--
		case ";":
			return k
		case ",":
			if depth == 0 {
				return k
			}
		}
	}
	return t.end
}

// addAssignedFrom taints what the expression holding token j is assigned
// to: the last name left of the "=" ("n" in int n = ..., "len" in
// s->len = ...), as Check matches field definitions by path.
func (t *inTokenTaint) addAssignedFrom(j int) {
	s := t.stmtStart(j)
	for k := j - 1; k >= s; k-- {
		if t.isAssignOp(k) {
			t.addLHS(s, k)
			return
		}
	}
}

func (t *inTokenTaint) addLHS(from, to int) {
	for k := to - 1; k >= from; k-- {
		if t.lx.Kind(k) == checkers.TokIdent {
			t.mark(k)
			return
		}
	}
}

// spread propagates taint through assignments and filled arguments until
// nothing changes (a few rounds), reporting whether a sink is reached.
func (t *inTokenTaint) spread() bool {
	if t.count() == 0 {
		return false // nothing tainted: no assignment or sink can change that
	}
	return t.rounds()
}

// rounds is spread's walk over the item, at most four times.
func (t *inTokenTaint) rounds() bool {
	for round := 0; round < 4; round++ {
		before := t.count()
		for j := t.start; j < t.end; j++ {
			switch {
			case t.isAssignOp(j):
				if t.hasTaintedValue(j+1, t.exprEnd(j+1)) {
					t.addLHS(t.stmtStart(j), j)
				}
			case t.tainted(j):
				if t.inSink(j) {
					return true
				}
				if k, ok := t.enclosingCall(j); ok {
					t.addFilled(k)
				}
			}
		}
		if t.count() == before {
			return false
		}
	}
	return false
}

// enclosingCall returns the callee token of the innermost call whose
// argument list holds token j.
func (t *inTokenTaint) enclosingCall(j int) (int, bool) {
	depth := 0
	for k := j - 1; k > t.start; k-- {
		switch t.lx.Text(k) {
		case ")":
			depth++
		case "(":
			if depth == 0 {
				return k - 1, t.lx.Kind(k-1) == checkers.TokIdent
			}
			depth--
		case ";", "{", "}":
			return 0, false
		}
	}
	return 0, false
}

// addFilled taints the &x arguments of a call that received a tainted
// value: sscanf(tainted, "%d", &n).
func (t *inTokenTaint) addFilled(callee int) {
	args, ok := t.lx.CallArgs(callee)
	if !ok {
		return
	}
	for _, a := range args {
		if t.lx.Is(a.Start, "&") {
			t.addLHS(a.Start, a.End)
		}
	}
}

// inSink reports whether token j lies in a subscript, a loop header, the
// arguments of an allocation, or any call in C++ (a container constructor
// or reserve()).
func (t *inTokenTaint) inSink(j int) bool {
	return t.sinkScan(j-1, 0, false)
}

// sinkScan is inSink's scan back from token k with the bracket depth and
// semi state reached there.
func (t *inTokenTaint) sinkScan(k, depth int, semi bool) bool {
	for ; k >= t.start; k-- {
		switch t.lx.Text(k) {
		case ")", "]":
			depth++
		case "[":
			if depth == 0 && !semi {
				return t.mayIndexArray(k)
			}
			depth--
		case "(":
			if depth == 0 {
				prev := t.lx.Text(k - 1)
				if semi {
					return prev == "for" && t.ordersIn(k)
				}
				if prev == "for" || prev == "while" {
					return t.ordersIn(k)
				}
				if inAllocators[prev] != nil || prev == "reserve" || prev == "resize" {
					return true
				}
				if t.lx.Kind(k-1) == checkers.TokIdent && (t.lx.Is(k-2, ">") || cppIsContainer(t.lx.Text(k-2))) {
					return true // vector<T> v(n), string s(n, c): a constructor
				}
			} else {
				depth--
			}
		case ";":
			if depth == 0 {
				if t.outer != nil {
					return t.beforeStatement(k - 1)
				}
				semi = true
			}
		case "{", "}":
			return false
		}
	}
	return false
}

// beforeStatement is sinkScan from token k at depth 0 after a ";": only
// an enclosing for header can make it a sink, and it stops at the first
// brace. In a large item (t.outer set) that is where the innermost "(" or
// "[" before k that no later bracket closes, counted as the scan counts,
// decides, instead of a scan back through every statement of the block
// (quadratic in a generated function with thousands of sources).
func (t *inTokenTaint) beforeStatement(k int) bool {
	if k < t.start {
		return false
	}
	m := int(t.outer[k-t.start])
	switch {
	case m < 0:
		return false // a brace or the item's start first
	case t.lx.Text(m) == "(":
		return t.lx.Text(m-1) == "for" && t.ordersIn(m)
	}
	return t.sinkScan(m-1, -1, true) // past a "[": depth -1, as the scan goes on
}

// outerOpeners returns, for each token of [start, end), the innermost "("
// or "[" at or before it that no ")" or "]" up to it closes (either closes
// either, as sinkScan counts), after the last brace; -1 when none.
func outerOpeners(lx *checkers.Lexed, start, end int) []int32 {
	out := make([]int32, end-start)
	var stack []int32
	for k := start; k < end; k++ {
		switch lx.Text(k) {
		case "(", "[":
			stack = append(stack, int32(k))
		case ")", "]":
			if len(stack) > 0 {
				stack = stack[:len(stack)-1]
			}
		case "{", "}":
			stack = stack[:0]
		}
		out[k-start] = -1
		if n := len(stack); n > 0 {
			out[k-start] = stack[n-1]
		}
	}
	return out
}

// ordersIn reports whether the loop header opened at token k holds a
// < <= > or >= token: Check only bounds loops by such comparisons.
func (t *inTokenTaint) ordersIn(k int) bool {
	c := t.lx.Close(k)
	if c < 0 {
		return true
	}
	for j := k + 1; j < c; j++ {
		if t.lx.Is(j, "<") || t.lx.Is(j, ">") || t.lx.Is(j, "<=") || t.lx.Is(j, ">=") {
			return true
		}
	}
	return false
}

// mayIndexArray reports whether the subscript opened at token k may index
// an array of known length, the only subscripts Check reports: the base
// is a plain name (not a field) that the file declares with brackets
// somewhere, or an expression triage cannot see through.
func (t *inTokenTaint) mayIndexArray(k int) bool {
	b := k - 1
	if t.lx.Kind(b) != checkers.TokIdent {
		return true // (cast)[i], a[i][j], f()[i]: let Check decide
	}
	if t.lx.Is(b-1, ".") || t.lx.Is(b-1, "->") {
		return false // s.f[i], p->f[i]: not a plain name
	}
	return checkers.Memoize(t.lx, inBracketedSlot, func() map[string]bool { return inBracketedNames(t.lx) })[t.lx.Text(b)]
}

// inBracketedNames lists the names that stand before a "[" after a type
// word, a "*" or a ",": every array declarator of the file (char buf[64],
// *v[4], int a[2], b[3]), with uses such as "return a[i]" as harmless
// extras.
func inBracketedNames(lx *checkers.Lexed) map[string]bool {
	names := map[string]bool{}
	for i := 1; i+1 < len(lx.Tokens); i++ {
		if lx.Kind(i) == checkers.TokIdent && lx.Is(i+1, "[") && (lx.Kind(i-1) == checkers.TokIdent || lx.Is(i-1, "*") || lx.Is(i-1, ",")) {
			names[lx.Text(i)] = true
		}
	}
	return names
}

type inExternalKey struct{ fn int }

// checkExternal analyses the hit's function once: every array index, loop
// bound and allocation size that comes from program input.
func checkExternal(p *checkers.Pass, h checkers.Hit) {
	fn := EnclosingFunction(h.Node)
	if !fn.Valid() {
		return
	}
	checkers.Memo(p, inExternalKey{fn.Index()}, func() bool {
		x := &inExternalScan{p: p, fn: fn, scope: FuncScope(p, fn)}
		x.run()
		return true
	})
}

type inExternalScan struct {
	p     *checkers.Pass
	fn    syntax.Node
	scope *Scope
}

func (x *inExternalScan) run() {
	x.fn.Field("body").Walk(func(n syntax.Node) bool {
		switch n.Kind() {
		case "lambda_expression":
			return false
		case "subscript_expression":
			x.index(n)
		case "for_statement", "while_statement", "do_statement":
			x.loop(n)
		case "call_expression":
			x.allocCall(n)
		case "new_expression":
			if l := n.Field("declarator").Field("length"); l.Valid() {
				x.alloc(n, "new[]", l)
			}
		case "array_declarator":
			if s := n.Field("size"); s.Valid() && n.Ancestor("parameter_list").Kind() == "" {
				if _, ok := IntValue(s, x.scope.Consts()); !ok {
					x.alloc(n, "variable-length array", s)
				}
			}
		case "init_declarator":
			x.vectorInit(n)
		case "declaration":
			x.vexingVector(n)
		}
		return true
	})
}

// origin traces e with the family's inConversions.
func (x *inExternalScan) origin(e syntax.Node) Source { return inputOrigin(x.p, e) }

// index reports arr[i] on a fixed-size array with i from program input
// and no bounds check before.
func (x *inExternalScan) index(n syntax.Node) {
	arr := Ident(n.Field("argument"))
	if arr == "" {
		return
	}
	v := x.scope.LookupArray(arr, n)
	if v == nil || v.ArrayLen <= 0 {
		return
	}
	idx := inSubscriptIndex(n)
	src := x.origin(idx)
	if src.Origin != OriginExternal || inByteIndexFits(x.scope, idx, v.ArrayLen) || inLimitChecked(x.p, x.fn, idx, n) {
		return
	}
	x.p.Report(checkers.Finding{Rule: ruleInputIndex, Span: checkers.NodeSpan(n),
		Message: fmt.Sprintf("'%s' (%d entries) is indexed by '%s', which comes from %s, with no bounds check", arr, v.ArrayLen, shortText(idx), src.What)})
}

// inSubscriptIndex returns the index expression of a[i] in C and C++.
func inSubscriptIndex(n syntax.Node) syntax.Node {
	if i := n.Field("index"); i.Valid() {
		return i
	}
	return n.Field("indices").NamedChild(0)
}

// inByteIndexFits reports whether the index is an unsigned byte (a byte of an
// unsigned char buffer, or a cast to unsigned char) and the array has 256
// entries or more.
func inByteIndexFits(s *Scope, idx syntax.Node, n int64) bool {
	if n < 256 {
		return false
	}
	idx = Unparen(idx)
	if idx.Kind() == "cast_expression" {
		switch t := idx.Field("type").Text(); t {
		case "unsigned char", "uint8_t", "u_char", "guint8":
			return true
		}
	}
	if idx.Kind() == "subscript_expression" {
		if v := s.Lookup(Ident(idx.Field("argument")), idx); v != nil {
			switch v.Type {
			case "unsigned char", "uint8_t", "u_char", "guint8":
				return true
			}
		}
	}
	return false
}

// loop reports a loop whose bound comes from program input.
func (x *inExternalScan) loop(n syntax.Node) {
	cond := Condition(n)
	if !cond.Valid() {
		return
	}
	updated := inLoopChanged(n)
	var flagged syntax.Node
	var src Source
	bounded := false
	for _, cmp := range inOrderCompares(cond) {
		b := inLoopLimitSide(cmp, updated, x.scope)
		s := x.origin(b)
		if s.Origin != OriginExternal {
			bounded = true
			continue
		}
		if !flagged.Valid() && !inLimitChecked(x.p, x.fn, b, n) {
			flagged, src = b, s
		}
	}
	if bounded || !flagged.Valid() || inLoopBreaks(n) {
		return
	}
	x.p.Report(checkers.Finding{Rule: ruleUnboundLoop, Span: checkers.NodeSpan(cond),
		Message: fmt.Sprintf("the loop runs up to '%s' times, which comes from %s, with no upper limit checked", shortText(flagged), src.What)})
}

// inOrderCompares returns the < <= > >= comparisons of a condition joined by
// && and ||.
func inOrderCompares(cond syntax.Node) []syntax.Node {
	cond = Unparen(cond)
	if cond.Kind() == "binary_expression" {
		switch BinaryOp(cond) {
		case "&&", "||":
			return append(inOrderCompares(cond.Field("left")), inOrderCompares(cond.Field("right"))...)
		case "<", "<=", ">", ">=":
			return []syntax.Node{cond}
		}
	}
	return nil
}

// inLoopChanged returns the variables a loop inTouchesAny: the for-update and
// the increments, decrements and assignments in its body and condition.
func inLoopChanged(loop syntax.Node) map[string]bool {
	out := map[string]bool{}
	loop.Walk(func(m syntax.Node) bool {
		switch m.Kind() {
		case "update_expression":
			out[rootName(PathOf(m.Field("argument")))] = true
		case "assignment_expression":
			out[rootName(PathOf(m.Field("left")))] = true
		}
		return true
	})
	return out
}

// inLoopLimitSide picks the side of a comparison that bounds the loop: the side
// the loop does not change. A counter counting down to a constant
// (while (n-- > 0)) is its own bound.
func inLoopLimitSide(cmp syntax.Node, updated map[string]bool, s *Scope) syntax.Node {
	l, r := cmp.Field("left"), cmp.Field("right")
	lu, ru := inTouchesAny(l, updated), inTouchesAny(r, updated)
	switch {
	case lu && !ru:
		if _, lit := IntValue(r, s.Consts()); lit {
			return l
		}
		return r
	case ru && !lu:
		if _, lit := IntValue(l, s.Consts()); lit {
			return r
		}
		return l
	}
	// Neither or both change: the larger origin decides.
	if _, lit := IntValue(r, s.Consts()); lit {
		return l
	}
	return r
}

func inTouchesAny(n syntax.Node, updated map[string]bool) bool {
	found := false
	n.Walk(func(m syntax.Node) bool {
		if !found && m.Kind() == "identifier" && updated[m.Text()] {
			found = true
		}
		return !found
	})
	return found
}

// inLoopBreaks reports whether the loop body leaves the loop on a
// comparison: if (i >= MAX) break;
func inLoopBreaks(loop syntax.Node) bool {
	found := false
	loop.Field("body").Walk(func(m syntax.Node) bool {
		if found || m.Kind() == "lambda_expression" {
			return false
		}
		if m.Kind() == "if_statement" && len(inOrderCompares(Condition(m))) > 0 {
			m.Field("consequence").Walk(func(k syntax.Node) bool {
				if k.Is("break_statement", "return_statement", "goto_statement", "throw_statement") {
					found = true
				}
				return !found
			})
		}
		return true
	})
	return found
}

// inAllocators maps allocation functions to their size arguments.
var inAllocators = map[string][]int{
	"malloc": {0}, "calloc": {0, 1}, "realloc": {1}, "reallocarray": {1, 2}, "alloca": {0},
	"__builtin_alloca": {0}, "_alloca": {0}, "valloc": {0}, "aligned_alloc": {1}, "memalign": {1},
	"xmalloc": {0}, "xcalloc": {0, 1}, "xrealloc": {1}, "xmallocz": {0}, "zmalloc": {0}, "zcalloc": {0},
	"zrealloc": {1}, "g_malloc": {0}, "g_malloc0": {0}, "g_new": {1}, "g_new0": {1},
	"OPENSSL_malloc": {0}, "av_malloc": {0},
}

// allocCall checks malloc-family calls and container reserve/resize.
func (x *inExternalScan) allocCall(call syntax.Node) {
	if idx, ok := inAllocators[CalleeName(call)]; ok {
		for _, i := range idx {
			x.alloc(call, CalleeName(call)+"()", Arg(call, i))
		}
		return
	}
	f := call.Field("function")
	if f.Kind() == "field_expression" {
		switch m := f.Field("field").Text(); m {
		case "reserve", "resize":
			x.alloc(call, m+"()", Arg(call, 0))
		}
	}
}

// vectorInit checks std::vector<T> v(n).
func (x *inExternalScan) vectorInit(n syntax.Node) {
	args := n.Field("value")
	if args.Kind() != "argument_list" {
		return
	}
	t := inDeclType(n)
	if !inCountedContainer(t) {
		return
	}
	x.alloc(n, "the "+strings.Join(strings.Fields(t), "")+" constructor", args.NamedChild(0))
}

// vexingVector checks std::vector<T> v(n) where n is a plain name, which
// the grammar reads as a function declaration (the most vexing parse).
func (x *inExternalScan) vexingVector(n syntax.Node) {
	d := n.Field("declarator")
	if d.Kind() != "function_declarator" || !inCountedContainer(n.Field("type").Text()) {
		return
	}
	params := d.Field("parameters")
	pd := params.NamedChild(0)
	if params.NamedChildCount() != 1 || pd.Kind() != "parameter_declaration" || pd.Field("declarator").Valid() ||
		pd.Field("type").Kind() != "type_identifier" {
		return
	}
	x.alloc(n, "the "+strings.Join(strings.Fields(n.Field("type").Text()), "")+" constructor", pd.Field("type"))
}

// alloc reports an allocation whose size comes from program input.
func (x *inExternalScan) alloc(at syntax.Node, what string, size syntax.Node) {
	if !size.Valid() {
		return
	}
	src := x.origin(size)
	if src.Origin != OriginExternal || inLimitChecked(x.p, x.fn, size, at) {
		return
	}
	x.p.Report(checkers.Finding{Rule: ruleUnboundMem, Span: checkers.NodeSpan(at),
		Message: fmt.Sprintf("%s size '%s' comes from %s with no upper limit checked", what, shortText(size), src.What)})
}

// inLimitChecked reports whether a variable of expr is compared before node
// at with < <= > >= against something other than zero, or tested in a
// condition by a call (if (!valid(n)) ...). A clamp or an early return
// count alike: jsec does not prove the check is right, only that one exists.
func inLimitChecked(p *checkers.Pass, fn, expr, at syntax.Node) bool {
	names := map[string]bool{}
	expr.Walk(func(m syntax.Node) bool {
		if m.Kind() == "identifier" && m.FieldName() != "function" || m.Kind() == "type_identifier" {
			names[m.Text()] = true
		}
		return true
	})
	found := false
	fn.Field("body").Walk(func(m syntax.Node) bool {
		if found || m.Start() >= at.Start() {
			return false
		}
		if inIsOrderCmp(m) && !inLowerBoundOnly(m) {
			for name := range names {
				if inMentions(m, name) {
					found = true
				}
			}
		}
		if m.Kind() == "call_expression" && inIfCond(m) {
			for _, a := range Args(m) {
				if a = Uncast(a); a.Kind() == "pointer_expression" && a.FirstChild().Text() == "&" || a.Kind() == "sizeof_expression" {
					continue // &n is filled by the call, sizeof n measures it: neither tests n
				}
				for name := range names {
					if inMentions(a, name) {
						found = true
					}
				}
			}
		}
		return true
	})
	return found
}

// inLowerBoundOnly reports comparisons with 0 or a negative constant, which
// only test a lower bound.
func inLowerBoundOnly(cmp syntax.Node) bool {
	for _, side := range []syntax.Node{cmp.Field("left"), cmp.Field("right")} {
		if v, ok := IntValue(side, nil); ok && v <= 0 {
			return true
		}
	}
	return false
}

// inIfCond reports whether n lies in the condition of an if or while.
func inIfCond(n syntax.Node) bool {
	for a := n.Parent(); a.Valid(); a = a.Parent() {
		switch a.Kind() {
		case "if_statement", "while_statement":
			return Condition(a).Contains(n)
		case "compound_statement", "function_definition":
			return false
		}
	}
	return false
}

// inputOrigin is Trace that also sees through numeric inConversions:
// atoi(argv[1]), ntohl(hdr.len), strtol(buf, ...).
func inputOrigin(p *checkers.Pass, e syntax.Node) Source {
	fn := EnclosingFunction(e)
	if !fn.Valid() {
		return Trace(p, e)
	}
	t := &inTracer{p: p, defs: Defs(p, fn), scope: FuncScope(p, fn), seen: map[int]bool{}}
	return t.origin(e, 0)
}

type inTracer struct {
	p     *checkers.Pass
	defs  *DefIndex
	scope *Scope
	seen  map[int]bool
}

func (t *inTracer) origin(e syntax.Node, depth int) Source {
	e = Uncast(e)
	if depth > 12 || !e.Valid() {
		return Source{Origin: OriginUnknown}
	}
	switch e.Kind() {
	case "call_expression":
		if name := CalleeName(e); inConversions[name] {
			s := t.origin(Arg(e, 0), depth+1)
			if s.Origin == OriginExternal {
				s.What = name + "() of " + s.What
			}
			return s
		}
	case "identifier", "type_identifier":
		return t.name(e, depth)
	case "subscript_expression", "field_expression", "pointer_expression":
		if base := baseIdent(e); base.Valid() && !(base.Text() == "argv") {
			path := PathOf(e)
			if path == "" {
				path = base.Text()
			}
			if s, ok := t.reaching(base, path, depth); ok {
				return s
			}
		}
	case "binary_expression":
		switch BinaryOp(e) {
		case "%", "&":
			if _, ok := IntValue(e.Field("right"), nil); ok {
				return Source{Origin: OriginLiteral} // masked into a constant range
			}
		}
		return inMaxOrigin(t.origin(e.Field("left"), depth+1), t.origin(e.Field("right"), depth+1))
	case "conditional_expression":
		return inMaxOrigin(t.origin(e.Field("consequence"), depth+1), t.origin(e.Field("alternative"), depth+1))
	case "update_expression", "unary_expression":
		return t.origin(e.Field("argument"), depth+1)
	}
	return Trace(t.p, e)
}

// name traces an identifier through its reaching definitions, falling
// back on Trace for parameters, argv and initialisers.
func (t *inTracer) name(id syntax.Node, depth int) Source {
	if s, ok := t.reaching(id, id.Text(), depth); ok {
		return s
	}
	s := Trace(t.p, id)
	if s.Origin == OriginUnknown && t.scope.Lookup(id.Text(), id) == nil && inIsMacroName(id.Text()) {
		return Source{Origin: OriginLiteral} // a constant macro: DEFAULT_PORT
	}
	return s
}

// inIsMacroName reports an all-capitals name, the convention for constants.
func inIsMacroName(s string) bool {
	upper := false
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= 'A' && c <= 'Z':
			upper = true
		case c >= 'a' && c <= 'z':
			return false
		}
	}
	return upper
}

// reaching combines the origins of the definitions of id that reach it
// and that define path or a prefix of it: "s->len = n" reaches s->len and
// s->len[2] but not s->type.
func (t *inTracer) reaching(id syntax.Node, path string, depth int) (Source, bool) {
	var res Source
	found := false
	for _, d := range t.defs.Reaching(id.Text(), id) {
		if t.seen[d.Node.Index()] || !inDefCovers(d, id.Text(), path) {
			continue
		}
		t.seen[d.Node.Index()] = true
		found = true
		switch d.Kind {
		case DefAssign:
			res = inMaxOrigin(res, t.origin(d.Value, depth+1))
		case DefExternal:
			if inScanfCount(d, id.Text()) {
				res = inMaxOrigin(res, Source{Origin: OriginUnknown}) // %n counts what was consumed
				break
			}
			res = inMaxOrigin(res, Source{OriginExternal, CalleeName(d.Node) + "()"})
		case DefCopy:
			for _, a := range d.Sources {
				res = inMaxOrigin(res, t.origin(a, depth+1))
			}
		default:
			res = inMaxOrigin(res, Source{Origin: OriginUnknown})
		}
		delete(t.seen, d.Node.Index())
	}
	return res, found
}

// inScanfCount reports whether a scanf-family definition of name fills it
// through %n (a count of consumed characters, not input).
func inScanfCount(d Def, name string) bool {
	fmtIdx := map[string]int{"scanf": 0, "fscanf": 1, "sscanf": 1}
	f, ok := fmtIdx[CalleeName(d.Node)]
	if !ok {
		return false
	}
	format, ok := StringValue(Arg(d.Node, f))
	if !ok {
		return false
	}
	convs := inScanfConversions(format)
	for i, a := range Args(d.Node)[f+1:] {
		if rootName(PathOf(addrOf(a))) == name && i < len(convs) && convs[i] != 'n' {
			return false
		}
	}
	return true
}

// inScanfConversions lists the conversion characters of a scanf format
// that store into an argument (%*d stores nothing).
func inScanfConversions(s string) []byte {
	var out []byte
	for i := 0; i < len(s); i++ {
		if s[i] != '%' {
			continue
		}
		i++
		if i < len(s) && s[i] == '%' {
			continue
		}
		suppress := i < len(s) && s[i] == '*'
		for i < len(s) && strings.IndexByte("*0123456789hlLqjztm", s[i]) >= 0 {
			i++
		}
		if i < len(s) && s[i] == '[' {
			for i++; i < len(s) && s[i] != ']'; i++ {
			}
			if i < len(s) && !suppress {
				out = append(out, 's')
			}
			continue
		}
		if i < len(s) && !suppress {
			out = append(out, s[i])
		}
	}
	return out
}

// inDefCovers reports whether definition d of name defines path: a whole
// variable definition covers every path under it, a field assignment only
// the paths it prefixes.
func inDefCovers(d Def, name, path string) bool {
	covers := func(lp string) bool {
		return lp == name || strings.HasPrefix(path, lp) && (len(path) == len(lp) || !IdentByte(path[len(lp)]))
	}
	switch d.Node.Kind() {
	case "assignment_expression":
		return covers(PathOf(d.Node.Field("left")))
	case "call_expression":
		for _, a := range Args(d.Node) {
			if lp := PathOf(addrOf(a)); rootName(lp) == name && covers(lp) {
				return true
			}
		}
		return false
	}
	return true
}

func inMaxOrigin(a, b Source) Source {
	if b.Origin > a.Origin {
		return b
	}
	return a
}

// inCountedContainer reports containers whose one-argument constructor
// takes an element count: vector and deque (a string's takes a pointer).
func inCountedContainer(t string) bool {
	if i := strings.IndexByte(t, '<'); i >= 0 {
		t = t[:i]
	}
	t = strings.TrimSpace(t)
	t = t[strings.LastIndex(t, ":")+1:]
	return t == "vector" || t == "deque"
}
