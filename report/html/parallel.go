package html

import (
	"bytes"
	"runtime"
	"sync"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
)

// A large Markdown report is converted in pieces, one per CPU, at the
// top-level headings that open a severity or file section; the page body
// is their outputs in order. goldmark renders a document block by block,
// so that is the body of the whole when each piece parses into the same
// blocks as its part of the whole and the two things that cross pieces
// come out the same:
//   - the automatic heading ids, numbered through the whole document
//     ("x", "x-1", ...): each piece's ids start from the headings of the
//     pieces before it, as read by a pass over the lines;
//   - severityClasses' state: the section's severity and whether the
//     page's own "# jsec report" heading was dropped.
//
// Both are checked after the conversion against what goldmark and the
// transformer actually did (every heading id asked for, every piece's
// final state), and on any difference the document is converted whole.
// The pieces parse as the whole does by where they start: a level 2 or 3
// heading at the start of a line, after a blank line, outside a fenced
// code block, in a document with no HTML block and no link reference
// definition, whose fences all start at the line's start (split says
// why). FuzzConvertPieces holds the output to the whole conversion.

// minPiece is the smallest piece worth its own goroutine; below twice
// this the document is converted whole.
const minPiece = 32 << 10

// maxPieces bounds the pieces however many CPUs there are: piece i's id
// generator is first fed the headings of the i pieces before it, so the
// feeding grows with the square of the pieces (and the report's other
// writers run at the same time anyway).
const maxPieces = 4

// piece is one part of the document to convert, with what the line pass
// expects of it.
type piece struct {
	start, end int
	headings   [][]byte    // the text of each heading in it, as goldmark takes it for the id
	from       classState  // severityClasses' state where it starts
	state      *classState // severityClasses' state where it ended
	ids        *checkedIDs
	out        bytes.Buffer
	err        error
}

// classState is severityClasses' state between pieces (through the parser
// context, under classStateKey).
type classState struct {
	current string // the severity of the section
	dropped bool   // the first level 1 heading was removed
}

var classStateKey = parser.NewContextKey()

// convert renders md into body: in pieces when it is large and splits
// cleanly, at once otherwise.
func convert(md []byte, body *bytes.Buffer) error {
	if pieces := split(md, min(runtime.NumCPU(), maxPieces), minPiece); len(pieces) > 1 {
		if ok, err := convertPieces(md, pieces, body); err != nil || ok {
			return err
		}
	}
	return converter.Convert(md, body)
}

// convertPieces converts the pieces at once and, when goldmark and the
// transformer did what split expected, writes their outputs into body and
// reports true.
func convertPieces(md []byte, pieces []*piece, body *bytes.Buffer) (bool, error) {
	var wg sync.WaitGroup
	for i, p := range pieces {
		seed := parser.NewContext().IDs()
		for _, q := range pieces[:i] {
			for _, h := range q.headings {
				seed.Generate(h, ast.KindHeading)
			}
		}
		p.ids = &checkedIDs{inner: seed, want: p.headings}
		st := p.from
		p.state = &st
		wg.Go(func() {
			ctx := parser.NewContext(parser.WithIDs(p.ids))
			ctx.Set(classStateKey, p.state)
			p.out.Grow(2 * (p.end - p.start))
			p.err = converter.Convert(md[p.start:p.end], &p.out, parser.WithContext(ctx))
		})
	}
	wg.Wait()
	for i, p := range pieces {
		if p.err != nil {
			return false, p.err
		}
		if p.ids.bad || p.ids.n != len(p.ids.want) || i > 0 && *pieces[i-1].state != p.from {
			return false, nil
		}
	}
	for _, p := range pieces {
		body.Write(p.out.Bytes())
	}
	return true, nil
}

// checkedIDs hands out goldmark's heading ids, from a generator that has
// seen the earlier pieces' headings, and notes whether this piece asked
// for exactly the ids split expected.
type checkedIDs struct {
	inner parser.IDs
	want  [][]byte
	n     int
	bad   bool
}

func (c *checkedIDs) Generate(value []byte, kind ast.NodeKind) []byte {
	if kind != ast.KindHeading || c.n >= len(c.want) || !bytes.Equal(bytes.TrimSpace(value), bytes.TrimSpace(c.want[c.n])) {
		c.bad = true
	}
	c.n++
	return c.inner.Generate(value, kind)
}

func (c *checkedIDs) Put(value []byte) {
	c.bad = true // ids given in the text: not expected (no heading attributes)
	c.inner.Put(value)
}

