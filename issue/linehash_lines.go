package issue

import (
	"bytes"
	"encoding/binary"
)

// The scanner asks LineHashesAt for the few lines a file's findings are
// on. Rolling the hash through every unit up to the last of them costs a
// multiplication chain per byte; lineHashesByStart gets the same values
// from the lines' starts instead. A line's hash is a function of the 100
// kept units from its start (hashAt computes it directly), and its
// occurrence number counts the lines so far whose 100 units are the
// same. A line whose first 8 units already differ from a wanted line's
// cannot share its hash (short of a 64-bit collision between two windows
// of different text, which the rolling computation would count and this
// one would not), so the hash of an earlier line is computed only when
// its first 8 units match, or when neither line's first 8 units are all
// ASCII and inside the file.

// plainKeyLen is how many leading units a line's key holds.
const plainKeyLen = 8

// lineHashesByStart is LineHashesAt for a file without CR: lines end at
// LF only, so line n starts after the (n-1)th LF.
func lineHashesByStart(src []byte, lines map[int]bool) map[int]string {
	type wanted struct {
		line        int
		first       int // the line's first unit when ASCII, else -1
		key         uint64
		plain       bool
		hash        uint64
		occurrences int
	}
	last := 0
	for l := range lines {
		last = max(last, l)
	}
	starts := lineStarts(src, last)
	var ws []wanted
	for l := range lines {
		if l >= 1 && l <= len(starts) {
			key, plain := keyAt(src, starts[l-1])
			ws = append(ws, wanted{line: l, first: firstUnit(src, starts[l-1]), key: key, plain: plain, hash: hashAt(src, starts[l-1])})
		}
	}
	for i, p := range starts {
		// Most lines start with another unit than every wanted line:
		// their windows differ, and their keys need not be taken.
		first, may := firstUnit(src, p), false
		for k := range ws {
			if w := &ws[k]; i < w.line && (first < 0 || w.first < 0 || first == w.first) {
				may = true
				break
			}
		}
		if !may {
			continue
		}
		key, plain := keyAt(src, p)
		var h uint64
		hashed := false
		for k := range ws {
			// Lines whose first 8 units differ (one plain and the other
			// not, or two plain keys that differ) have different windows.
			w := &ws[k]
			if i >= w.line || plain != w.plain || plain && key != w.key {
				continue
			}
			if !hashed {
				h, hashed = hashAt(src, p), true
			}
			if h == w.hash {
				w.occurrences++
			}
		}
	}
	got := make(map[int]string, len(ws))
	for _, w := range ws {
		got[w.line] = FormatLineHash(w.hash, w.occurrences)
	}
	return got
}

// lineStarts returns the offsets of the first kept unit of lines 1..n
// (fewer when the file has fewer lines) of a file without CR: after the
// line's start, past spaces and tabs. An offset of len(src) is the end
// of the file, where the last line's first unit is the EOF marker.
func lineStarts(src []byte, n int) []int {
	starts := make([]int, 0, n)
	at := 0
	for len(starts) < n {
		p := at
		for p < len(src) && (src[p] == ' ' || src[p] == '\t') {
			p++
		}
		starts = append(starts, p)
		nl := bytes.IndexByte(src[at:], '\n')
		if nl < 0 {
			break
		}
		at += nl + 1
	}
	return starts
}

// keyAt returns the first 8 kept units of the line whose first unit is
// at p in a file without CR, packed one per byte, and whether they are
// all ASCII and inside the file (plain: no EOF marker among them). Plain
// keys are compared; lines whose keys are not plain are hashed.
func keyAt(src []byte, p int) (uint64, bool) {
	if p+plainKeyLen <= len(src) {
		// Usually the 8 bytes are the 8 units: no blank and no
		// non-ASCII byte among them.
		k := binary.LittleEndian.Uint64(src[p:])
		if k&0x8080808080808080 == 0 && !hasByte(k, ' ') && !hasByte(k, '\t') {
			return k, true
		}
	}
	var key uint64
	n := 0
	for q := p; n < plainKeyLen; q++ {
		if q >= len(src) || src[q] >= 0x80 {
			return 0, false
		}
		if b := src[q]; b != ' ' && b != '\t' {
			key |= uint64(b) << (8 * n)
			n++
		}
	}
	return key, true
}

// firstUnit returns the first kept unit of the line whose first unit is
// at p in a file without CR when it is an ASCII byte, and -1 when it is
// not (a non-ASCII character or the EOF marker).
func firstUnit(src []byte, p int) int {
	if p < len(src) && src[p] < 0x80 {
		return int(src[p])
	}
	return -1
}

// hasByte reports whether any byte of x (all below 0x80) is b.
func hasByte(x uint64, b byte) bool {
	const ones, high = 0x0101010101010101, 0x8080808080808080
	y := x ^ (ones * uint64(b)) // the bytes equal to b become zero
	return (y-ones)&^y&high != 0
}

// hashAt returns the hash of the line whose first kept unit is at p in a
// file without CR: the 100 kept units from p (blanks skipped, the EOF
// marker and zeros after the end), each weighted as the rolling hash
// weights them when the line's value is taken.
func hashAt(src []byte, p int) uint64 {
	var h uint64
	n := 0
	add := func(u uint16) {
		if n < hashBlock {
			h = hashMod*h + uint64(u)
			n++
		}
	}
	for p < len(src) && n < hashBlock {
		if b := src[p]; b < 0x80 {
			if b != ' ' && b != '\t' {
				h = hashMod*h + uint64(b)
				n++
			}
			p++
			continue
		}
		p += utf16Unit(src[p:], add)
	}
	if n < hashBlock {
		h = hashMod*h + hashEOF
		n++
	}
	for ; n < hashBlock; n++ {
		h *= hashMod
	}
	return h
}
