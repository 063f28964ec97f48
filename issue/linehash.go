package issue

import (
	"bytes"
	"strconv"
	"strings"
)

// This file ports the rolling hash of github/codeql-action src/fingerprints.ts,
// which upload-sarif uses to fill in partialFingerprints.primaryLocationLineHash
// and which GitHub combines with the repository, path and rule into an alert's
// identity. Filling it in ourselves, the same way, means a SARIF file sent
// through the REST API (which computes nothing) dedupes exactly like one sent
// through upload-sarif, and upload-sarif finds nothing to disagree with.
//
// The algorithm, kept step for step:
//   - the file is decoded as UTF-8 (invalid bytes become U+FFFD, as in Node)
//     and read as UTF-16 code units, like JavaScript's charCodeAt;
//   - spaces and tabs are skipped; CR and CRLF become LF;
//   - a line's hash is the polynomial hash (base 37, wrapping at 2^64) of the
//     100 kept code units that start at the line's first kept unit, running on
//     into the following lines; the end of the file is one unit 65535
//     followed by zeros;
//   - the value is the hash in lower-case hex without leading zeros, then ":"
//     and how many lines of the file so far, this one included, had that hash.

const (
	hashBlock = 100   // BLOCK_SIZE
	hashMod   = 37    // MOD
	hashEOF   = 65535 // EOF
)

// hashFirstMod is MOD^BLOCK_SIZE, the weight of the unit that leaves the window.
var hashFirstMod = func() uint64 {
	m := uint64(1)
	for range hashBlock {
		m *= hashMod
	}
	return m
}()

// lineHasher is the state of fingerprints.ts's hash function.
type lineHasher struct {
	window [hashBlock]uint64
	// lines holds, for each window slot, the line that starts there, or 0.
	lines     [hashBlock]int
	hash      uint64
	index     int
	line      int
	lineStart bool
	prevCR    bool
	counts    map[uint64]int
	emit      func(line int, hash uint64, occurrence int) bool
	done      bool // emit asked to stop
}

// HashLines calls emit once for every line of src, in order, with the raw
// hash and its occurrence number (1 for the first line with that hash).
// Like the original, it numbers one line more than a file that ends in a
// newline has: the empty line after it.
// emit returns false when it needs no more lines.
func HashLines(src []byte, emit func(line int, hash uint64, occurrence int) bool) {
	hashLines(src, map[uint64]int{}, emit)
}

// hashLines is HashLines; with counts nil it passes 0 as every occurrence
// number (LineHashesAt counts only the lines it wants).
func hashLines(src []byte, counts map[uint64]int, emit func(line int, hash uint64, occurrence int) bool) {
	h := &lineHasher{lineStart: true, counts: counts, emit: emit}
	for i := 0; i < len(src) && !h.done; {
		if b := src[i]; b < 0x80 {
			// Most bytes are printable ASCII in the middle of a line, where
			// char would only roll the hash: roll a run of them here, with
			// the hash and the index in locals.
			if b > ' ' && !h.lineStart && !h.prevCR && h.lines[h.index] == 0 {
				i = h.rollRun(src, i)
			} else if b == ' ' || b == '\t' {
				h.prevCR = false // blanks are not hashed (as in char)
				i++
			} else {
				h.char(uint16(b))
				i++
			}
			continue
		}
		n := utf16Unit(src[i:], h.char)
		i += n
	}
	h.finish()
}

// rollRun rolls the printable ASCII bytes from src[i] on into the hash
// while no line's window completes (update for each), and returns where
// it stopped.
func (h *lineHasher) rollRun(src []byte, i int) int {
	hash, idx := h.hash, h.index
	for ; i < len(src); i++ {
		b := src[i]
		if b <= ' ' || b >= 0x80 || h.lines[idx] != 0 {
			break
		}
		begin := h.window[idx]
		h.window[idx] = uint64(b)
		hash = hashMod*hash + uint64(b) - hashFirstMod*begin
		if idx++; idx == hashBlock {
			idx = 0
		}
	}
	h.hash, h.index = hash, idx
	return i
}

// finish feeds the end of the file: the EOF unit, then zeros until every
// line's window has been emitted.
func (h *lineHasher) finish() {
	if h.done {
		return
	}
	h.char(hashEOF)
	for range hashBlock {
		if h.lines[h.index] != 0 {
			h.output()
		}
		h.update(0)
	}
}

// LineHashes returns primaryLocationLineHash for every line of a file's
// contents: LineHashes(src)[n-1] is the value for line n.
func LineHashes(src []byte) []string {
	var out []string
	HashLines(src, func(_ int, hash uint64, n int) bool {
		out = append(out, FormatLineHash(hash, n))
		return true
	})
	return out
}

// FormatLineHash renders a line's hash and occurrence number as GitHub
// does: lower-case hex, ":", the number.
func FormatLineHash(hash uint64, occurrence int) string {
	return strconv.FormatUint(hash, 16) + ":" + strconv.Itoa(occurrence)
}

func (h *lineHasher) output() {
	n := 0
	if h.counts != nil {
		h.counts[h.hash]++
		n = h.counts[h.hash]
	}
	if !h.emit(h.lines[h.index], h.hash, n) {
		h.done = true
	}
	h.lines[h.index] = 0
}

func (h *lineHasher) update(c uint64) {
	begin := h.window[h.index]
	h.window[h.index] = c
	h.hash = hashMod*h.hash + c - hashFirstMod*begin
	if h.index++; h.index == hashBlock {
		h.index = 0
	}
}