// split cuts md into up to n pieces of at least min bytes at the
// starts of level 2 and 3 headings, or returns nil when md is too small or
// holds something that could make a piece parse otherwise than its part
// of the whole. A heading line at the line's start begins a top-level
// block in the whole document (it interrupts a paragraph and ends a list
// item, a quote or a table) unless a fenced code block or an HTML block is
// open there: fences are followed (only those at the line's start are
// allowed, so that none opens inside a list item and goes on after it),
// and a line that may open an HTML block gives up, as does one that may
// define a link reference, which the whole document would share. The
// blank line asked for before a cut is a margin on top of that.
func split(md []byte, n, minPiece int) []*piece {
	n = min(n, len(md)/minPiece)
	if n < 2 {
		return nil
	}
	type heading struct {
		at, level int
		text      []byte
		cut       bool // may start a piece
	}
	var hs []heading
	var fence byte
	fenceLen := 0
	blank := true
	for at := 0; at < len(md); {
		end := bytes.IndexByte(md[at:], '\n') + at + 1
		if end <= at {
			end = len(md)
		}
		line := md[at:end]
		ind, rest := indentOf(line)
		prevBlank := blank
		blank = len(bytes.TrimSpace(line)) == 0
		switch {
		case fence != 0:
			if ind < 4 && closesFence(rest, fence, fenceLen) {
				fence = 0
			}
		case ind >= 4 || blank:
		case rest[0] == '<' || rest[0] == '[' && bytes.Contains(rest, []byte("]:")):
			return nil
		case rest[0] == '`' || rest[0] == '~':
			if c, k := fenceOpens(rest); k > 0 {
				if ind > 0 {
					return nil
				}
				fence, fenceLen = c, k
			}
		case rest[0] == '#':
			if level, text, ok := atxHeading(rest); ok {
				hs = append(hs, heading{at, level, text, ind == 0 && prevBlank && (level == 2 || level == 3)})
			}
		}
		at = end
	}
	var pieces []*piece
	start, st, h := 0, classState{}, 0
	for k := 1; k <= n; k++ {
		end := len(md)
		if k < n {
			target := len(md) * k / n
			for end = -1; h < len(hs) && end < 0; h++ {
				if hs[h].cut && hs[h].at >= target && hs[h].at-start >= minPiece {
					end = hs[h].at
				}
			}
			if end < 0 || len(md)-end < minPiece {
				end = len(md)
			}
		}
		p := &piece{start: start, end: end, from: st}
		for _, x := range hs {
			if x.at < start || x.at >= end {
				continue
			}
			p.headings = append(p.headings, x.text)
			switch x.level {
			case 1:
				st.dropped = true
			case 2:
				st.current = severityName(string(bytes.SplitN(x.text, []byte(" "), 2)[0]))
			}
		}
		pieces = append(pieces, p)
		if start = end; start == len(md) {
			break
		}
	}
	return pieces
}

// indentOf returns the columns of white space a line starts with (tabs
// to the next multiple of 4) and the rest of the line.
func indentOf(line []byte) (int, []byte) {
	col := 0
	for i, c := range line {
		switch c {
		case ' ':
			col++
		case '\t':
			col += 4 - col%4
		default:
			return col, line[i:]
		}
	}
	return col, nil
}

// fenceOpens returns the character and length of the fence that rest
// opens, or 0 (CommonMark: three or more backticks or tildes; a backtick
// fence's info string holds no backtick).
func fenceOpens(rest []byte) (byte, int) {
	c := rest[0]
	k := 0
	for k < len(rest) && rest[k] == c {
		k++
	}
	if k < 3 || c == '`' && bytes.IndexByte(rest[k:], '`') >= 0 {
		return 0, 0
	}
	return c, k
}

// closesFence reports whether rest closes a fence of n characters c: as
// many or more, then only white space.
func closesFence(rest []byte, c byte, n int) bool {
	k := 0
	for k < len(rest) && rest[k] == c {
		k++
	}
	return k >= n && len(bytes.TrimSpace(rest[k:])) == 0
}

// atxHeading parses rest, a line without its indentation, as an ATX
// heading: its level and the text goldmark takes its id from (the closing
// run of #s and the white space around removed).
func atxHeading(rest []byte) (int, []byte, bool) {
	line := bytes.TrimRight(rest, "\r\n")
	level := 0
	for level < len(line) && line[level] == '#' {
		level++
	}
	if level > 6 || level < len(line) && line[level] != ' ' && line[level] != '\t' {
		return 0, nil, false
	}
	text := bytes.TrimSpace(line[level:])
	if i := len(text) - 1; i >= 0 && text[i] == '#' {
		for i >= 0 && text[i] == '#' {
			i--
		}
		if i < 0 {
			text = nil // "### ###": an empty heading
		} else if text[i] == ' ' || text[i] == '\t' {
			text = bytes.TrimSpace(text[:i])
		}
	}
	return level, text, true
}
