package c

import (
	"bytes"
	"sync"

	"github.com/jsec/jsec/checkers"
)

// Lex tokenizes C (cpp=false) or C++ source and delimits its top-level
// items. It never fails: unterminated strings end at the line, an
// unterminated comment at the end of the file.
//
// Comments, string contents and the dead branches of "#if 0" / "#if 1 ...
// #else" produce no identifier tokens, which is how triggers in them are
// ignored. Every other preprocessor directive becomes one TokPreproc token.
func Lex(src []byte, cpp bool) *checkers.Lexed {
	l := &lexer{src: src, cpp: cpp}
	b, _ := lexPool.Get()
	if b == nil {
		b = new(lexBuffers)
	}
	if need := len(src)/5 + 16; cap(b.toks) >= need {
		l.toks = b.toks[:0]
	} else {
		l.toks = make([]checkers.Token, 0, checkers.Headroom(need))
	}
	l.comments = b.comments[:0]
	l.filter, l.maybe = wordFilter(), b.maybe[:0]
	l.brackets.pairs = b.pairs[:0:0]
	if b.pairs != nil {
		l.brackets.pairs = b.pairs[:0]
	}
	facts := &lexFacts{directives: b.directives[:0], colons: b.colons[:0]}
	l.facts = facts
	l.run()
	lx := &checkers.Lexed{Src: src, Tokens: l.toks, Comments: l.comments, Dead: l.dead, Items: b.items[:0],
		MayBeWords: l.maybe, WordFilter: l.filter, BracketPairs: l.brackets.pairs}
	*b = lexBuffers{}
	lx.SetRecycle(func(lx *checkers.Lexed) {
		*b = lexBuffers{toks: lx.Tokens[:0], comments: lx.Comments[:0], items: lx.Items[:0], directives: facts.directives[:0], colons: facts.colons[:0],
			maybe: lx.MayBeWords[:0], pairs: lx.BracketPairs[:0]}
		lexPool.Put(b)
	})
	checkers.Memoize(lx, lexFactsSlot, func() *lexFacts { return facts })
	buildItems(lx, cpp, l.braces.pairs)
	return lx
}

// lexBuffers are the slices of a Lexed that a scanned file hands back
// (checkers.Lexed.Recycle): the next file lexes into them instead of
// fresh, zeroed allocations.
type lexBuffers struct {
	toks       []checkers.Token
	comments   []checkers.Span
	items      []checkers.Item
	directives []int32
	colons     []int32
	maybe      []int32
	pairs      []int32
}

// wordFilter is the filter of every C and C++ checker's trigger words,
// with which the lexer marks the identifiers the engine looks up
// (Lexed.MayBeWords): while the lexer has an identifier's bytes at hand
// it costs one more hash, and the engine's pass over every token goes.
// Built on first use, when the checker lists are complete.
var wordFilter = sync.OnceValue(func() *checkers.WordFilter {
	var words []string
	for _, c := range allCheckers() {
		words = append(words, c.Triggers...)
	}
	return checkers.NewWordFilter(words)
})

var lexPool checkers.FreeList[*lexBuffers]

// LexC and LexCPP adapt Lex to checkers.Language.
func LexC(src []byte) *checkers.Lexed   { return Lex(src, false) }
func LexCPP(src []byte) *checkers.Lexed { return Lex(src, true) }

// IdentByte reports whether b can be part of a C identifier (non-ASCII
// bytes count, so that UTF-8 identifiers stay whole).
func IdentByte(b byte) bool { return identBytes[b] }

var identBytes = func() (t [256]bool) {
	for b := range 256 {
		t[b] = b == '_' || b == '$' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9' || b >= 0x80
	}
	return t
}()

// blankBytes marks the bytes the lexer skips between tokens, besides
// newlines: one load where six compares tested every token's first byte.
var blankBytes = [256]bool{' ': true, '\t': true, '\r': true, '\f': true, '\v': true, 0: true}

