package rust

import (
	"sort"
	"strings"

	"github.com/jsec/jsec/checkers"
	"github.com/jsec/jsec/checkers/syntax"
)

// This file holds the facts the unsafe, memory and ffi families share
// about one function: where a name is bound and to what, where it is
// mentioned, whether a pointer was null-checked or a count compared with
// a length before a given offset. Syntax answers what it can (bindings,
// origins); tokens answer the rest, because assert!/debug_assert! bodies
// are token trees, not expressions, in tree-sitter-rust.

// memScope is one function seen by the memory-safety families.
type memScope struct {
	p      *checkers.Pass
	fn     syntax.Node // the function_item
	lo, hi int         // its token range [lo, hi)
	lenish map[string]bool
}

type memScopeKey struct{ fn int }

// scopeOf returns the scope of the function around n, or nil outside one.
func scopeOf(p *checkers.Pass, n syntax.Node) *memScope {
	fn := EnclosingFunction(n)
	if !fn.Valid() {
		return nil
	}
	return checkers.Memo(p, memScopeKey{fn.Index()}, func() *memScope {
		s := &memScope{p: p, fn: fn}
		s.lo, s.hi = tokRange(p.Lex, fn.Start(), fn.End())
		s.lenish = s.lengthAliases()
		return s
	})
}

// paramDerived returns the parameter that the expression's locals come
// from (through lets, assignments and for-loop ranges), or "".
func (s *memScope) paramDerived(names []string, before, depth int) string {
	if depth > 3 {
		return ""
	}
	for _, n := range names {
		if n == "self" {
			continue
		}
		if b, ok := s.bind(n, before); ok {
			if b.param {
				if intType(normType(s.p, b.typ)) {
					return n
				}
				continue
			}
			if b.value.Valid() {
				if d := s.paramDerived(scalarIdents(b.value), b.decl.Start(), depth+1); d != "" {
					return d
				}
			}
			continue
		}
		for _, i := range s.mentions(n, s.fn.Start(), before) {
			if from, to, ok := s.forRange(i); ok {
				var up []string
				for k := from; k < to; k++ {
					if s.ident(k) && s.text(k-1) != "." && s.text(k+1) != "(" {
						up = append(up, s.text(k))
					}
				}
				if d := s.paramDerived(up, int(s.p.Lex.Tokens[i].Start), depth+1); d != "" {
					return d
				}
				break
			}
		}
	}
	return ""
}

// tokRange returns the token index range covering bytes [start, end).
func tokRange(lx *checkers.Lexed, start, end int) (int, int) {
	return tokIndex(lx, start), tokIndex(lx, end)
}

// tokIndex returns the index of the first token that starts at or after off.
func tokIndex(lx *checkers.Lexed, off int) int {
	return sort.Search(len(lx.Tokens), func(i int) bool { return int(lx.Tokens[i].Start) >= off })
}

func (s *memScope) text(i int) string {
	if i < s.lo || i >= s.hi {
		return ""
	}
	return s.p.Lex.Text(i)
}

func (s *memScope) ident(i int) bool {
	return i >= s.lo && i < s.hi && s.p.Lex.Tokens[i].Kind == checkers.TokIdent
}

// mentions returns the token indices in byte range [from, to) where name
// (a local, or a dotted path such as self.buf) is used as a value: not as
// a field or method name of something else, not as a path segment.
func (s *memScope) mentions(name string, from, to int) []int {
	parts := strings.Split(name, ".")
	a, b := tokRange(s.p.Lex, from, to)
	a, b = max(a, s.lo), min(b, s.hi)
	var out []int
	for i := a; i < b; i++ {
		if !s.ident(i) || s.text(i) != parts[0] {
			continue
		}
		if prev := s.text(i - 1); prev == "." || prev == "::" || s.text(i+1) == "::" || s.text(i+1) == "!" {
			continue
		}
		ok := true
		for k, part := range parts[1:] {
			if s.text(i+1+2*k) != "." || s.text(i+2+2*k) != part {
				ok = false
				break
			}
		}
		if ok {
			out = append(out, i)
		}
	}
	return out
}

// after returns the token index just past a mention of name at i.
func after(name string, i int) int { return i + 2*strings.Count(name, ".") + 1 }

