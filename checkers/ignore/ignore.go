// Package ignore implements .gitignore pattern matching: negation,
// directory-only patterns, anchoring, "**", character classes, and the
// precedence of nested ignore files (a deeper file overrides a shallower
// one; a later line overrides an earlier one).
package ignore

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"
	"unicode/utf8"
)

// Pattern is one compiled line of an ignore file.
type Pattern struct {
	// Source is the line as written, for diagnostics.
	Source  string
	Line    int
	negate  bool
	dirOnly bool
	// segs is the pattern split at its slashes when every part is a
	// plain glob (literal text, "*" and "?"): the usual line of an
	// ignore file ("*.o", "/git-add", "build/", "docs/*.tmp") is then
	// matched component by component, without a regular expression.
	// re is nil then; otherwise segs is nil and re does the matching.
	segs     []string
	shapes   []shape // of each part of segs
	anchored bool
	re       *regexp.Regexp
}

// Matcher holds the patterns of one ignore file, which apply to paths
// relative to the directory that holds it.
type Matcher struct {
	patterns []Pattern
	// Most lines of an ignore file name one file or directory: "/git-add"
	// (rooted: rel's first component) or "core" (any component). Those
	// are looked up by name: rooted and names map a name to the last
	// such line, and rest lists the others' indices, in order.
	rooted, names map[string]lastLine
	rest          []int32
}

// lastLine is one more than the index of the last pattern naming a
// name, among all (for a directory) and among those that are not
// directory-only (for a file); 0 when there is none.
type lastLine struct{ any, file int32 }

// Parse compiles the lines of an ignore file. Lines that do not compile
// (an unterminated "[") are reported in errs and skipped, as git does.
func Parse(data []byte) (m *Matcher, errs []error) {
	m = &Matcher{}
	n := 0
	eachLine(data, func(line string) {
		n++
		p, ok, err := compile(line)
		if err != nil {
			errs = append(errs, fmt.Errorf("line %d: %w", n, err))
			return
		}
		if ok {
			p.Line = n
			m.add(p)
		}
	})
	return m, errs
}

// maxLine is the length at which a line ends the parse: the lines from
// it on are ignored (bufio.Scanner's ErrTooLong at a 1 MB buffer, which
// Parse used before).
const maxLine = 1 << 20

// eachLine calls f with each line of data, as bufio.ScanLines splits
// them (without the "\n", and without a "\r" before it), up to the
// first line of maxLine bytes or more. It cuts the lines out of data
// itself: a scanner's buffer was 64 KB of fresh memory for each ignore
// file (2.3 MB for git's 35), and fresh memory is what costs on a
// virtual machine, about 3 ms of CPU per 2 MB page the kernel hands out.
func eachLine(data []byte, f func(string)) {
	for len(data) > 0 {
		line, rest, _ := bytes.Cut(data, []byte{'\n'})
		if len(line) >= maxLine {
			return
		}
		data = rest
		if n := len(line); n > 0 && line[n-1] == '\r' {
			line = line[:n-1]
		}
		f(string(line))
	}
}

// add appends a pattern, indexing it by name when it is one.
func (m *Matcher) add(p Pattern) {
	i := int32(len(m.patterns))
	m.patterns = append(m.patterns, p)
	if len(p.segs) != 1 || strings.ContainsAny(p.segs[0], "*?") {
		m.rest = append(m.rest, i)
		return
	}
	idx := &m.names
	if p.anchored {
		idx = &m.rooted
	}
	if *idx == nil {
		*idx = map[string]lastLine{}
	}
	l := (*idx)[p.segs[0]]
	l.any = i + 1
	if !p.dirOnly {
		l.file = i + 1
	}
	(*idx)[p.segs[0]] = l
}

// MustParse is Parse for built-in pattern lists; it panics on a bad line.
func MustParse(lines ...string) *Matcher {
	m, errs := Parse([]byte(strings.Join(lines, "\n")))
	if len(errs) > 0 {
		panic(errs[0])
	}
	return m
}

// Len returns the number of patterns.
func (m *Matcher) Len() int { return len(m.patterns) }

