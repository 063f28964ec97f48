package issue

import (
	"crypto/sha256"
	"encoding/hex"
	"strconv"
	"strings"
	"unicode"
)

// FingerprintVersion is mixed into every fingerprint; bump it only when the
// inputs below change meaning, since it invalidates every stored baseline.
const FingerprintVersion = "1"

// Fingerprint derives an issue's stable id from what the finding is, not
// where it is: the rule, the root-relative file, the enclosing function, the
// flagged code with all whitespace removed, and the occurrence index among
// findings that share the first four. Moving code up or down, re-indenting
// it or editing other functions leaves the id unchanged.
func Fingerprint(rule, file, function, code string, occurrence int) string {
	h := sha256.New()
	for _, s := range []string{FingerprintVersion, rule, file, function, NormalizeCode(code), strconv.Itoa(occurrence)} {
		h.Write([]byte(s))
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil)[:8])
}

// NormalizeCode removes all white space from code so that re-indenting or
// re-wrapping a statement does not change its fingerprint.
func NormalizeCode(code string) string {
	var b strings.Builder
	b.Grow(len(code))
	for _, r := range code {
		if !unicode.IsSpace(r) {
			b.WriteRune(r)
		}
	}
	return b.String()
}
