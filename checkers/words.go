package checkers

import (
	"encoding/binary"
	"math/bits"
	"unsafe"
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
	// seen has a bit for each value of a hash's top wordSeenShift bits
	// that some word's hash has. Most identifiers are no trigger word:
	// this 4 KB bitmap turns almost all of them away from the first-level
	// cache, where a probe of the slots (64 KB for C's 1,200 words) often
	// missed it.
	seen WordFilter
}

// wordSeenShift is the number of hash bits the seen bitmap is indexed by.
const wordSeenShift = 15

// WordFilter is the seen bitmap of a set of words, for a lexer: it marks
// the identifiers that may be one of the words (Lexed.MayBeWords) while
// their bytes are at hand, and the engine's triage then looks up those
// alone instead of every token of the file. An identifier that is one of
// the words always passes; others pass when their hash shares its top
// bits with a word's (a few percent).
type WordFilter struct {
	seen [1 << wordSeenShift / 64]uint64
}

// NewWordFilter returns the filter of words.
func NewWordFilter(words []string) *WordFilter {
	f := &WordFilter{}
	for _, w := range words {
		if w != "" {
			f.add(wordHash([]byte(w)))
		}
	}
	return f
}

func (f *WordFilter) add(h uint32) {
	f.seen[h>>(32-wordSeenShift)/64] |= 1 << (h >> (32 - wordSeenShift) % 64)
}

func (f *WordFilter) has(h uint32) bool {
	return f.seen[h>>(32-wordSeenShift)/64]&(1<<(h>>(32-wordSeenShift)%64)) != 0
}

// MayHold reports whether src[start:end] may be one of the filter's words.
func (f *WordFilter) MayHold(src []byte, start, end int) bool {
	return f.has(wordHashAt(src, start, end))
}

// covers reports whether every word of t passes f.
func (f *WordFilter) covers(t *wordTable) bool {
	for _, w := range t.words {
		if w != "" && !f.has(wordHash([]byte(w))) {
			return false
		}
	}
	return true
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
		t.seen.add(h)
	}
	return t
}

// lookupAt returns the id of the word src[start:end], or -1.
func (t *wordTable) lookupAt(src []byte, start, end int) int {
	h := wordHashAt(src, start, end)
	if !t.seen.has(h) {
		return -1
	}
	b := src[start:end]
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

// wordHashAt is wordHash(src[start:end]). A word shorter than eight
// bytes is read with one load when eight bytes of src start there (the
// source around a token), the bytes past its end masked off.
func wordHashAt(src []byte, start, end int) uint32 {
	n := end - start
	if n >= 8 || start+8 > len(src) {
		return wordHash(src[start:end])
	}
	x := binary.LittleEndian.Uint64(src[start:]) & (1<<(8*n) - 1)
	return wordMix(x, n)
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
	return wordMix(x, n)
}

// wordMix mixes the bytes x of a word of n bytes into its hash.
func wordMix(x uint64, n int) uint32 {
	x ^= uint64(n) << 58
	x *= 0x9e3779b97f4a7c15
	return uint32(x >> 32)
}

// WordSet tells the identifiers that may be one of a few words, for the
// scans that ask it of every identifier of a function or a file (is this
// an input call, a C++ keyword, a string builder?): a bitmap of the
// words' hashes, read with the hash of the token's bytes, answers nearly
// every "no" without making a string or probing a map. A token that is
// one of the words always passes; one in a few hundred others does too,
// so a "yes" is confirmed by the caller's own lookup.
type WordSet struct {
	bits [1 << wordSetShift / 64]uint64
}

// wordSetShift is the number of hash bits a WordSet's bitmap is indexed
// by: 512 bytes, which stay in the first-level cache through a scan.
const wordSetShift = 12

// NewWordSet returns the WordSet of the words in the lists.
func NewWordSet(lists ...[]string) *WordSet {
	s := &WordSet{}
	for _, l := range lists {
		for _, w := range l {
			if w != "" {
				h := wordHash([]byte(w)) >> (32 - wordSetShift)
				s.bits[h/64] |= 1 << (h % 64)
			}
		}
	}
	return s
}

// MayHave reports whether token i of lx may be one of the set's words:
// false means it is none of them.
func (s *WordSet) MayHave(lx *Lexed, i int) bool {
	t := &lx.Tokens[i]
	h := wordHashAt(lx.Src, int(t.Start), int(t.End)) >> (32 - wordSetShift)
	return s.bits[h/64]&(1<<(h%64)) != 0
}

// MayHaveString is MayHave for a word given as a string (a callee's
// name from the syntax tree).
func (s *WordSet) MayHaveString(w string) bool {
	h := wordHash(unsafe.Slice(unsafe.StringData(w), len(w))) >> (32 - wordSetShift)
	return s.bits[h/64]&(1<<(h%64)) != 0
}
