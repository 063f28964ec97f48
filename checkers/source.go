package checkers

import (
	"bytes"
	"sort"
	"strings"
	"unicode/utf8"
)

// Lines indexes the line starts of a source for offset → line/column.
type Lines []int

// NewLines indexes src. Lines end at "\n"; a "\r" before it belongs to the
// line's end, so CRLF files report the same positions as LF files.
func NewLines(src []byte) Lines { return appendLines(nil, src) }

// appendLines builds src's line index into buf's storage when it is big
// enough.
func appendLines(buf Lines, src []byte) Lines {
	n := bytes.Count(src, nl) + 1
	l := buf[:0]
	if cap(l) < n {
		l = make(Lines, 0, Headroom(n))
	}
	l = append(l, 0)
	for off := 0; ; {
		i := bytes.IndexByte(src[off:], '\n')
		if i < 0 {
			return l
		}
		off += i + 1
		l = append(l, off)
	}
}

var nl = []byte{'\n'}

// Line returns the 1-based line of byte offset off.
func (l Lines) Line(off int) int {
	return sort.Search(len(l), func(i int) bool { return l[i] > off })
}

// Position returns the 1-based line and column (in Unicode code points) of
// byte offset off.
func (l Lines) Position(src []byte, off int) (line, col int) {
	if off > len(src) {
		off = len(src)
	}
	line = l.Line(off)
	start := l[line-1]
	return line, utf8.RuneCount(src[start:off]) + 1
}

// Text returns line n (1-based) without its line ending.
func (l Lines) Text(src []byte, n int) string {
	if n < 1 || n > len(l) {
		return ""
	}
	start := l[n-1]
	end := len(src)
	if n < len(l) {
		end = l[n] - 1
	}
	if end < start {
		end = start
	}
	s := string(src[start:end])
	s = strings.TrimSuffix(s, "\r")
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "\uFFFD")
	}
	return s
}