// Match reports whether rel (slash-separated, relative to the ignore
// file's directory) is ignored (ignored=true) or re-included (false) by
// the last pattern that matches it; matched is false when none does.
func (m *Matcher) Match(rel string, isDir bool) (ignored, matched bool) {
	if m == nil {
		return false, false
	}
	best := int32(-1)
	pick := func(l lastLine) {
		i := l.file
		if isDir {
			i = l.any
		}
		best = max(best, i-1)
	}
	if m.rooted != nil {
		first, _, _ := strings.Cut(rel, "/")
		pick(m.rooted[first])
	}
	if m.names != nil {
		for c := range strings.SplitSeq(rel, "/") {
			pick(m.names[c])
		}
	}
	for j := len(m.rest) - 1; j >= 0 && m.rest[j] > best; j-- {
		p := &m.patterns[m.rest[j]]
		if (!p.dirOnly || isDir) && p.match(rel) {
			best = m.rest[j]
			break
		}
	}
	if best < 0 {
		return false, false
	}
	return !m.patterns[best].negate, true
}

func compile(line string) (Pattern, bool, error) {
	p := Pattern{Source: line}
	line = strings.TrimSuffix(line, "\r")
	// Trailing spaces are ignored unless escaped.
	for strings.HasSuffix(line, " ") && !strings.HasSuffix(line, "\\ ") {
		line = line[:len(line)-1]
	}
	if line == "" || strings.HasPrefix(line, "#") {
		return p, false, nil
	}
	if strings.HasPrefix(line, "!") {
		p.negate = true
		line = line[1:]
	} else if strings.HasPrefix(line, "\\!") || strings.HasPrefix(line, "\\#") {
		line = line[1:]
	}
	if strings.HasSuffix(line, "/") {
		p.dirOnly = true
		line = strings.TrimRight(line, "/")
	}
	if line == "" {
		return p, false, nil
	}
	// A slash anywhere but at the end anchors the pattern to the file's
	// directory; otherwise it matches a name at any depth.
	anchored := strings.Contains(line, "/")
	line = strings.TrimPrefix(line, "/")
	p.anchored = anchored
	if plainGlob(line) {
		p.segs = strings.Split(line, "/")
		for _, g := range p.segs {
			p.shapes = append(p.shapes, shapeOf(g))
		}
		return p, true, nil
	}
	var err error
	p.re, err = compileRegexp(line, anchored)
	if err != nil {
		return p, false, err
	}
	return p, true, nil
}

// compileRegexp is the regular expression of a pattern's glob (its
// leading slash and trailing slashes removed).
func compileRegexp(glob string, anchored bool) (*regexp.Regexp, error) {
	body, err := translate(glob)
	if err != nil {
		return nil, err
	}
	// (?s): a name may hold a newline, which "." matches then too.
	prefix := "(?s)^(?:.*/)?"
	if anchored {
		prefix = "(?s)^"
	}
	// A pattern that names a directory also covers everything under it.
	return regexp.Compile(prefix + body + "(?:/.*)?$")
}

// plainGlob reports whether a glob uses only literal text, "*" and "?"
// (no escape, class or "**"), in valid UTF-8 without U+FFFD (which a
// regular expression would also match against an invalid byte).
func plainGlob(g string) bool {
	return !strings.ContainsAny(g, "\\[\uFFFD") && !strings.Contains(g, "**") && utf8.ValidString(g)
}

// match reports whether the pattern matches rel. A plain unanchored
// pattern (one part, no slash) matches rel when one of its components
// does; an anchored one when rel's first components match its parts in
// order. Whatever follows is inside what was matched.
func (p *Pattern) match(rel string) bool {
	if p.segs == nil {
		return p.re.MatchString(rel)
	}
	if !p.anchored {
		seg, sh := p.segs[0], p.shapes[0]
		for {
			i := strings.IndexByte(rel, '/')
			if i < 0 {
				return sh.match(seg, rel)
			}
			if sh.match(seg, rel[:i]) {
				return true
			}
			rel = rel[i+1:]
		}
	}
	for k, seg := range p.segs {
		i := strings.IndexByte(rel, '/')
		if i < 0 {
			return k == len(p.segs)-1 && p.shapes[k].match(seg, rel)
		}
		if !p.shapes[k].match(seg, rel[:i]) {
			return false
		}
		rel = rel[i+1:]
	}
	return true
}

// shape is how a plain glob is matched: the usual shapes ("name",
// "*.ext") by comparison, the others by globMatch.
type shape uint8

const (
	literal shape = iota
	suffix        // "*" and a literal
	wild
)

func shapeOf(glob string) shape {
	switch {
	case !strings.ContainsAny(glob, "*?"):
		return literal
	case glob[0] == '*' && !strings.ContainsAny(glob[1:], "*?"):
		return suffix
	}
	return wild
}

