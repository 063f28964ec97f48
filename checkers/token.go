package checkers

import (
	"sort"
	"sync/atomic"
	"unsafe"
)

// TokKind classifies a token produced by a language's lexer.
type TokKind uint8

// Token kinds shared by the C/C++ and Rust lexers.
const (
	TokIdent    TokKind = iota + 1 // identifiers and keywords
	TokNumber                      // numeric literals
	TokString                      // string literals, any prefix or raw form
	TokChar                        // character literals
	TokPunct                       // operators and punctuation
	TokPreproc                     // C: one whole preprocessor directive
	TokLifetime                    // Rust: 'a, 'static, loop labels
)

// TokFlag marks lexical context on a token.
type TokFlag uint8

// Token flags.
const (
	// FlagAltBranch marks tokens in an #else/#elif branch. Their braces do
	// not count when items are delimited (the first branch's do), as in
	// ctags, so that "#ifdef X / f(a) { / #else / f(a, b) { / #endif"
	// stays one function.
	FlagAltBranch TokFlag = 1 << iota
)

// Token is a lexical token: a kind and a byte span of the source.
type Token struct {
	Start, End int32
	Kind       TokKind
	Flags      TokFlag
	// First is the token's first byte, kept beside the span so that the
	// scans of triage compare punctuation without touching the source.
	// One is First when the token is one byte long and 0 otherwise: the
	// questions about one-byte tokens (";", "(", "p") load one byte.
	// Lexers make tokens with NewToken, which sets both.
	First, One byte
}

// NewToken returns the token src[start:end] of kind with flags, First and
// One set.
func NewToken(src []byte, start, end int, kind TokKind, flags TokFlag) Token {
	t := Token{Start: int32(start), End: int32(end), Kind: kind, Flags: flags}
	if end > start {
		t.First = src[start]
		if end-start == 1 {
			t.One = t.First
		}
	}
	return t
}

// Span is a half-open byte range.
type Span struct{ Start, End int }

// Item is a top-level unit of a source file that can be parsed alone: a
// function definition, a declaration, a class, an impl block. Items inside
// containers (C++ namespaces, extern "C" blocks, Rust inline modules) are
// items of their own, with Container pointing at the innermost one.
type Item struct {
	Start, End       int // byte range, the unit parsed when a rule needs it
	TokStart, TokEnd int // token index range
	Container        int // index into Lexed.Containers, -1 at file level
	Test             bool
}

// Container is a block whose contents are items: a namespace, an extern
// "C" block, a Rust module.
type Container struct {
	Kind   string // "namespace", "extern", "mod"
	Name   string
	Parent int // enclosing container, -1 at file level
	Test   bool
	Span   Span
}

// Lexed is what a language's lexer knows about a file without parsing it.
type Lexed struct {
	Src        []byte
	Tokens     []Token
	Comments   []Span
	Items      []Item
	Containers []Container
	// Dead are byte ranges the compiler never sees ("#if 0" blocks with
	// their directives, the "#else" of "#if 1"), sorted; they are left
	// out of every parse.
	Dead []Span
	// MayBeWords, when WordFilter is set, are the identifier tokens that
	// pass WordFilter, in order: every identifier that is one of its words
	// is among them. A lexer that filters sets both; the engine then looks
	// up only these (when the filter covers its trigger words).
	MayBeWords []int32
	WordFilter *WordFilter
	// BracketPairs, when set, are the brackets the lexer paired as it
	// emitted them: the open and close token indices of each pair, each of
	// (), [] and {} paired on its own with the innermost open one of its
	// kind, as pairBrackets pairs them from the tokens otherwise.
	BracketPairs []int32

	// partner holds each paired bracket's partner index plus one (0: none),
	// built on the first Close or Open.
	partner []int32
	memo    []any // Memoize's slots
	// lastItem is ItemOf's last answer.
	lastItem int
	// recycle hands the lexer's buffers back (SetRecycle).
	recycle func(*Lexed)
}

// A MemoSlot names a per-file cache entry on a Lexed; reserve one per
// fact with NewMemoSlot when the package initialises.
type MemoSlot int

var memoSlots atomic.Int32

// NewMemoSlot reserves a slot.
func NewMemoSlot() MemoSlot { return MemoSlot(memoSlots.Add(1) - 1) }

// Memoize returns the value cached in slot for this file's tokens,
// computing it with f the first time: facts a Triage derives from the
// whole file (which names are arrays, say) are computed once, not once
// per trigger. A slot is an index, so a hit costs a bounds check and a
// type assertion. A Lexed belongs to one goroutine, like its Pass.
func Memoize[T any](lx *Lexed, slot MemoSlot, f func() T) T {
	if int(slot) < len(lx.memo) {
		if v, ok := lx.memo[slot].(T); ok {
			return v
		}
	} else {
		lx.memo = append(lx.memo, make([]any, int(slot)+1-len(lx.memo))...)
	}
	v := f()
	lx.memo[slot] = v
	return v
}

type itemMemo[T any] struct {
	set bool
	v   T
}