// binding is where a local or parameter gets its value.
type binding struct {
	decl  syntax.Node // parameter or let_declaration
	typ   syntax.Node // declared type, if any
	value syntax.Node // initializer, if any
	param bool
}

// bind returns the last parameter or let that binds name and ends before
// offset before, or ok=false.
func (s *memScope) bind(name string, before int) (b binding, ok bool) {
	s.fn.Walk(func(n syntax.Node) bool {
		if n.Start() >= before {
			return false
		}
		if n.Kind() == "function_item" && n.Index() != s.fn.Index() {
			return false
		}
		if n.End() > before {
			return true // let x = f(x): the new x is not bound inside its own initialiser
		}
		switch n.Kind() {
		case "parameter", "let_declaration":
			pat := n.Field("pattern")
			if pat.Kind() == "identifier" && pat.Text() == name {
				b = binding{decl: n, typ: n.Field("type"), value: n.Field("value"), param: n.Kind() == "parameter"}
				ok = true
			}
		}
		return true
	})
	return b, ok
}

// lastAssign returns the last assignment name = value that lies after
// from and ends before before, or the zero Node.
func (s *memScope) lastAssign(name string, from, before int) syntax.Node {
	var a syntax.Node
	s.fn.Walk(func(n syntax.Node) bool {
		if n.Start() >= before {
			return false
		}
		if n.Kind() == "assignment_expression" && n.Start() > from && n.End() <= before && n.Field("left").Text() == name {
			a = n
		}
		return true
	})
	return a
}

// isParamOf reports whether name is a parameter of the function.
func (s *memScope) isParam(name string) bool {
	found := false
	s.fn.Walk(func(n syntax.Node) bool {
		if n.Kind() == "parameter" && n.Field("pattern").Text() == name {
			found = true
		}
		return !found && (n.Kind() != "function_item" || n.Index() == s.fn.Index())
	})
	return found
}

// writtenThrough reports whether name is handed out for writing between
// from and before: &mut name, addr_of_mut!(name), name.as_mut_ptr() — an
// out-parameter that a call fills.
func (s *memScope) writtenThrough(name string, from, before int) bool {
	for _, i := range s.mentions(name, from, before) {
		if s.text(i-1) == "mut" && s.text(i-2) == "&" || s.text(i-1) == "(" && s.text(i-2) == "!" && s.text(i-3) == "addr_of_mut" {
			return true
		}
		if j := after(name, i); s.text(j) == "." && s.text(j+1) == "as_mut_ptr" {
			return true
		}
	}
	return false
}

// Pointer origins, from the most to the least trustworthy.
type origin int

const (
	originUnknown origin = iota
	originValid          // &x, x.as_ptr(), Box::into_raw, addr_of!: valid and non-null
	originParam          // a parameter: whatever the caller passed
	originCall           // the result of a call such as malloc or getenv
	originNull           // ptr::null()
)

// ptrOrigin follows a pointer expression back through casts, offsets and
// lets to where it came from. via names the parameter or callee.
func (s *memScope) ptrOrigin(e syntax.Node, before int, depth int) (o origin, via string) {
	if depth > 6 || !e.Valid() {
		return originUnknown, ""
	}
	switch e.Kind() {
	case "parenthesized_expression", "try_expression":
		return s.ptrOrigin(e.NamedChild(0), before, depth+1)
	case "type_cast_expression":
		return s.ptrOrigin(e.Field("value"), before, depth+1)
	case "reference_expression":
		return originValid, ""
	case "unsafe_block":
		return s.ptrOrigin(tailExpr(e.NamedChild(0)), before, depth+1)
	case "block":
		return s.ptrOrigin(tailExpr(e), before, depth+1)
	case "macro_invocation":
		if m := lastSegment(e.Field("macro").Text()); m == "addr_of" || m == "addr_of_mut" {
			return originValid, ""
		}
		return originUnknown, ""
	case "identifier":
		return s.identOrigin(e.Text(), before, depth)
	case "call_expression":
		return s.callOrigin(e, before, depth)
	}
	return originUnknown, ""
}

