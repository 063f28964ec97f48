package rust

import (
	"fmt"
	"strings"

	"github.com/jsec/jsec/checkers"
)

// Unsafe-code family.
const ruleTransmute = "rust.unsafe.transmute"

var unsafeCheckers = []*checkers.Checker{
	{
		Name:     "rust/unsafe/transmute",
		Rules:    []string{ruleTransmute},
		Triggers: []string{"transmute", "transmute_copy"},
		Check:    checkTransmute,
	},
}

// checkTransmute flags mem::transmute calls. A SAFETY comment lowers the
// confidence; extending a reference's lifetime or turning an integer into
// a reference or function pointer raises it.
func checkTransmute(p *checkers.Pass, h checkers.Hit) {
	call, ok := CallAt(h)
	if !ok {
		return
	}
	adjust := 0.0
	msg := fmt.Sprintf("%s reinterprets a value's bits as another type", h.Word)
	targs := TypeArgs(call)
	if len(targs) == 2 {
		from, to := targs[0].Text(), targs[1].Text()
		msg = fmt.Sprintf("%s from %s to %s", h.Word, from, to)
		switch {
		case strings.Contains(to, "'static") && !strings.Contains(from, "'static"):
			adjust += 0.15
			msg += ": extends a lifetime to 'static"
		case isNumeric(from) && isNumeric(to):
			adjust -= 0.1
			msg += ": use to_bits/from_bits or from_ne_bytes instead"
		case isNumeric(from) && (strings.HasPrefix(to, "&") || strings.HasPrefix(to, "fn")):
			adjust += 0.1
			msg += ": an integer becomes a reference or function pointer"
		}
	}
	if HasSafetyComment(p, call) {
		adjust -= 0.2
	}
	p.Report(checkers.Finding{Rule: ruleTransmute, Span: checkers.NodeSpan(call), Adjust: adjust, Message: msg})
}

func isNumeric(t string) bool {
	switch t {
	case "u8", "u16", "u32", "u64", "u128", "usize", "i8", "i16", "i32", "i64", "i128", "isize", "f32", "f64":
		return true
	}
	if strings.HasPrefix(t, "[u8;") || strings.HasPrefix(t, "[u8 ;") {
		return true
	}
	return false
}