// ItemMemo is Memoize for a fact of one item of the file.
func ItemMemo[T any](lx *Lexed, slot MemoSlot, item int, f func() T) T {
	es := Memoize(lx, slot, func() []itemMemo[T] { return make([]itemMemo[T], len(lx.Items)) })
	e := &es[item]
	if !e.set {
		e.v, e.set = f(), true
	}
	return e.v
}

// Text returns the source text of token i, or "" when i is out of range
// (so that Triage functions can look at neighbours without bounds checks).
//
// The string shares the source's bytes (no copy: triage calls Text for
// millions of tokens); the source is never modified. Copy it
// (strings.Clone) before keeping it beyond the file's analysis.
func (lx *Lexed) Text(i int) string {
	if uint(i) >= uint(len(lx.Tokens)) {
		return ""
	}
	t := lx.Tokens[i]
	if t.End <= t.Start {
		return ""
	}
	return unsafe.String(&lx.Src[t.Start], int(t.End-t.Start))
}

// Is reports whether token i exists and its text is s (not empty).
func (lx *Lexed) Is(i int, s string) bool {
	if uint(i) >= uint(len(lx.Tokens)) {
		return false
	}
	t := &lx.Tokens[i]
	if len(s) == 1 {
		return t.One == s[0]
	}
	if int(t.End-t.Start) != len(s) || t.First != s[0] {
		return false
	}
	return string(lx.Src[t.Start:t.End]) == s
}

// Find returns the first token in [from, to) whose text is s (not
// empty), or -1: the scans for a name's next mention, in one tight loop
// that looks at each token's first byte and length alone until both match.
func (lx *Lexed) Find(from, to int, s string) int {
	from, to = max(from, 0), min(to, len(lx.Tokens))
	if from >= to || s == "" {
		return -1
	}
	n, c := int32(len(s)), s[0]
	if n == 1 {
		for k, t := range lx.Tokens[from:to] {
			if t.One == c {
				return from + k
			}
		}
		return -1
	}
	for k, t := range lx.Tokens[from:to] {
		if t.First == c && t.End-t.Start == n && string(lx.Src[t.Start:t.End]) == s {
			return from + k
		}
	}
	return -1
}

// FindLast is Find from the end: the last token in [from, to) whose text
// is s, or -1.
func (lx *Lexed) FindLast(from, to int, s string) int {
	from, to = max(from, 0), min(to, len(lx.Tokens))
	if from >= to || s == "" {
		return -1
	}
	n, c := int32(len(s)), s[0]
	if n == 1 {
		for k := to - 1; k >= from; k-- {
			if lx.Tokens[k].One == c {
				return k
			}
		}
		return -1
	}
	for k := to - 1; k >= from; k-- {
		t := &lx.Tokens[k]
		if t.First == c && t.End-t.Start == n && string(lx.Src[t.Start:t.End]) == s {
			return k
		}
	}
	return -1
}

// Byte returns the byte of token i when the token is one byte long ("(",
// ";", "x"), 0 otherwise or when i is out of range: scans that look for
// brackets and separators switch on it instead of comparing strings.
func (lx *Lexed) Byte(i int) byte {
	if uint(i) >= uint(len(lx.Tokens)) {
		return 0
	}
	return lx.Tokens[i].One
}

// Kind returns the kind of token i, 0 when i is out of range.
func (lx *Lexed) Kind(i int) TokKind {
	if uint(i) >= uint(len(lx.Tokens)) {
		return 0
	}
	return lx.Tokens[i].Kind
}

