package config

import "strings"

// suggest returns the candidate closest to s by edit distance when it is
// close enough to be a likely typo, else "".
func suggest(s string, candidates []string) string {
	if len(s) > 64 {
		return ""
	}
	s = strings.ToLower(s)
	best, bestD := "", -1
	for _, c := range candidates {
		if d := editDistance(s, strings.ToLower(c)); bestD < 0 || d < bestD {
			best, bestD = c, d
		}
	}
	if bestD < 0 || bestD > max(1, len([]rune(s))/3) {
		return ""
	}
	return best
}

// editDistance is the optimal-string-alignment distance between a and b,
// in runes: insertions, deletions, substitutions and transpositions of
// neighbours ("modle" is one edit from "model").
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	// rows i-2, i-1 and i of the table.
	pp, prev, cur := make([]int, len(rb)+1), make([]int, len(rb)+1), make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				cur[j] = min(cur[j], pp[j-2]+1)
			}
		}
		pp, prev, cur = prev, cur, pp
	}
	return prev[len(rb)]
}

// Suggest is suggest for the command line: the candidate a mistyped name
// most likely meant ("c.buffer.strcpi" → "c.buffer.strcpy"), or "".
func Suggest(s string, candidates []string) string { return suggest(s, candidates) }
