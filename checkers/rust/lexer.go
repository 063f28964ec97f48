package rust

import (
	"github.com/jsec/jsec/checkers"
)

// Lex tokenizes Rust source and delimits its items. It never fails.
//
// Comments (nested block comments included) and the contents of string,
// raw-string, byte-string and character literals produce no identifier
// tokens, which is how triggers in them are ignored.
func Lex(src []byte) *checkers.Lexed {
	l := &lexer{src: src}
	l.toks = make([]checkers.Token, 0, len(src)/5+16)
	l.run()
	lx := &checkers.Lexed{Src: src, Tokens: l.toks, Comments: l.comments}
	buildItems(lx)
	return lx
}

// IdentByte reports whether b can be part of a Rust identifier.
func IdentByte(b byte) bool {
	return b == '_' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9' || b >= 0x80
}

type lexer struct {
	src      []byte
	toks     []checkers.Token
	comments []checkers.Span
}

func (l *lexer) emit(kind checkers.TokKind, start, end int) {
	l.toks = append(l.toks, checkers.NewToken(l.src, start, end, kind, 0))
}

func (l *lexer) run() {
	src := l.src
	n := len(src)
	i := 0
	if n >= 2 && src[0] == '#' && src[1] == '!' && !(n >= 3 && src[2] == '[') {
		for i < n && src[i] != '\n' {
			i++ // shebang
		}
	}
	for i < n {
		c := src[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v' || c == 0:
			i++
		case c == '/' && i+1 < n && src[i+1] == '/':
			start := i
			for i < n && src[i] != '\n' {
				i++
			}
			end := i
			if end > start && src[end-1] == '\r' {
				end--
			}
			l.comments = append(l.comments, checkers.Span{Start: start, End: end})
		case c == '/' && i+1 < n && src[i+1] == '*':
			i = l.blockComment(i)
		case c == '"':
			i = l.str(i, i)
		case c == '\'':
			i = l.quote(i, i)
		case IdentByte(c) && !(c >= '0' && c <= '9'):
			i = l.ident(i)
		case c >= '0' && c <= '9':
			i = l.number(i)
		default:
			i = l.punct(i)
		}
	}
}

// blockComment skips a possibly nested /* */ comment.
func (l *lexer) blockComment(i int) int {
	start := i
	n := len(l.src)
	depth := 0
	for i < n {
		if l.src[i] == '/' && i+1 < n && l.src[i+1] == '*' {
			depth++
			i += 2
			continue
		}
		if l.src[i] == '*' && i+1 < n && l.src[i+1] == '/' {
			depth--
			i += 2
			if depth == 0 {
				break
			}
			continue
		}
		i++
	}
	l.comments = append(l.comments, checkers.Span{Start: start, End: i})
	return i
}

// str lexes a "..." literal whose quote is at q (prefix from start).
func (l *lexer) str(start, q int) int {
	n := len(l.src)
	i := q + 1
	for i < n {
		switch l.src[i] {
		case '\\':
			i = min(i+2, n)
			continue
		case '"':
			l.emit(checkers.TokString, start, i+1)
			return i + 1
		}
		i++
	}
	l.emit(checkers.TokString, start, n)
	return n
}

// isRaw reports whether the '#'s or '"' at i open a raw string.
func (l *lexer) isRaw(i int) bool {
	for i < len(l.src) && l.src[i] == '#' {
		i++
	}
	return i < len(l.src) && l.src[i] == '"'
}

// raw lexes r"..." / r#"..."# whose 'r' is at r (prefix from start); the
// caller has checked isRaw.
func (l *lexer) raw(start, r int) int {
	n := len(l.src)
	i := r + 1
	hashes := 0
	for i < n && l.src[i] == '#' {
		hashes++
		i++
	}
	i++
	for i < n {
		if l.src[i] == '"' {
			k := 0
			for k < hashes && i+1+k < n && l.src[i+1+k] == '#' {
				k++
			}
			if k == hashes {
				end := i + 1 + hashes
				l.emit(checkers.TokString, start, end)
				return end
			}
		}
		i++
	}
	l.emit(checkers.TokString, start, n)
	return n
}