// TokenAt returns the index of the token that starts at byte off, or -1.
func (lx *Lexed) TokenAt(off int) int {
	lo, hi := 0, len(lx.Tokens)
	for lo < hi {
		m := (lo + hi) / 2
		if int(lx.Tokens[m].Start) < off {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo < len(lx.Tokens) && int(lx.Tokens[lo].Start) == off {
		return lo
	}
	return -1
}

// ItemOf returns the index of the item that holds token i, or -1.
func (lx *Lexed) ItemOf(tok int) int {
	// Triage asks about the tokens of one item after another: remember
	// the last answer.
	if l := lx.lastItem; l < len(lx.Items) && lx.Items[l].TokStart <= tok && tok < lx.Items[l].TokEnd {
		return l
	}
	lo, hi := 0, len(lx.Items)
	for lo < hi {
		m := (lo + hi) / 2
		if lx.Items[m].TokEnd <= tok {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo < len(lx.Items) && lx.Items[lo].TokStart <= tok {
		lx.lastItem = lo
		return lo
	}
	return -1
}

// ItemAt returns the index of the item whose byte range holds off, or -1.
func (lx *Lexed) ItemAt(off int) int {
	i := sort.Search(len(lx.Items), func(i int) bool { return lx.Items[i].End > off })
	if i < len(lx.Items) && lx.Items[i].Start <= off {
		return i
	}
	return -1
}

// Close returns the index of the bracket that closes the one at token i
// ("(", "[" or "{"), or -1 when it is unbalanced. Each kind of bracket is
// paired on its own (a stray "]" does not disturb parentheses), and the
// pairs are computed once per file.
func (lx *Lexed) Close(i int) int {
	if uint(i) >= uint(len(lx.Tokens)) || lx.Tokens[i].Kind != TokPunct {
		return -1
	}
	switch lx.Tokens[i].First {
	case '(', '[', '{':
		return lx.partnerOf(i)
	}
	return -1
}

// AngleEnd returns the token that closes the template argument list
// opening with the "<" at i (">>" closes two), stepping over bracketed
// groups, or -1 when a ";", "{" or "}" comes first or the tokens run out.
func (lx *Lexed) AngleEnd(i int) int {
	depth := 0
	for k := i; k < len(lx.Tokens); k++ {
		switch lx.Text(k) {
		case "<":
			depth++
		case ">":
			depth--
		case ">>":
			depth -= 2
		case "(", "[":
			if c := lx.Close(k); c > 0 {
				k = c
			}
		case ";", "{", "}":
			return -1
		}
		if depth <= 0 {
			return k
		}
	}
	return -1
}

// Open returns the index of the bracket that the one at token i (")",
// "]" or "}") closes, or -1.
func (lx *Lexed) Open(i int) int {
	if uint(i) >= uint(len(lx.Tokens)) || lx.Tokens[i].Kind != TokPunct {
		return -1
	}
	switch lx.Tokens[i].First {
	case ')', ']', '}':
		return lx.partnerOf(i)
	}
	return -1
}

func (lx *Lexed) partnerOf(i int) int {
	if lx.partner == nil {
		lx.pairBrackets()
	}
	return int(lx.partner[i]) - 1
}

// SetRecycle registers where Recycle hands the Lexed's slices (Tokens,
// Comments, Items) back: a lexer that reuses its buffers from file to file.
func (lx *Lexed) SetRecycle(f func(*Lexed)) { lx.recycle = f }

// Recycle hands the Lexed's buffers back for the next file. Neither the
// Lexed nor its Tokens, Comments and Items may be used after; what was
// taken from it (Text and Word point into the source, not into these
// buffers) stays valid.
func (lx *Lexed) Recycle() {
	if p := lx.partner; p != nil {
		partnerPool.Put(p)
		lx.partner = nil
	}
	if lx.recycle != nil {
		lx.recycle(lx)
		lx.recycle = nil
	}
	lx.Tokens, lx.Comments, lx.Items, lx.memo, lx.MayBeWords = nil, nil, nil, nil, nil
}

// Headroom is the capacity to give a buffer that is reused from file to
// file (token, bracket and line tables, file contents) when the one at
// hand is too small for n: a quarter more, so that the files after it,
// mostly smaller (the scan takes large files first) but not all, find it
// big enough.
func Headroom(n int) int { return n + n/4 }

// partnerPool holds bracket-partner slices for reuse.
var partnerPool FreeList[[]int32]

func (lx *Lexed) pairBrackets() {
	if p, ok := partnerPool.Get(); ok && cap(p) >= len(lx.Tokens) {
		lx.partner = p[:len(lx.Tokens)]
		clear(lx.partner)
	} else {
		lx.partner = make([]int32, len(lx.Tokens), Headroom(len(lx.Tokens)))
	}
	if lx.BracketPairs != nil {
		for k := 0; k+1 < len(lx.BracketPairs); k += 2 {
			o, c := lx.BracketPairs[k], lx.BracketPairs[k+1]
			lx.partner[o], lx.partner[c] = c+1, o+1
		}
		return
	}
	var stacks [3][]int32
	for j := range lx.Tokens {
		t := &lx.Tokens[j]
		if t.Kind != TokPunct || t.End-t.Start != 1 {
			continue
		}
		var k int
		open := true
		switch t.First {
		case '(':
			k = 0
		case '[':
			k = 1
		case '{':
			k = 2
		case ')':
			k, open = 0, false
		case ']':
			k, open = 1, false
		case '}':
			k, open = 2, false
		default:
			continue
		}
		if open {
			stacks[k] = append(stacks[k], int32(j))
		} else if n := len(stacks[k]); n > 0 {
			o := stacks[k][n-1]
			lx.partner[o], lx.partner[j] = int32(j)+1, o+1
			stacks[k] = stacks[k][:n-1]
		}
	}
}

// CallArgs returns the token ranges [start, end) of the arguments of the
// call whose callee name is token i ("name ( a , b )"), splitting on commas
// at bracket depth zero. ok is false when token i+1 is not "(" or the
// parenthesis does not close.
func (lx *Lexed) CallArgs(i int) (args []Span, ok bool) {
	if !lx.Is(i+1, "(") {
		return nil, false
	}
	end := lx.Close(i + 1)
	if end < 0 {
		return nil, false
	}
	start := i + 2
	depth := 0
	for j := start; j < end; j++ {
		t := lx.Tokens[j]
		if t.Kind != TokPunct || t.End-t.Start != 1 {
			continue
		}
		switch lx.Src[t.Start] {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
		case ',':
			if depth == 0 {
				args = append(args, Span{start, j})
				start = j + 1
			}
		}
	}
	if start < end || len(args) > 0 {
		args = append(args, Span{start, end})
	}
	return args, true
}