func (s *memScope) identOrigin(name string, before, depth int) (origin, string) {
	b, ok := s.bind(name, before)
	if !ok {
		return originUnknown, ""
	}
	switch b.typ.Kind() {
	case "reference_type":
		return originValid, ""
	case "", "pointer_type":
	default:
		if b.param {
			return originUnknown, ""
		}
	}
	if a := s.lastAssign(name, b.decl.End(), before); a.Valid() {
		if s.writtenThrough(name, a.End(), before) {
			return originUnknown, ""
		}
		return s.ptrOrigin(a.Field("right"), a.Start(), depth+1)
	}
	if s.writtenThrough(name, b.decl.End(), before) {
		return originUnknown, "" // an out-parameter: some call stored a pointer in it
	}
	if b.param {
		return originParam, name
	}
	if !b.value.Valid() {
		return originUnknown, ""
	}
	return s.ptrOrigin(b.value, b.decl.Start(), depth+1)
}

func (s *memScope) callOrigin(e syntax.Node, before, depth int) (origin, string) {
	fn := callee(e)
	if fn.Kind() == "field_expression" {
		switch fn.Field("field").Text() {
		case "as_ptr", "as_mut_ptr", "as_non_null_ptr", "into_raw", "leak", "get", "get_mut", "unwrap", "expect",
			"unwrap_unchecked", "as_ref", "as_mut", "borrow", "borrow_mut", "deref", "deref_mut":
			return originValid, "" // a reference or a pointer that cannot be null
		case "add", "sub", "offset", "byte_add", "byte_sub", "byte_offset", "wrapping_add",
			"wrapping_sub", "wrapping_offset", "cast", "cast_mut", "cast_const":
			return s.ptrOrigin(fn.Field("value"), before, depth+1)
		}
		return originUnknown, "" // an accessor of some object: its invariants are unknown
	}
	path := Path(e)
	switch lastSegment(path) {
	case "null", "null_mut":
		if strings.Contains(path, "ptr") || path == "null" || path == "null_mut" {
			return originNull, path
		}
	case "into_raw", "leak", "as_ptr", "as_mut_ptr", "dangling", "dangling_mut":
		return originValid, ""
	}
	return originCall, path
}

// callee returns the function part of a call, looking through turbofish
// generics: the field_expression of x.cast::<u8>().
func callee(call syntax.Node) syntax.Node {
	f := call.Field("function")
	if f.Kind() == "generic_function" {
		return f.Field("function")
	}
	return f
}

// tailExpr returns the final expression of a block, or the zero Node.
func tailExpr(block syntax.Node) syntax.Node {
	var last syntax.Node
	for c := range block.NamedChildren() {
		if c.Kind() != "line_comment" && c.Kind() != "block_comment" {
			last = c
		}
	}
	if last.Kind() == "expression_statement" {
		if isTailStatement(last) {
			return last.NamedChild(0)
		}
		return syntax.Node{}
	}
	return last
}

// isTailStatement reports whether st is an expression_statement without a
// semicolon (a block-like expression such as unsafe { … } or if … at the
// end of a block, whose value is the block's value).
func isTailStatement(st syntax.Node) bool {
	if st.Kind() != "expression_statement" || strings.HasSuffix(st.Text(), ";") {
		return false
	}
	for sib := st.NextSibling(); sib.Valid(); sib = sib.NextSibling() {
		if sib.IsNamed() && !isCommentNode(sib) {
			return false
		}
	}
	return true
}

func isCommentNode(n syntax.Node) bool { return n.Is("line_comment", "block_comment") }

// stripGenerics removes <…> groups from a path: MaybeUninit::<T>::uninit
// becomes MaybeUninit::::uninit, whose last segment is uninit.
func stripGenerics(path string) string {
	if !strings.Contains(path, "<") {
		return path
	}
	var b strings.Builder
	depth := 0
	for i := 0; i < len(path); i++ {
		switch c := path[i]; {
		case c == '<':
			depth++
		case c == '>' && depth > 0:
			depth--
		case depth == 0:
			b.WriteByte(c)
		}
	}
	return b.String()
}

func lastSegment(path string) string {
	path = stripGenerics(path)
	if i := strings.LastIndex(path, "::"); i >= 0 {
		return path[i+2:]
	}
	return path
}

