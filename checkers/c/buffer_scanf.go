package c

import (
	"fmt"
	"strings"

	"github.com/jsec/jsec/checkers"
	"github.com/jsec/jsec/checkers/syntax"
)

// c.buffer.scanf-width: %s and %[ read a word of any length unless a field
// width limits it; a width must leave room for the NUL.

// bufScanfFormat maps the scanf family to the index of their format.
var bufScanfFormat = map[string]int{
	"scanf": 0, "vscanf": 0, "wscanf": 0, "vwscanf": 0, "_tscanf": 0,
	"fscanf": 1, "sscanf": 1, "vfscanf": 1, "vsscanf": 1, "fwscanf": 1, "swscanf": 1,
	"vfwscanf": 1, "vswscanf": 1, "_ftscanf": 1, "_stscanf": 1,
}

// checkScanfWidth flags %s / %[ without a width, and widths that do not
// fit the argument's array.
func checkScanfWidth(p *checkers.Pass, h checkers.Hit) {
	call, ok := CallAt(h)
	if !ok {
		return
	}
	fi := bufScanfFormat[h.Word]
	t, ok := fmtLiteral(Arg(call, fi))
	if !ok {
		return
	}
	specs, _ := parseScanf(t.S)
	s := FuncScope(p, EnclosingFunction(call))
	vaList := h.Word[0] == 'v'
	for _, sp := range specs {
		if sp.Suppress || sp.Alloc || sp.Conv != 's' && sp.Conv != '[' && sp.Conv != 'c' && sp.Conv != 'S' {
			continue
		}
		var arg syntax.Node
		if !vaList && sp.Arg >= 0 {
			arg = Arg(call, fi+1+sp.Arg)
		}
		wide := sp.Len == "l" || sp.Conv == 'S' || strings.Contains(h.Word, "wscanf")
		room, known := bufRoomOf(p, s, call, arg)
		limit, unit := room.Chars(wide)
		known = known && unit
		if msg, adjust, bad := bufScanfSpec(p, s, h.Word, call, sp, arg, room, limit, known); bad {
			p.Report(checkers.Finding{Rule: ruleScanfWidth, Span: checkers.NodeSpan(call), Adjust: adjust, Message: msg})
			return
		}
	}
}

// bufScanfSpec judges one %s, %[ or %c conversion.
func bufScanfSpec(p *checkers.Pass, s *Scope, name string, call syntax.Node, sp fmtSpec, arg syntax.Node, room bufRoom, limit int64, known bool) (string, float64, bool) {
	into := "its argument"
	if known {
		into = room.What
	} else if arg.Valid() {
		into = "'" + shortText(arg) + "'"
	}
	if sp.Width < 0 {
		if sp.Conv == 'c' {
			return "", 0, false // %c reads one character
		}
		adjust := 0.0
		if name == "sscanf" || name == "vsscanf" || name == "swscanf" || name == "_stscanf" {
			src := Arg(call, 0)
			if n, ok := bufStrBound(p, s, call, src, 0); ok && known && n < limit {
				return "", 0, false // the input string is shorter than the destination
			}
			switch o := Trace(p, src); o.Origin {
			case OriginExternal:
				adjust = 0.1
			case OriginLiteral:
				adjust = -0.2
			}
		}
		return fmt.Sprintf("%s's %s has no field width: a longer input word overflows %s", name, bufShowSpec(sp.Text), into), adjust, true
	}
	if !known {
		return "", 0, false
	}
	need := int64(sp.Width) + 1
	if sp.Conv == 'c' {
		need = int64(sp.Width)
	}
	if need <= limit {
		return "", 0, false
	}
	return fmt.Sprintf("%s's %s stores up to %d bytes into %s", name, bufShowSpec(sp.Text), need, into), 0.05, true
}

// bufShowSpec escapes control characters of a conversion for a message.
func bufShowSpec(s string) string {
	return strings.NewReplacer("\n", `\n`, "\t", `\t`, "\r", `\r`).Replace(s)
}
