package c

import (
	"fmt"
	"strings"

	"github.com/jsec/jsec/checkers"
	"github.com/jsec/jsec/checkers/syntax"
)

// c.buffer.sprintf: the longest output of a literal format, computed from
// its conversions (%d → 11, %u → 10, %x → 8, %ld → 20, widths and
// precisions) and the arguments of its %s, compared with the destination.

// fmtEstimate is the longest output of a format.
type fmtEstimate struct {
	Max int64 // characters, without the terminating NUL
	// Unbounded lists what has no bound ("%s of 'name'"); Worst is the
	// first such argument.
	Unbounded []string
	Worst     syntax.Node
	// Large: a %f conversion whose length grows with the value's
	// magnitude (up to 317 characters for a double).
	Large bool
	// Opaque: part of the format is a macro jsec cannot see; Max is a
	// lower bound.
	Opaque bool
}

// bufFloatDigits is the number of integer digits beyond the first that a
// %f value is assumed to need before the buffer counts as too small.
const bufFloatDigits = 15

func (e fmtEstimate) bounded() bool { return len(e.Unbounded) == 0 && !e.Large && !e.Opaque }

// bufIntLen gives the longest output of an integer conversion, by length
// modifier: none, hh, h, l/ll/j/z/t/q/I64.
var bufIntLen = map[byte][3]int64{
	'd': {11, 4, 6}, 'i': {11, 4, 6}, 'u': {10, 3, 5}, 'x': {8, 2, 4}, 'X': {8, 2, 4}, 'o': {11, 3, 6},
}

// bufLongLen is bufIntLen for the 64-bit length modifiers.
var bufLongLen = map[byte]int64{'d': 20, 'i': 20, 'u': 20, 'x': 16, 'X': 16, 'o': 22}

// bufPrintfEstimate computes the longest output of call's format
// (argument fmtIdx); its values start at argument argIdx (a va_list when
// the function is a v* one).
func bufPrintfEstimate(p *checkers.Pass, s *Scope, call syntax.Node, fmtIdx, argIdx int) (fmtEstimate, bool) {
	t, ok := fmtLiteral(Arg(call, fmtIdx))
	if !ok {
		return fmtEstimate{}, false
	}
	specs, literal, ok := parsePrintf(t.S)
	if !ok {
		return fmtEstimate{}, false
	}
	all := Args(call)
	var args []syntax.Node
	vaList := strings.Contains(CalleeName(call), "vs")
	if !vaList && argIdx <= len(all) {
		args = all[argIdx:]
	}
	argAt := func(i int) syntax.Node {
		if i < 0 || i >= len(args) {
			return syntax.Node{}
		}
		return args[i]
	}
	est := fmtEstimate{Max: int64(literal), Opaque: t.Opaque}
	for _, sp := range specs {
		width, prec := int64(sp.Width), int64(sp.Prec)
		if sp.Width == -2 {
			width = -1
			if v, ok := bufEval(p, s, argAt(sp.WidthArg)); ok {
				width = v
			} else {
				est.Unbounded = append(est.Unbounded, "a '*' field width")
			}
		}
		if sp.Prec == -2 {
			prec = -1
			if v, ok := bufEval(p, s, argAt(sp.PrecArg)); ok {
				prec = v
			} else if sp.Conv == 's' {
				prec = -3 // bounded by a run-time value
			}
		}
		n := bufConvLen(p, s, call, sp, prec, argAt(sp.Arg), &est)
		est.Max += max(n, width)
	}
	return est, true
}

// bufConvLen gives the longest output of one conversion, recording
// unbounded and value-dependent ones in est.
func bufConvLen(p *checkers.Pass, s *Scope, call syntax.Node, sp fmtSpec, prec int64, arg syntax.Node, est *fmtEstimate) int64 {
	if n, ok := bufNumLen(sp, prec); ok {
		return n
	}
	switch sp.Conv {
	case 'f', 'F':
		if prec < 0 {
			prec = 6
		}
		est.Large = true
		return 3 + prec
	case 's', 'S':
		if prec >= 0 {
			if n, ok := bufStrBound(p, s, call, arg, 0); ok && n < prec {
				return n
			}
			return prec
		}
		if n, ok := bufStrBound(p, s, call, arg, 0); ok {
			return n
		}
		if prec == -3 {
			return 0 // %.*s: bounded by its argument, whatever it is
		}
		what := "a %s argument"
		if arg.Valid() {
			what = fmt.Sprintf("'%s'", shortText(arg))
			if !est.Worst.Valid() {
				est.Worst = arg
			}
		}
		est.Unbounded = append(est.Unbounded, what)
		return 0
	case 'm':
		est.Large = true
		return 32
	}
	return 0
}