// nullChecked reports whether the pointer name is compared with null
// before offset before: p.is_null(), NonNull::new(p), p.as_ref() (unless
// unwrapped at once), p == ptr::null().
func (s *memScope) nullChecked(name string, before int) bool {
	for _, i := range s.mentions(name, s.fn.Start(), before) {
		j := after(name, i)
		if s.text(j) == "." {
			switch s.text(j + 1) {
			case "is_null":
				return true
			case "as_ref", "as_mut":
				if !(s.text(j+4) == "." && (s.text(j+5) == "unwrap" || s.text(j+5) == "expect" || s.text(j+5) == "unwrap_unchecked")) {
					return true
				}
			}
		}
		if s.text(i-1) == "(" && s.text(i-2) == "new" && s.text(i-3) == "::" && s.text(i-4) == "NonNull" {
			return true
		}
		if lo, hi, _ := s.clause(i); s.hasTok(lo, hi, "==", "!=") && s.hasTok(lo, hi, "null", "null_mut") {
			return true
		}
	}
	return false
}

func (s *memScope) hasTok(from, to int, texts ...string) bool {
	for k := from; k < to; k++ {
		t := s.text(k)
		for _, x := range texts {
			if t == x {
				return true
			}
		}
	}
	return false
}

// clause returns the token range around token i that belongs to the same
// condition: bounded by ; { } at any depth, and by , && || or an
// unmatched bracket at depth zero. A clause in the arguments of
// assert_eq!/debug_assert_eq! spans all of them and counts as a
// comparison. cmp reports whether the clause holds a comparison operator.
func (s *memScope) clause(i int) (lo, hi int, cmp bool) {
	lo, hi = s.clauseEdge(i, -1), s.clauseEdge(i, +1)
	if s.text(lo-1) == "(" && s.text(lo-2) == "!" && strings.HasSuffix(s.text(lo-3), "_eq") {
		if end := s.p.Lex.Close(lo - 1); end > 0 {
			return lo, end, true
		}
	}
	generic := 0
	for k := lo; k < hi; k++ {
		switch t := s.text(k); t {
		case "<":
			if prev := s.text(k - 1); prev == "::" || prev != "" && prev[0] >= 'A' && prev[0] <= 'Z' && s.ident(k-1) {
				generic++ // Vec<u8>, collect::<T>
			} else {
				cmp = true
			}
		case ">", ">>":
			if generic > 0 {
				generic -= len(t)
			} else {
				cmp = true
			}
		case "<=", ">=", "==", "!=":
			cmp = true
		default:
			if strings.HasPrefix(t, "checked_") || strings.HasPrefix(t, "overflowing_") {
				cmp = true
			}
		}
	}
	return lo, hi, cmp
}

func (s *memScope) clauseEdge(i, dir int) int {
	depth := 0
	k := i
	for {
		next := k + dir
		if next < s.lo || next >= s.hi {
			break
		}
		t := s.text(next)
		switch t {
		case ";", "{", "}":
			if dir < 0 {
				return next + 1
			}
			return next
		case "(", "[":
			if dir < 0 {
				if depth == 0 {
					return next + 1
				}
				depth--
			} else {
				depth++
			}
		case ")", "]":
			if dir > 0 {
				if depth == 0 {
					return next
				}
				depth--
			} else {
				depth++
			}
		case ",", "&&", "||":
			if depth == 0 {
				if dir < 0 {
					return next + 1
				}
				return next
			}
		}
		k = next
	}
	if dir < 0 {
		return k
	}
	return k + 1
}

// compared reports whether, before offset before, one of names appears in
// a comparison (or checked_* call) whose clause also holds a token that
// other accepts, or is bound by a for loop whose range holds one.
func (s *memScope) compared(names []string, before int, other func(tok int) bool) bool {
	for _, name := range names {
		for _, i := range s.mentions(name, s.fn.Start(), before) {
			if s.text(i+1) == ":" {
				continue // a declaration (parameter, let x: T), not a test
			}
			if from, to, ok := s.forRange(i); ok {
				if s.anyTok(from, to, other) {
					return true
				}
				continue
			}
			lo, hi, cmp := s.clause(i)
			if cmp && s.anyTok(lo, hi, func(k int) bool { return k != i && other(k) }) {
				return true
			}
		}
	}
	return false
}