type cond struct {
	alt bool // in an #else/#elif branch
	one bool // "#if 1": the #else branch is dead
	// hidden: the #if that opened this conditional is dead code, so its
	// #endif must be left out of the parse too.
	hidden bool
}

type lexer struct {
	src      []byte
	cpp      bool
	toks     []checkers.Token
	comments []checkers.Span
	conds    []cond
	dead     []checkers.Span
	alt      int // number of enclosing conds in an alternative branch
	bol      bool
	facts    *lexFacts
	filter   *checkers.WordFilter
	maybe    []int32 // the identifiers that pass filter
	braces   braceMatcher
	brackets bracketPairer
}

func (l *lexer) emit(kind checkers.TokKind, start, end int) {
	var flags checkers.TokFlag
	if l.alt > 0 {
		flags = checkers.FlagAltBranch
	}
	// checkers.NewToken, written out: appending its result copied the
	// token once more.
	t := checkers.Token{Start: int32(start), End: int32(end), Kind: kind, Flags: flags}
	if end > start {
		t.First = l.src[start]
		if end-start == 1 {
			t.One = t.First
		}
	}
	l.toks = append(l.toks, t)
}

func (l *lexer) run() {
	src := l.src
	n := len(src)
	l.bol = true
	for i := 0; i < n; {
		c := src[i]
		switch {
		case c == '\n':
			l.bol = true
			i++
		case blankBytes[c]:
			for i++; i < n && (src[i] == ' ' || src[i] == '\t'); i++ {
			}
		case c == '\\' && i+1 < n && (src[i+1] == '\n' || src[i+1] == '\r'):
			i += 2 // line splice
		case c == '/' && i+1 < n && src[i+1] == '/':
			i = l.lineComment(i)
		case c == '/' && i+1 < n && src[i+1] == '*':
			i = l.blockComment(i)
		case c == '#' && l.bol:
			i = l.directive(i)
		case IdentByte(c) && !(c >= '0' && c <= '9'):
			l.bol = false
			i = l.ident(i)
		case c >= '0' && c <= '9' || c == '.' && i+1 < n && src[i+1] >= '0' && src[i+1] <= '9':
			l.bol = false
			i = l.number(i)
		case c == '"':
			l.bol = false
			i = l.quoted(i, i, '"', checkers.TokString)
		case c == '\'':
			l.bol = false
			i = l.quoted(i, i, '\'', checkers.TokChar)
		default:
			l.bol = false
			i = l.punct(i)
		}
	}
}

func (l *lexer) lineComment(i int) int {
	start := i
	n := len(l.src)
	for i < n && l.src[i] != '\n' {
		if l.src[i] == '\\' && i+1 < n && l.src[i+1] == '\n' {
			i++ // a spliced line continues the comment
		}
		i++
	}
	end := i
	if end > start && l.src[end-1] == '\r' {
		end--
	}
	l.comments = append(l.comments, checkers.Span{Start: start, End: end})
	return i
}

func (l *lexer) blockComment(i int) int {
	start := i
	j := bytes.Index(l.src[i+2:], []byte("*/"))
	if j < 0 {
		i = len(l.src)
	} else {
		i += j + 4
	}
	l.comments = append(l.comments, checkers.Span{Start: start, End: i})
	return i
}

var stringPrefixes = map[string]bool{"L": true, "u": true, "U": true, "u8": true}
var rawPrefixes = map[string]bool{"R": true, "LR": true, "uR": true, "UR": true, "u8R": true}