// bufNumLen gives the longest output of a conversion that does not
// depend on its value's magnitude or on a string: integers, characters,
// pointers, %e, %g, %a. ok is false for %s, %f and %m.
func bufNumLen(sp fmtSpec, prec int64) (int64, bool) {
	switch c := sp.Conv; c {
	case 'd', 'i', 'u', 'x', 'X', 'o':
		n := bufIntLen[c][0]
		switch sp.Len {
		case "hh":
			n = bufIntLen[c][1]
		case "h":
			n = bufIntLen[c][2]
		case "l", "ll", "j", "z", "t", "q", "I64", "I":
			n = bufLongLen[c]
		}
		if strings.Contains(sp.Flags, "#") {
			n += 2
		}
		return max(n, prec+1), true
	case 'c':
		if sp.Len == "l" {
			return 4, true
		}
		return 1, true
	case 'C':
		return 4, true
	case 'p':
		return 18, true
	case 'n':
		return 0, true
	case 'e', 'E':
		if prec < 0 {
			prec = 6
		}
		return 8 + prec, true
	case 'g', 'G':
		if prec < 0 {
			prec = 6
		}
		return 7 + max(prec, 1), true
	case 'a', 'A':
		if prec < 0 {
			prec = 13
		}
		return 11 + prec, true
	}
	return 0, false
}

// bufSprintfForm returns the format and first value argument of an
// unbounded formatting call, ok=false for the sized forms.
func bufSprintfForm(name string, call syntax.Node) (fmtIdx, argIdx int, wide, ok bool) {
	switch name {
	case "sprintf", "_stprintf", "wsprintf", "wsprintfA":
		return 1, 2, false, true
	case "vsprintf", "wvsprintf", "wvsprintfA":
		return 1, 2, false, true
	case "wsprintfW", "wvsprintfW", "_swprintf", "vswprintf", "swprintf":
		// ISO swprintf takes a size second; the legacy form does not.
		if (name == "swprintf" || name == "vswprintf") && !IsStringLiteral(Arg(call, 1)) {
			return 0, 0, true, false
		}
		return 1, 2, true, true
	}
	return 0, 0, false, false
}

// checkSprintf flags sprintf-style calls whose output may not fit.
func checkSprintf(p *checkers.Pass, h checkers.Hit) {
	call, ok := CallAt(h)
	if !ok {
		return
	}
	fmtIdx, argIdx, wide, ok := bufSprintfForm(h.Word, call)
	if !ok || !Arg(call, fmtIdx).Valid() {
		return
	}
	dst := Arg(call, 0)
	s := FuncScope(p, EnclosingFunction(call))
	room, known := bufRoomOf(p, s, call, dst)
	limit, unit := room.Chars(wide)
	known = known && unit
	est, literal := bufPrintfEstimate(p, s, call, fmtIdx, argIdx)
	report := func(adjust float64, msg string, args ...any) {
		p.Report(checkers.Finding{Rule: ruleSprintf, Span: checkers.NodeSpan(call), Adjust: adjust, Message: fmt.Sprintf(msg, args...)})
	}
	switch {
	case !literal:
		fmtArg := Arg(call, fmtIdx)
		if !known {
			return // the format rule covers non-literal formats; nothing is known of the size
		}
		// A format the function built itself is left alone; one that a
		// caller passes in (a vsprintf wrapper) can be anything.
		switch o := Trace(p, fmtArg); o.Origin {
		case OriginParam:
			report(-0.1, "%s writes the caller's format %s, whose output length has no bound, into %s", h.Word, shortText(fmtArg), room.What)
		case OriginExternal:
			report(0.1, "%s writes the format %s (from %s), whose output length has no bound, into %s", h.Word, shortText(fmtArg), o.What, room.What)
		}
	case est.Opaque:
		if known && est.Max+1 > limit {
			report(0, "%s writes at least %d bytes into %s", h.Word, est.Max+1, room.What)
		}
	case len(est.Unbounded) > 0:
		bufReportUnboundedPrintf(p, h, call, dst, est, room, known)
	case !known:
		return
	case est.Max+1 > limit:
		report(0.05, "%s may write up to %d bytes into %s", h.Word, est.Max+1, room.What)
	case est.Large && est.Max+1+bufFloatDigits > limit:
		// %f prints every integer digit of its value (up to 309). Values
		// below 1e15 are the realistic range; flag buffers too small
		// for those.
		report(-0.15, "%s writes a %%f conversion into %s: a value of 1e%d or more overflows it", h.Word, room.What, max(limit-est.Max, 1))
	}
}

func bufReportUnboundedPrintf(p *checkers.Pass, h checkers.Hit, call, dst syntax.Node, est fmtEstimate, room bufRoom, known bool) {
	adjust := 0.0
	what := strings.Join(est.Unbounded, ", ")
	if est.Worst.Valid() {
		if !known && bufSizedFrom(p, call, dst, est.Worst) {
			return
		}
		o := Trace(p, est.Worst)
		switch o.Origin {
		case OriginLiteral:
			if !known {
				return
			}
		case OriginExternal:
			adjust = 0.1
			if o.What != shortText(est.Worst) {
				what += " (from " + o.What + ")"
			} else {
				what += " (program input)"
			}
		case OriginUnknown:
			adjust = -0.1
		}
		if lengthChecked(p, call, est.Worst) {
			adjust -= 0.35
		}
	}
	into := room.What
	if !known {
		into = "'" + shortText(dst) + "', whose size is unknown"
		adjust -= 0.15
	}
	p.Report(checkers.Finding{Rule: ruleSprintf, Span: checkers.NodeSpan(call), Adjust: adjust,
		Message: fmt.Sprintf("%s writes %s with no length limit into %s", h.Word, what, into)})
}