// forRange returns the upper-bound tokens [from, to) of the range of the
// for loop whose pattern holds token i (for i in 0..n, for (i, x) in
// v.iter().enumerate()), or ok=false.
func (s *memScope) forRange(i int) (from, to int, ok bool) {
	k := i - 1
	for ; k >= s.lo && k > i-12; k-- {
		t := s.text(k)
		if t == "for" {
			break
		}
		if t != "(" && t != "," && t != "mut" && t != "&" && s.p.Lex.Kind(k) != checkers.TokIdent {
			return 0, 0, false
		}
	}
	if s.text(k) != "for" {
		return 0, 0, false
	}
	in := i + 1
	for ; in < s.hi && in < i+12 && s.text(in) != "in"; in++ {
		if t := s.text(in); t == "{" || t == ";" {
			return 0, 0, false
		}
	}
	if s.text(in) != "in" {
		return 0, 0, false
	}
	from, depth := in+1, 0
	for to = in + 1; to < s.hi; to++ {
		switch s.text(to) {
		case "(", "[":
			depth++
		case ")", "]":
			depth--
		case "..", "..=":
			if depth == 0 {
				from = to + 1 // only the upper bound bounds the index
			}
		case "{":
			if depth == 0 {
				return from, to, true
			}
		}
	}
	return 0, 0, false
}

func (s *memScope) anyTok(from, to int, f func(int) bool) bool {
	for k := from; k < to; k++ {
		if f(k) {
			return true
		}
	}
	return false
}

// isBound accepts the tokens that bound an index or count: a length
// (len, capacity, size_of, an alias of one), a literal, a constant, an
// enumerate().
func (s *memScope) isBound(k int) bool {
	t := s.text(k)
	if s.p.Lex.Kind(k) == checkers.TokNumber {
		return true
	}
	if s.p.Lex.Kind(k) != checkers.TokIdent {
		return false
	}
	return lengthWord(t) || s.lenish[t] || t == "enumerate" || isConstName(t)
}

func lengthWord(t string) bool {
	l := strings.ToLower(t)
	return l == "len" || l == "capacity" || l == "cap" || strings.HasPrefix(l, "size_of") ||
		strings.HasSuffix(l, "_len") || strings.HasSuffix(l, "_size") || strings.HasSuffix(l, "_cap") ||
		strings.HasSuffix(l, "_capacity") || l == "size" || l == "length"
}

// isConstName reports whether t looks like a constant (SIZE, MAX, N).
func isConstName(t string) bool {
	if t == "" || t == "_" {
		return false
	}
	for i := 0; i < len(t); i++ {
		c := t[i]
		if !(c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_') {
			return false
		}
	}
	return t[0] >= 'A' && t[0] <= 'Z'
}

// lengthAliases collects the locals initialised from a length (let n =
// v.len(); let end = cmp::min(a.len(), b.len())), twice over so that an
// alias of an alias counts.
func (s *memScope) lengthAliases() map[string]bool {
	out := map[string]bool{}
	for range 2 {
		s.fn.Walk(func(n syntax.Node) bool {
			if n.Kind() != "let_declaration" {
				return true
			}
			pat, v := n.Field("pattern"), n.Field("value")
			if pat.Kind() != "identifier" || !v.Valid() {
				return true
			}
			a, b := tokRange(s.p.Lex, v.Start(), v.End())
			for k := a; k < b; k++ {
				t := s.p.Lex.Text(k)
				if s.p.Lex.Kind(k) != checkers.TokIdent || s.p.Lex.Is(k+1, "(") && !s.p.Lex.Is(k-1, ".") && !strings.HasPrefix(t, "size_of") {
					continue // blob_len(id): a free function's result, not a buffer's length
				}
				if lengthWord(t) || out[t] {
					out[pat.Text()] = true
					break
				}
			}
			return true
		})
	}
	return out
}

var intTypeRE = checkers.LazyRegexp(`^([ui](8|16|32|64|128|size)|c_u?(char|short|int|long|longlong)|c_s?size_t|s?size_t|off_t|off64_t|socklen_t|DWORD|UINT|ULONG)$`)

// intType reports whether t names an integer type (u32, usize, c_int,
// libc::size_t …).
func intType(t string) bool { return intTypeRE().MatchString(lastSegment(t)) }