func (l *lexer) ident(i int) int {
	start := i
	i = identEnd(l.src, i)
	n := len(l.src)
	if i < n && (l.src[i] == '"' || l.src[i] == '\'') && i-start <= 3 {
		p := string(l.src[start:i])
		if l.cpp && l.src[i] == '"' && rawPrefixes[p] {
			return l.raw(start, i)
		}
		if stringPrefixes[p] {
			kind := checkers.TokString
			if l.src[i] == '\'' {
				kind = checkers.TokChar
			}
			return l.quoted(start, i, l.src[i], kind)
		}
	}
	if c := l.src[start]; c == 'g' || c == 'c' || c == 'd' {
		l.facts.noteIdent(l.src, start, i, len(l.toks))
	}
	if l.filter.MayHold(l.src, start, i) {
		l.maybe = append(l.maybe, int32(len(l.toks)))
	}
	l.emit(checkers.TokIdent, start, i)
	return i
}

// identEnd returns the end of the identifier bytes from i: a range loop,
// which the compiler compiles without a bounds check or a spill of the
// index per byte (the loop it replaced took ten instructions a byte).
func identEnd(src []byte, i int) int {
	for j, c := range src[i:] {
		if !identBytes[c] {
			return i + j
		}
	}
	return len(src)
}

func (l *lexer) number(i int) int {
	start := i
	n := len(l.src)
	for i < n {
		c := l.src[i]
		switch {
		case (c == '+' || c == '-') && (l.src[i-1]|0x20 == 'e' || l.src[i-1]|0x20 == 'p'):
			i++
		case c == '\'' && l.cpp && i+1 < n && IdentByte(l.src[i+1]):
			i++ // digit separator
		case c == '.' || IdentByte(c):
			i++
		default:
			l.emit(checkers.TokNumber, start, i)
			return i
		}
	}
	l.emit(checkers.TokNumber, start, i)
	return i
}

// quoted lexes a string or character literal whose quote is at q.
func (l *lexer) quoted(start, q int, quote byte, kind checkers.TokKind) int {
	n := len(l.src)
	i := q + 1
	for i < n {
		c := l.src[i]
		if c == '\\' && i+1 < n {
			if l.src[i+1] == '\r' && i+2 < n && l.src[i+2] == '\n' {
				i += 3
			} else {
				i += 2
			}
			continue
		}
		if c == quote {
			i++
			break
		}
		if c == '\n' {
			break // unterminated: the literal ends with its line
		}
		i++
	}
	l.emit(kind, start, i)
	return i
}

// raw lexes a C++ raw string R"delim( ... )delim" whose quote is at q.
func (l *lexer) raw(start, q int) int {
	n := len(l.src)
	i := q + 1
	for i < n && i-q <= 17 && l.src[i] != '(' {
		if l.src[i] == '"' || l.src[i] == '\n' || l.src[i] == ' ' {
			return l.quoted(start, q, '"', checkers.TokString) // not a raw string after all
		}
		i++
	}
	if i >= n || l.src[i] != '(' {
		return l.quoted(start, q, '"', checkers.TokString)
	}
	closing := make([]byte, 0, 20)
	closing = append(closing, ')')
	closing = append(closing, l.src[q+1:i]...)
	closing = append(closing, '"')
	j := bytes.Index(l.src[i+1:], closing)
	end := n
	if j >= 0 {
		end = i + 1 + j + len(closing)
	}
	l.emit(checkers.TokString, start, end)
	return end
}

var puncts3 = []string{">>=", "<<=", "...", "->*", "<=>"}
var puncts2 = []string{"->", "++", "--", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "::", "##"}

// punctLen2 marks the two-byte punctuators by their bytes; punctStart3
// marks the first two bytes of the three-byte ones. multiStart marks the
// first bytes of both: the commonest punctuators (; , ( ) { } [ ]) start
// none, and one load from a 256-byte table spares them the lookups in
// the 64 KB ones, which miss the L1 cache.
var punctLen2, punctStart3 [256][256]bool
var multiStart [256]bool

func init() {
	for _, p := range puncts2 {
		punctLen2[p[0]][p[1]] = true
		multiStart[p[0]] = true
	}
	for _, p := range puncts3 {
		punctStart3[p[0]][p[1]] = true
		multiStart[p[0]] = true
	}
}

