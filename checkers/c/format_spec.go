package c

import (
	"strings"

	"github.com/jsec/jsec/checkers"
	"github.com/jsec/jsec/checkers/syntax"
)

// This file reads printf- and scanf-style format strings: the literal text
// of a format argument (with the <inttypes.h> macros expanded) and its
// conversion specifications. The buffer family uses it to bound sprintf
// output and scanf field widths; the format family to tell literal
// formats from the rest.

// fmtText is the text of a literal format argument.
type fmtText struct {
	S string
	// Opaque is set when the literal concatenates a macro jsec cannot
	// expand outside a conversion ("pre" PREFIX "%s"): S then holds only
	// part of the text, and lengths computed from it are lower bounds.
	Opaque bool
}

// priRE matches the <inttypes.h> conversion macros: PRId64, SCNu32,
// PRIxMAX, PRIuPTR, PRIdLEAST16 …
var priRE = checkers.LazyRegexp(`^(?:PRI|SCN)([diouxXc])(?:LEAST|FAST)?(8|16|32|64|MAX|PTR)$`)

// fmtLiteral returns the text of a format argument that is a string
// literal or a concatenation of literals and macros. A macro right after
// a '%' is read as a conversion: the <inttypes.h> ones by their name,
// others (CURL_FORMAT_CURL_OFF_T, G_GINT64_FORMAT) as a 64-bit integer.
func fmtLiteral(n syntax.Node) (fmtText, bool) {
	n = Unparen(n)
	if !IsStringLiteral(n) {
		return fmtText{}, false
	}
	var b strings.Builder
	var t fmtText
	var walk func(m syntax.Node)
	walk = func(m syntax.Node) {
		switch m.Kind() {
		case "concatenated_string":
			for c := range m.NamedChildren() {
				walk(c)
			}
		case "identifier":
			if !fmtPending(b.String()) {
				t.Opaque = true
				return
			}
			if sub := priRE().FindStringSubmatch(m.Text()); sub != nil {
				b.WriteString(fmtPRIWidth(sub[2]) + sub[1])
				return
			}
			b.WriteString("lld")
		default:
			s, _ := StringValue(m)
			b.WriteString(s)
		}
	}
	walk(n)
	t.S = b.String()
	return t, true
}

// fmtPRIWidth maps an <inttypes.h> width to a length modifier.
func fmtPRIWidth(w string) string {
	switch w {
	case "8":
		return "hh"
	case "16":
		return "h"
	case "32":
		return ""
	}
	return "ll"
}

// fmtPending reports whether s ends inside a conversion specification
// ("abc %", "%-08"), so that a macro appended to it completes it.
func fmtPending(s string) bool {
	i := strings.LastIndexByte(s, '%')
	if i < 0 {
		return false
	}
	// An even run of '%' is a literal percent sign.
	run := 0
	for j := i; j >= 0 && s[j] == '%'; j-- {
		run++
	}
	if run%2 == 0 {
		return false
	}
	return strings.Trim(s[i+1:], "-+ #0123456789.*'lhjztLq") == ""
}

// fmtSpec is one conversion specification.
type fmtSpec struct {
	Flags string
	// Width and Prec are -1 when absent, -2 when given as '*'.
	Width, Prec int
	Len         string // length modifier: "hh", "h", "l", "ll", "j", "z", "t", "L", "q", "I64" …
	Conv        byte
	// Suppress is scanf's '*' (assignment suppressed); Alloc is scanf's
	// 'm' (or GNU 'a') allocation modifier.
	Suppress, Alloc bool
	// Arg is the 0-based position of the argument the conversion reads,
	// counted from the first argument after the format (-1: none, as for
	// %% and suppressed scanf conversions). WidthArg and PrecArg are those
	// of '*' widths and precisions.
	Arg, WidthArg, PrecArg int
	Text                   string
}

// parsePrintf splits a printf format into its conversions and counts the
// bytes of literal text. ok is false for a malformed specification.
func parsePrintf(s string) (specs []fmtSpec, literal int, ok bool) {
	next := 0
	for i := 0; i < len(s); i++ {
		if s[i] != '%' {
			literal++
			continue
		}
		if i+1 < len(s) && s[i+1] == '%' {
			literal++
			i++
			continue
		}
		sp, end, good := parseSpec(s, i+1, false, &next)
		if !good {
			return specs, literal, false
		}
		sp.Text = s[i:end]
		specs = append(specs, sp)
		i = end - 1
	}
	return specs, literal, true
}