// quote lexes a character literal or a lifetime/label starting at q.
func (l *lexer) quote(start, q int) int {
	n := len(l.src)
	i := q + 1
	if i < n && l.src[i] == '\\' {
		i = min(i+2, n)
		for i < n && l.src[i] != '\'' && l.src[i] != '\n' {
			i++
		}
		if i < n && l.src[i] == '\'' {
			i++
		}
		l.emit(checkers.TokChar, start, i)
		return i
	}
	// One (possibly multi-byte) character followed by a quote: a char.
	j := i
	if j < n {
		j++
		for j < n && l.src[j]&0xC0 == 0x80 {
			j++
		}
	}
	if j < n && l.src[j] == '\'' {
		l.emit(checkers.TokChar, start, j+1)
		return j + 1
	}
	// A lifetime or label: 'ident.
	for i < n && IdentByte(l.src[i]) {
		i++
	}
	if i == q+1 {
		l.emit(checkers.TokPunct, q, q+1)
		return q + 1
	}
	l.emit(checkers.TokLifetime, start, i)
	return i
}

func (l *lexer) ident(i int) int {
	start := i
	n := len(l.src)
	for i < n && IdentByte(l.src[i]) {
		i++
	}
	word := string(l.src[start:i])
	if i < n {
		switch {
		case (word == "r" || word == "br" || word == "cr") && (l.src[i] == '"' || l.src[i] == '#') && l.isRaw(i):
			return l.raw(start, i-1)
		case (word == "b" || word == "c") && l.src[i] == '"':
			return l.str(start, i)
		case word == "b" && l.src[i] == '\'':
			return l.quote(start, i)
		case word == "r" && l.src[i] == '#' && i+1 < n && IdentByte(l.src[i+1]):
			// raw identifier r#type: the token is the identifier after r#.
			j := i + 1
			for j < n && IdentByte(l.src[j]) {
				j++
			}
			l.emit(checkers.TokIdent, i+1, j)
			return j
		}
	}
	l.emit(checkers.TokIdent, start, i)
	return i
}

func (l *lexer) number(i int) int {
	start := i
	n := len(l.src)
	for i < n {
		c := l.src[i]
		switch {
		case IdentByte(c):
			i++
		case (c == '+' || c == '-') && (l.src[i-1]|0x20 == 'e') && !isHex(l.src[start:i]):
			i++
		case c == '.' && i+1 < n && l.src[i+1] >= '0' && l.src[i+1] <= '9' && !hasDot(l.src[start:i]):
			i++ // 1.5, but not 1..2 or x.0.1
		default:
			l.emit(checkers.TokNumber, start, i)
			return i
		}
	}
	l.emit(checkers.TokNumber, start, i)
	return i
}

func isHex(b []byte) bool { return len(b) > 1 && b[0] == '0' && (b[1] == 'x' || b[1] == 'X') }

func hasDot(b []byte) bool {
	for _, c := range b {
		if c == '.' {
			return true
		}
	}
	return false
}

var puncts3 = []string{"<<=", ">>=", "...", "..="}
var puncts2 = []string{"::", "->", "=>", "==", "!=", "<=", ">=", "&&", "||", "+=", "-=", "*=", "/=", "%=", "^=", "&=", "|=", "<<", ">>", ".."}

func (l *lexer) punct(i int) int {
	rest := l.src[i:]
	if len(rest) >= 3 {
		for _, p := range puncts3 {
			if string(rest[:3]) == p {
				l.emit(checkers.TokPunct, i, i+3)
				return i + 3
			}
		}
	}
	if len(rest) >= 2 {
		for _, p := range puncts2 {
			if string(rest[:2]) == p {
				l.emit(checkers.TokPunct, i, i+2)
				return i + 2
			}
		}
	}
	l.emit(checkers.TokPunct, i, i+1)
	return i + 1
}
