package checkers

import (
	"encoding/binary"
	"math/bits"
)

// wordTable maps the trigger words of a language's checkers to ids. The
// engine looks up every identifier token of a file in it, so a lookup is
// one hash of at most two 8-byte loads and, almost always, one probe of a
// table small enough to stay in cache: far cheaper than a multi-literal
// automaton over every byte, which also had to reject the matches inside
// longer identifiers afterwards.
type wordTable struct {
	words []string
	slots []wordSlot
	mask  uint32
}

// wordSlot holds a word id plus one (0 marks an empty slot) and its hash.
type wordSlot struct {
	hash uint32
	id   int32
}

// newWordTable indexes words; the id of a word is its index.
func newWordTable(words []string) *wordTable {
	size := 16
	for size < 4*len(words) {
		size *= 2
	}
	t := &wordTable{words: words, slots: make([]wordSlot, size), mask: uint32(size - 1)}
	for id, w := range words {
		if w == "" {
			continue
		}
		h := wordHash([]byte(w))
		i := h & t.mask
		for t.slots[i].id != 0 {
			i = (i + 1) & t.mask
		}
		t.slots[i] = wordSlot{hash: h, id: int32(id + 1)}
	}
	return t
}

// lookup returns the id of word b, or -1.
func (t *wordTable) lookup(b []byte) int {
	h := wordHash(b)
	for i := h & t.mask; ; i = (i + 1) & t.mask {
		s := t.slots[i]
		if s.id == 0 {
			return -1
		}
		if s.hash == h && t.words[s.id-1] == string(b) {
			return int(s.id - 1)
		}
	}
}

// wordHash mixes the length and the first and last eight bytes of b.
func wordHash(b []byte) uint32 {
	n := len(b)
	var x uint64
	if n >= 8 {
		x = binary.LittleEndian.Uint64(b) ^ bits.RotateLeft64(binary.LittleEndian.Uint64(b[n-8:]), 29)
	} else {
		for i := 0; i < n; i++ {
			x |= uint64(b[i]) << (8 * i)
		}
	}
	x ^= uint64(n) << 58
	x *= 0x9e3779b97f4a7c15
	return uint32(x >> 32)
}