func (l *lexer) punct(i int) int {
	src := l.src
	if i+1 < len(src) && multiStart[src[i]] {
		a, b := src[i], src[i+1]
		if i+2 < len(src) && punctStart3[a][b] {
			for _, p := range puncts3 {
				if string(src[i:i+3]) == p {
					l.emit(checkers.TokPunct, i, i+3)
					return i + 3
				}
			}
		}
		if punctLen2[a][b] {
			if a == ':' && b == ':' {
				l.facts.cppMarker = true
			}
			l.emit(checkers.TokPunct, i, i+2)
			return i + 2
		}
	}
	switch c := src[i]; c {
	case ':':
		l.facts.colons = append(l.facts.colons, int32(len(l.toks)))
	case '{':
		l.braces.open(len(l.toks))
		l.brackets.open(0, len(l.toks))
	case '}':
		l.braces.close(len(l.toks))
		l.brackets.close(0, len(l.toks))
	case '(':
		l.brackets.open(1, len(l.toks))
	case ')':
		l.brackets.close(1, len(l.toks))
	case '[':
		l.brackets.open(2, len(l.toks))
	case ']':
		l.brackets.close(2, len(l.toks))
	}
	l.emit(checkers.TokPunct, i, i+1)
	return i + 1
}

// braceMatcher pairs the braces as the lexer emits them, once for the
// file. Conditional compilation is followed as ctags does: each
// #else/#elif branch starts from the brace state of its #if, and after
// #endif the first branch's state wins. So "#ifdef X / int f(a, b) { /
// #else / int f(a) { / #endif / ... }" is one function whose first "{"
// matches the final "}", and complete functions in both branches of
// "#ifndef X ... #else ... #endif" stay separate items.
type braceMatcher struct {
	stack  []int32
	frames []braceFrame
	pairs  []int32 // open and close token indices, in the order they closed
}

type braceFrame struct {
	saved, first []int32
	inElse       bool
}

// open notes the "{" at token i.
func (b *braceMatcher) open(i int) { b.stack = append(b.stack, int32(i)) }

// close pairs the "}" at token i with the innermost open "{", if any.
func (b *braceMatcher) close(i int) {
	if n := len(b.stack); n > 0 {
		b.pairs = append(b.pairs, b.stack[n-1], int32(i))
		b.stack = b.stack[:n-1]
	}
}

// directive follows the conditional directive named name (one the lexer
// emits as a token).
func (b *braceMatcher) directive(name string) {
	switch name {
	case "if", "ifdef", "ifndef":
		b.frames = append(b.frames, braceFrame{saved: append([]int32(nil), b.stack...)})
	case "else", "elif", "elifdef", "elifndef":
		if k := len(b.frames) - 1; k >= 0 {
			if !b.frames[k].inElse {
				b.frames[k].first, b.frames[k].inElse = append([]int32(nil), b.stack...), true
			}
			b.stack = append(b.stack[:0:0], b.frames[k].saved...)
		}
	case "endif":
		if k := len(b.frames) - 1; k >= 0 {
			if b.frames[k].inElse {
				b.stack = b.frames[k].first
			}
			b.frames = b.frames[:k]
		}
	}
}

// bracketPairer pairs each kind of bracket on its own as the lexer emits
// them (Lexed.BracketPairs): a closer with the innermost open bracket of
// its kind, if any.
type bracketPairer struct {
	stacks [3][]int32
	pairs  []int32
}

func (b *bracketPairer) open(kind, i int) { b.stacks[kind] = append(b.stacks[kind], int32(i)) }

func (b *bracketPairer) close(kind, i int) {
	if n := len(b.stacks[kind]); n > 0 {
		b.pairs = append(b.pairs, b.stacks[kind][n-1], int32(i))
		b.stacks[kind] = b.stacks[kind][:n-1]
	}
}