func (sh shape) match(glob, name string) bool {
	switch sh {
	case literal:
		return glob == name
	case suffix:
		return strings.HasSuffix(name, glob[1:])
	}
	return globMatch(glob, name)
}

// globMatch matches a name (no slash) against a glob of literal text,
// "*" (any run of characters) and "?" (one character: one UTF-8
// sequence, or one byte that is not part of a valid one).
func globMatch(glob, name string) bool {
	// Greedy matching with backtracking to the last star: each star
	// absorbs one more character when what follows it fails.
	gi, ni := 0, 0
	starG, starN := -1, 0
	for ni < len(name) {
		if gi < len(glob) {
			switch c := glob[gi]; c {
			case '*':
				starG, starN = gi, ni
				gi++
				continue
			case '?':
				_, n := utf8.DecodeRuneInString(name[ni:])
				gi++
				ni += n
				continue
			default:
				if c == name[ni] {
					gi++
					ni++
					continue
				}
			}
		}
		if starG < 0 {
			return false
		}
		_, n := utf8.DecodeRuneInString(name[starN:])
		starN += n
		gi, ni = starG+1, starN
	}
	for gi < len(glob) && glob[gi] == '*' {
		gi++
	}
	return gi == len(glob)
}

// translate turns a glob into a regexp body.
func translate(g string) (string, error) {
	var b strings.Builder
	for i := 0; i < len(g); i++ {
		c := g[i]
		switch {
		case c == '\\' && i+1 < len(g):
			i++
			b.WriteString(regexp.QuoteMeta(string(g[i])))
		case c == '*' && strings.HasPrefix(g[i:], "**"):
			atStart := i == 0 || g[i-1] == '/'
			j := i + 2
			atEnd := j == len(g) || g[j] == '/'
			if atStart && atEnd {
				if j < len(g) { // "**/": zero or more directories
					b.WriteString("(?:.*/)?")
					i = j
				} else { // trailing "**": everything inside
					b.WriteString(".*")
					i = j - 1
				}
			} else {
				b.WriteString("[^/]*")
				i = j - 1
			}
		case c == '*':
			b.WriteString("[^/]*")
		case c == '?':
			b.WriteString("[^/]")
		case c == '[':
			j := i + 1
			if j < len(g) && (g[j] == '!' || g[j] == '^') {
				j++
			}
			if j < len(g) && g[j] == ']' {
				j++
			}
			for j < len(g) && g[j] != ']' {
				j++
			}
			if j >= len(g) {
				return "", fmt.Errorf("unterminated character class in %q", g)
			}
			class := g[i+1 : j]
			if strings.HasPrefix(class, "!") {
				class = "^" + class[1:]
			}
			class = strings.ReplaceAll(class, `\`, `\\`)
			b.WriteString("[" + class + "]")
			i = j
		case c >= utf8.RuneSelf && utf8.FullRuneInString(g[i:]):
			// A multi-byte character is one literal, not one per byte.
			r, n := utf8.DecodeRuneInString(g[i:])
			if r == utf8.RuneError && n == 1 {
				b.WriteString(regexp.QuoteMeta(string(rune(c))))
				break
			}
			b.WriteString(regexp.QuoteMeta(g[i : i+n]))
			i += n - 1
		default:
			b.WriteString(regexp.QuoteMeta(string(rune(c))))
		}
	}
	return b.String(), nil
}

// Layer is an ignore file together with the root-relative directory it
// lives in.
type Layer struct {
	Dir     string // "" for the root
	Matcher *Matcher
}

// Stack is the chain of ignore files that apply to a directory, shallowest
// first. It is immutable: With returns a new stack.
type Stack []Layer

// With returns the stack extended by a deeper layer.
func (s Stack) With(l Layer) Stack {
	out := make(Stack, len(s), len(s)+1)
	copy(out, s)
	return append(out, l)
}

// Ignored reports whether the root-relative path rel is ignored: the
// deepest layer with a matching pattern decides.
func (s Stack) Ignored(rel string, isDir bool) bool {
	for i := len(s) - 1; i >= 0; i-- {
		l := s[i]
		sub := rel
		if l.Dir != "" {
			if !strings.HasPrefix(rel, l.Dir+"/") {
				continue
			}
			sub = rel[len(l.Dir)+1:]
		}
		if ign, ok := l.Matcher.Match(sub, isDir); ok {
			return ign
		}
	}
	return false
}