func (h *lineHasher) char(c uint16) {
	if c == ' ' || c == '\t' || (h.prevCR && c == '\n') {
		h.prevCR = false
		return
	}
	if c == '\r' {
		c = '\n'
		h.prevCR = true
	} else {
		h.prevCR = false
	}
	if h.lines[h.index] != 0 {
		h.output()
	}
	if h.lineStart {
		h.lineStart = false
		h.line++
		h.lines[h.index] = h.line
	}
	if c == '\n' {
		h.lineStart = true
	}
	h.update(uint64(c))
}

// utf16Units decodes src as UTF-8 the way Node does (WHATWG: each maximal
// invalid subpart becomes one U+FFFD; a byte order mark is kept) and calls
// fn with each UTF-16 code unit. Go's own decoder differs on truncated
// sequences (one U+FFFD per byte), which would change the hash of files
// in Latin-1 and other legacy encodings.
func utf16Units(src []byte, fn func(uint16)) {
	for i := 0; i < len(src); {
		i += utf16Unit(src[i:], fn)
	}
}

// utf16Unit decodes the character at the start of s, calls fn with its
// UTF-16 code units and returns the bytes it took.
func utf16Unit(s []byte, fn func(uint16)) int {
	if s[0] < 0x80 {
		fn(uint16(s[0]))
		return 1
	}
	r, n := decodeWHATWG(s)
	if r >= 0x10000 {
		r -= 0x10000
		fn(uint16(0xD800 + r>>10))
		fn(uint16(0xDC00 + r&0x3FF))
		return n
	}
	fn(uint16(r))
	return n
}

// decodeWHATWG decodes one non-ASCII sequence at the start of s and
// returns the code point (U+FFFD when invalid) and the bytes consumed.
func decodeWHATWG(s []byte) (rune, int) {
	b := s[0]
	var need int
	var cp rune
	lo, hi := byte(0x80), byte(0xBF)
	switch {
	case b >= 0xC2 && b <= 0xDF:
		need, cp = 1, rune(b&0x1F)
	case b >= 0xE0 && b <= 0xEF:
		need, cp = 2, rune(b&0x0F)
		if b == 0xE0 {
			lo = 0xA0
		} else if b == 0xED {
			hi = 0x9F
		}
	case b >= 0xF0 && b <= 0xF4:
		need, cp = 3, rune(b&0x07)
		if b == 0xF0 {
			lo = 0x90
		} else if b == 0xF4 {
			hi = 0x8F
		}
	default:
		return 0xFFFD, 1
	}
	n := 1
	for ; need > 0; need-- {
		if n >= len(s) || s[n] < lo || s[n] > hi {
			return 0xFFFD, n
		}
		cp = cp<<6 | rune(s[n]&0x3F)
		lo, hi = 0x80, 0xBF
		n++
	}
	return cp, n
}

// SnippetLineHash computes the hash of line from the lines of a snippet,
// as if the snippet (each line ending in a newline) were the whole file.
// It equals the value computed from the file when the snippet runs on for
// at least 100 non-blank characters past the line's start, or reaches the
// file's end, and when no earlier line of the file has the same hash; it
// is "" when line is not in the snippet.
func SnippetLineHash(startLine int, lines []string, line int) string {
	if line < startLine || line >= startLine+len(lines) {
		return ""
	}
	src := strings.Join(lines, "\n") + "\n"
	want := line - startLine + 1
	var out string
	HashLines([]byte(src), func(n int, hash uint64, occ int) bool {
		if n == want {
			out = FormatLineHash(hash, occ)
			return false
		}
		return true
	})
	return out
}

// LineHashesAt returns the primaryLocationLineHash of the given lines of a
// file's contents, hashing only as far as the last of them (the
// occurrence counts need every line before it).
func LineHashesAt(src []byte, lines map[int]bool) map[int]string {
	last := 0
	for l := range lines {
		last = max(last, l)
	}
	if len(lines)*last <= lineCountScanMax && bytes.IndexByte(src, '\r') < 0 {
		return lineHashesByStart(src, lines)
	}
	// The hashes of lines 1..last; the occurrence number of a wanted line
	// is counted on them afterwards, which costs less than a map update
	// per line.
	hashes := make([]uint64, 0, last)
	hashLines(src, nil, func(line int, hash uint64, _ int) bool {
		hashes = append(hashes, hash)
		return line < last
	})
	got := make(map[int]string, len(lines))
	if len(lines)*len(hashes) > lineCountScanMax {
		// Many wanted lines (a generated file with thousands of findings):
		// one pass counting every hash instead of a pass per line.
		seen := make(map[uint64]int, len(hashes))
		for i, h := range hashes {
			seen[h]++
			if lines[i+1] {
				got[i+1] = FormatLineHash(h, seen[h])
			}
		}
		return got
	}
	for l := range lines {
		if l < 1 || l > len(hashes) {
			continue
		}
		h, n := hashes[l-1], 0
		for _, x := range hashes[:l] {
			if x == h {
				n++
			}
		}
		got[l] = FormatLineHash(h, n)
	}
	return got
}

// lineCountScanMax bounds the work of LineHashesAt's pass per wanted line
// (wanted lines times lines hashed); past it one pass counts them all. A
// variable so that tests can take both ways.
var lineCountScanMax = 1 << 22
