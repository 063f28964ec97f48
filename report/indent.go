package report

import (
	"bytes"
	"encoding/json"
	"io"
)

// EncodeJSON writes v as JSON indented by two spaces and followed by a
// newline, HTML characters unescaped: byte for byte what a json.Encoder
// with SetIndent("", "  ") and SetEscapeHTML(false) writes, in one Write
// and in a fraction of the time. (encoding/json indents with its validating
// scanner, one state-machine step per byte: for report.sarif that took
// five times as long as the encoding itself, at the end of every scan.)
func EncodeJSON(w io.Writer, v any) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return err
	}
	_, err := w.Write(appendIndented(make([]byte, 0, buf.Len()+buf.Len()/2), buf.Bytes()))
	return err
}

// appendIndented appends src, compact JSON as encoding/json writes it (no
// white space outside strings but the newline after each value), to dst
// indented as json.Indent(dst, src, "", "  ") would.
func appendIndented(dst, src []byte) []byte {
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