// scalarIdents returns the locals an expression reads as whole values:
// n in n * 2, but not v in v.len() or s in s.count.
func scalarIdents(e syntax.Node) []string {
	var out []string
	for _, id := range identsOf(e) {
		whole := false
		for n := range e.Descendants() {
			if n.Kind() == "identifier" && n.Text() == id && n.Parent().Kind() != "field_expression" {
				whole = true
				break
			}
		}
		if whole {
			out = append(out, id)
		}
	}
	return out
}

// identsOf returns the local names an expression reads (identifiers that
// are not callees, path segments or field names), without duplicates.
func identsOf(e syntax.Node) []string {
	var out []string
	seen := map[string]bool{}
	for n := range e.Descendants() {
		if n.Kind() != "identifier" && n.Kind() != "self" {
			continue
		}
		par := n.Parent()
		if par.Kind() == "scoped_identifier" || par.Kind() == "call_expression" && par.Field("function").Index() == n.Index() ||
			par.Kind() == "macro_invocation" || par.Kind() == "generic_function" {
			continue
		}
		if !seen[n.Text()] {
			seen[n.Text()] = true
			out = append(out, n.Text())
		}
	}
	return out
}

// baseOf returns the buffer a pointer or slice expression points into:
// v for v.as_ptr(), &v[..], v.as_mut_ptr().add(i) or (v as *const T);
// self.buf for self.buf.as_ptr(). It returns "" when there is none.
func baseOf(e syntax.Node) string {
	for depth := 0; depth < 8 && e.Valid(); depth++ {
		switch e.Kind() {
		case "identifier", "self":
			return e.Text()
		case "field_expression":
			if b := baseOf(e.Field("value")); b != "" && !strings.Contains(b, "(") {
				return b + "." + e.Field("field").Text()
			}
			return ""
		case "parenthesized_expression", "reference_expression", "try_expression":
			e = e.NamedChild(e.NamedChildCount() - 1)
		case "type_cast_expression":
			e = e.Field("value")
		case "index_expression":
			e = e.NamedChild(0)
		case "call_expression":
			fn := callee(e)
			if fn.Kind() != "field_expression" {
				return ""
			}
			switch fn.Field("field").Text() {
			case "as_ptr", "as_mut_ptr", "add", "sub", "offset", "byte_add", "cast", "cast_mut",
				"cast_const", "as_slice", "as_mut_slice", "as_bytes", "as_bytes_mut", "wrapping_add":
				e = fn.Field("value")
			default:
				return ""
			}
		default:
			return ""
		}
	}
	return ""
}

// isRawPointerExpr reports whether e is known to be a raw pointer: a cast
// to *const/*mut, x.as_ptr(), ptr::null(), an offset of one, or a local,
// parameter or self field declared with a raw pointer type.
func (s *memScope) isRawPointerExpr(e syntax.Node, depth int) bool {
	if depth > 5 || !e.Valid() {
		return false
	}
	switch e.Kind() {
	case "parenthesized_expression":
		return s.isRawPointerExpr(e.NamedChild(0), depth+1)
	case "type_cast_expression":
		return e.Field("type").Kind() == "pointer_type"
	case "identifier":
		b, ok := s.bind(e.Text(), e.Start())
		if !ok {
			return false
		}
		if b.typ.Valid() {
			return b.typ.Kind() == "pointer_type"
		}
		return s.isRawPointerExpr(b.value, depth+1)
	case "field_expression":
		if e.Field("value").Kind() == "self" {
			return rawPointerField(s.p, e.Field("field").Text())
		}
	case "call_expression":
		fn := callee(e)
		if fn.Kind() == "field_expression" {
			switch fn.Field("field").Text() {
			case "as_ptr", "as_mut_ptr":
				return true
			case "add", "sub", "offset", "byte_add", "byte_sub", "byte_offset", "cast", "cast_mut", "cast_const",
				"wrapping_add", "wrapping_sub", "wrapping_offset":
				return s.isRawPointerExpr(fn.Field("value"), depth+1)
			}
			return false
		}
		switch lastSegment(Path(e)) {
		case "null", "null_mut", "into_raw":
			return true
		}
	}
	return false
}