// parseScanf splits a scanf format into its conversions.
func parseScanf(s string) (specs []fmtSpec, ok bool) {
	next := 0
	for i := 0; i < len(s); i++ {
		if s[i] != '%' {
			continue
		}
		if i+1 < len(s) && s[i+1] == '%' {
			i++
			continue
		}
		sp, end, good := parseSpec(s, i+1, true, &next)
		if !good {
			return specs, false
		}
		sp.Text = s[i:end]
		specs = append(specs, sp)
		i = end - 1
	}
	return specs, true
}

// parseSpec reads the specification that starts after a '%' at s[i].
func parseSpec(s string, i int, scan bool, next *int) (fmtSpec, int, bool) {
	sp := fmtSpec{Width: -1, Prec: -1, Arg: -1, WidthArg: -1, PrecArg: -1}
	// Positional argument "%2$s".
	pos := -1
	if j := digitsEnd(s, i); j > i && j < len(s) && s[j] == '$' {
		pos = atoiSmall(s[i:j]) - 1
		i = j + 1
	}
	if scan {
		if i < len(s) && s[i] == '*' {
			sp.Suppress = true
			i++
		}
	} else {
		for i < len(s) && strings.IndexByte("-+ #0'I", s[i]) >= 0 && !(s[i] == 'I' && strings.HasPrefix(s[i:], "I64")) {
			sp.Flags += s[i : i+1]
			i++
		}
	}
	i, sp.Width = specNumber(s, i, &sp.WidthArg, next, scan)
	if !scan && i < len(s) && s[i] == '.' {
		i++
		i, sp.Prec = specNumber(s, i, &sp.PrecArg, next, false)
		if sp.Prec == -1 {
			sp.Prec = 0
		}
	}
	if scan && i < len(s) && (s[i] == 'm' || s[i] == 'a' && i+1 < len(s) && strings.IndexByte("s[S", s[i+1]) >= 0) {
		sp.Alloc = true
		i++
	}
	for _, l := range []string{"hh", "ll", "I64", "I32", "h", "l", "j", "z", "t", "L", "q", "I", "w"} {
		if strings.HasPrefix(s[i:], l) {
			sp.Len = l
			i += len(l)
			break
		}
	}
	if i >= len(s) {
		return sp, i, false
	}
	sp.Conv = s[i]
	i++
	if sp.Conv == '[' {
		// A scanset: "]" right after "[" or "[^" belongs to the set.
		j := i
		if j < len(s) && s[j] == '^' {
			j++
		}
		if j < len(s) && s[j] == ']' {
			j++
		}
		k := strings.IndexByte(s[j:], ']')
		if k < 0 {
			return sp, len(s), false
		}
		i = j + k + 1
	}
	if !strings.ContainsRune("diouxXcspnfFeEgGaACSm[", rune(sp.Conv)) {
		return sp, i, false
	}
	if sp.Conv != 'm' && !sp.Suppress {
		if pos >= 0 {
			sp.Arg = pos
		} else {
			sp.Arg = *next
			*next++
		}
	}
	return sp, i, true
}

// specNumber reads a width or precision: digits, or '*' (printf) which
// takes an argument.
func specNumber(s string, i int, arg *int, next *int, scan bool) (int, int) {
	if !scan && i < len(s) && s[i] == '*' {
		*arg = *next
		*next++
		i++
		if j := digitsEnd(s, i); j > i && j < len(s) && s[j] == '$' {
			*arg = atoiSmall(s[i:j]) - 1
			i = j + 1
		}
		return i, -2
	}
	j := digitsEnd(s, i)
	if j == i {
		return i, -1
	}
	return j, atoiSmall(s[i:j])
}

func digitsEnd(s string, i int) int {
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	return i
}

// atoiSmall parses a short run of digits, saturating instead of
// overflowing.
func atoiSmall(s string) int {
	n := 0
	for _, c := range []byte(s) {
		n = n*10 + int(c-'0')
		if n > 1<<30 {
			return 1 << 30
		}
	}
	return n
}
