package c

import (
	"bytes"

	"github.com/jsec/jsec/checkers"
)

// directiveEnd returns the offset just past the logical line that starts at
// i: backslash-newline continues it, and so does a block comment; a
// string's contents cannot end it.
func directiveEnd(src []byte, i int) int {
	n := len(src)
	for i < n {
		if !directiveBytes[src[i]] {
			i++ // most of a line: one load per byte
			continue
		}
		switch c := src[i]; {
		case c == '\\' && i+1 < n && src[i+1] == '\n':
			i += 2
		case c == '\\' && i+2 < n && src[i+1] == '\r' && src[i+2] == '\n':
			i += 3
		case c == '/' && i+1 < n && src[i+1] == '*':
			j := bytes.Index(src[i+2:], []byte("*/"))
			if j < 0 {
				return n
			}
			i += j + 4
		case c == '/' && i+1 < n && src[i+1] == '/':
			for i < n && src[i] != '\n' {
				i++
			}
			return i
		case c == '"' || c == '\'':
			i++
			for i < n && src[i] != c && src[i] != '\n' {
				if src[i] == '\\' {
					i++
				}
				i++
			}
			if i < n && src[i] == c {
				i++
			}
		case c == '\n':
			return i
		default:
			i++
		}
	}
	return n
}

// directiveBytes marks the bytes directiveEnd looks at: the others cannot
// end or continue a directive's line.
var directiveBytes = [256]bool{'\\': true, '/': true, '"': true, '\'': true, '\n': true}

// directiveName splits "# if  0 // x" into its name ("if") and the
// condition text with comments and blanks removed ("0").
func directiveName(line []byte) (name string, rest []byte) {
	name, j := directiveWord(line)
	var b []byte
	for k := j; k < len(line); k++ {
		c := line[k]
		if c == '/' && k+1 < len(line) && (line[k+1] == '/' || line[k+1] == '*') {
			if line[k+1] == '/' {
				break
			}
			e := bytes.Index(line[k+2:], []byte("*/"))
			if e < 0 {
				break
			}
			k += e + 3
			continue
		}
		if c == ' ' || c == '\t' || c == '\\' || c == '\r' || c == '\n' {
			continue
		}
		b = append(b, c)
	}
	return name, b
}

// directiveWord returns the name of the directive line ("if" for
// "#  if 0") and the offset just past it, without allocating for the
// standard directives.
func directiveWord(line []byte) (name string, end int) {
	i := 1
	for i < len(line) && (line[i] == ' ' || line[i] == '\t') {
		i++
	}
	j := i
	for j < len(line) && IdentByte(line[j]) {
		j++
	}
	switch w := line[i:j]; string(w) {
	case "if":
		return "if", j
	case "ifdef":
		return "ifdef", j
	case "ifndef":
		return "ifndef", j
	case "elif":
		return "elif", j
	case "else":
		return "else", j
	case "endif":
		return "endif", j
	case "define":
		return "define", j
	case "undef":
		return "undef", j
	case "include":
		return "include", j
	case "pragma":
		return "pragma", j
	case "":
		return "", j
	default:
		return string(w), j
	}
}

func constantCond(expr []byte) (value, constant bool) {
	for len(expr) >= 2 && expr[0] == '(' && expr[len(expr)-1] == ')' {
		expr = expr[1 : len(expr)-1]
	}
	switch string(expr) {
	case "0", "false", "0L", "0U":
		return false, true
	case "1", "true", "1L", "1U":
		return true, true
	}
	return false, false
}

// directive handles a preprocessor line at i and returns where lexing
// resumes. Dead code is skipped without producing tokens.
func (l *lexer) directive(i int) int {
	end := directiveEnd(l.src, i)
	name, _ := directiveWord(l.src[i:end])
	switch name {
	case "if", "ifdef", "ifndef":
		v, ok := false, false
		if name == "if" {
			_, expr := directiveName(l.src[i:end])
			v, ok = constantCond(expr)
		}
		if ok && !v {
			// "#if 0": skip to the matching #else/#elif/#endif.
			next, stop := skipDead(l.src, end)
			l.dead = append(l.dead, checkers.Span{Start: i, End: next})
			if stop == "else" {
				// The #else branch is the only live one: an ordinary branch.
				l.conds = append(l.conds, cond{hidden: true})
			}
			return next
		} else if ok && v {
			l.conds = append(l.conds, cond{one: true, hidden: true})
			l.dead = append(l.dead, checkers.Span{Start: i, End: end})
		} else {
			l.conds = append(l.conds, cond{})
		}
	case "else", "elif", "elifdef", "elifndef":
		if k := len(l.conds); k > 0 {
			top := &l.conds[k-1]
			if top.one {
				// "#if 1 ... #else": the rest up to #endif is dead.
				next, _ := skipToEndif(l.src, i)
				l.dead = append(l.dead, checkers.Span{Start: i, End: next})
				l.popCond()
				return next
			}
			if !top.alt {
				top.alt = true
				l.alt++
			}
		}
	case "endif":
		if k := len(l.conds); k > 0 && l.conds[k-1].hidden {
			l.dead = append(l.dead, checkers.Span{Start: i, End: end})
		}
		l.popCond()
	}
	l.facts.directives = append(l.facts.directives, int32(len(l.toks)))
	l.braces.directive(name)
	l.emit(checkers.TokPreproc, i, end)
	return end
}

func (l *lexer) popCond() {
	k := len(l.conds)
	if k == 0 {
		return
	}
	if l.conds[k-1].alt {
		l.alt--
	}
	l.conds = l.conds[:k-1]
}

// skipDead skips the dead branch of "#if 0" starting at i and returns the
// offset after the directive that ends it and that directive's name
// ("else", "elif" or "endif"; "" at end of file).
func skipDead(src []byte, i int) (int, string) {
	depth := 0
	for i < len(src) {
		j := i
		for j < len(src) && (src[j] == ' ' || src[j] == '\t') {
			j++
		}
		if j < len(src) && src[j] == '#' {
			end := directiveEnd(src, j)
			name, _ := directiveWord(src[j:end])
			switch name {
			case "if", "ifdef", "ifndef":
				depth++
			case "endif":
				if depth == 0 {
					return end, "endif"
				}
				depth--
			case "else", "elif", "elifdef", "elifndef":
				if depth == 0 {
					return end, "else"
				}
			}
			i = end
		}
		// Skip to the next line, stepping over comments that hide a '#'.
		for i < len(src) && src[i] != '\n' {
			if src[i] == '/' && i+1 < len(src) && src[i+1] == '*' {
				k := bytes.Index(src[i+2:], []byte("*/"))
				if k < 0 {
					return len(src), ""
				}
				i += k + 4
				continue
			}
			i++
		}
		i++
	}
	return len(src), ""
}

// skipToEndif skips to the #endif that closes the current conditional.
func skipToEndif(src []byte, i int) (int, string) {
	for {
		next, stop := skipDead(src, i)
		if stop != "else" {
			return next, stop
		}
		i = next
	}
}
