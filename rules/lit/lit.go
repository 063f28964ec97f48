// Package lit finds many literal strings in one pass over a byte slice.
//
// # Design
//
// It is the prefilter in front of every rule: jsec extracts the literals a
// rule cannot match without (function names, keywords, required substrings
// of a regex) and only looks closer at the places where one occurs. Go's
// regexp runs an alternation of thirty API names at ~6 MB/s; this automaton
// runs at hundreds of MB/s because each byte costs one table load and one
// comparison.
//
// The automaton is Aho–Corasick compiled to a DFA over byte classes (bytes
// that no literal uses share one class), with states renumbered so that
// every state that ends a match sorts after every state that does not: the
// inner loop tests "s >= firstMatch" and nothing else.
package lit

import (
	"slices"
)

// Matcher is an immutable multi-literal automaton, safe for concurrent use.
type Matcher struct {
	words      []string
	classes    [256]uint8
	nclass     int
	trans      []int32   // state*nclass + class -> state
	out        [][]int32 // per state: word ids that end here (longest first)
	firstMatch int32
	fold       bool
}

// Options tune a Matcher.
type Options struct {
	// FoldASCII makes matching ASCII case-insensitive.
	FoldASCII bool
}

// New compiles words. Empty words are ignored; duplicates keep one id each
// (the id is the index in words).
func New(words []string, opt Options) *Matcher {
	m := &Matcher{words: slices.Clone(words), fold: opt.FoldASCII}
	norm := func(c byte) byte {
		if m.fold && c >= 'A' && c <= 'Z' {
			return c + 'a' - 'A'
		}
		return c
	}
	// Byte classes: one per distinct byte used by a word, class 0 for the rest.
	var used [256]bool
	for _, w := range words {
		for i := 0; i < len(w); i++ {
			used[norm(w[i])] = true
		}
	}
	m.nclass = 1
	for b := 0; b < 256; b++ {
		if used[b] {
			m.classes[b] = uint8(m.nclass)
			m.nclass++
		}
	}
	if m.fold {
		for b := 'A'; b <= 'Z'; b++ {
			m.classes[b] = m.classes[b+'a'-'A']
		}
	}
	// Trie.
	type tnode struct {
		next map[uint8]int32
		fail int32
		out  []int32
	}
	nodes := []tnode{{next: map[uint8]int32{}}}
	for id, w := range words {
		if w == "" {
			continue
		}
		s := int32(0)
		for i := 0; i < len(w); i++ {
			c := m.classes[norm(w[i])]
			nx, ok := nodes[s].next[c]
			if !ok {
				nx = int32(len(nodes))
				nodes = append(nodes, tnode{next: map[uint8]int32{}})
				nodes[s].next[c] = nx
			}
			s = nx
		}
		nodes[s].out = append(nodes[s].out, int32(id))
	}
	// Breadth-first failure links and the full DFA.
	n := len(nodes)
	dfa := make([]int32, n*m.nclass)
	queue := []int32{0}
	for c := 0; c < m.nclass; c++ {
		if nx, ok := nodes[0].next[uint8(c)]; ok {
			dfa[c] = nx
			nodes[nx].fail = 0
			queue = append(queue, nx)
		}
	}
	for qi := 1; qi < len(queue); qi++ {
		s := queue[qi]
		f := nodes[s].fail
		nodes[s].out = append(nodes[s].out, nodes[f].out...)
		for c := 0; c < m.nclass; c++ {
			if nx, ok := nodes[s].next[uint8(c)]; ok {
				nodes[nx].fail = dfa[int(f)*m.nclass+c]
				dfa[int(s)*m.nclass+c] = nx
				queue = append(queue, nx)
			} else {
				dfa[int(s)*m.nclass+c] = dfa[int(f)*m.nclass+c]
			}
		}
	}
	outs := make([][]int32, len(nodes))
	for i := range nodes {
		outs[i] = nodes[i].out
	}
	m.renumber(dfa, outs, words)
	return m
}

// renumber fills m's transitions and outputs from the DFA over trie
// states, with non-matching states first (the root stays 0) and matching
// states last, so that the scan loop tests "s >= firstMatch" alone.
func (m *Matcher) renumber(dfa []int32, outs [][]int32, words []string) {
	n := len(outs)
	order := make([]int32, 0, n)
	for s := 0; s < n; s++ {
		if len(outs[s]) == 0 {
			order = append(order, int32(s))
		}
	}
	m.firstMatch = int32(len(order))
	for s := 0; s < n; s++ {
		if len(outs[s]) > 0 {
			order = append(order, int32(s))
		}
	}
	renum := make([]int32, n)
	for newID, old := range order {
		renum[old] = int32(newID)
	}
	m.trans = make([]int32, n*m.nclass)
	m.out = make([][]int32, n)
	for old := 0; old < n; old++ {
		ns := renum[old]
		for c := 0; c < m.nclass; c++ {
			m.trans[int(ns)*m.nclass+c] = renum[dfa[old*m.nclass+c]]
		}
		o := slices.Clone(outs[old])
		slices.SortFunc(o, func(a, b int32) int { return len(words[b]) - len(words[a]) })
		m.out[ns] = o
	}
}

// Words returns the literals the matcher was built from.
func (m *Matcher) Words() []string { return m.words }

// Match is one occurrence of a word: src[Start:End] == words[Word].
type Match struct {
	Word       int
	Start, End int
}

// Scan calls fn for every occurrence of every word, in order of End (and,
// for equal ends, longest word first). It stops early when fn returns false.
func (m *Matcher) Scan(src []byte, fn func(Match) bool) {
	if len(m.words) == 0 {
		return
	}
	s := int32(0)
	nc := int32(m.nclass)
	trans, classes, first := m.trans, &m.classes, m.firstMatch
	for i := 0; i < len(src); i++ {
		s = trans[s*nc+int32(classes[src[i]])]
		if s >= first {
			for _, w := range m.out[s] {
				if !fn(Match{Word: int(w), Start: i + 1 - len(m.words[w]), End: i + 1}) {
					return
				}
			}
		}
	}
}

// FindAll returns every occurrence (see Scan), appended to dst.
func (m *Matcher) FindAll(dst []Match, src []byte) []Match {
	m.Scan(src, func(x Match) bool { dst = append(dst, x); return true })
	return dst
}

// Any reports whether any word occurs in src.
func (m *Matcher) Any(src []byte) bool {
	found := false
	m.Scan(src, func(Match) bool { found = true; return false })
	return found
}
