package c

// A small evaluator of if conditions over tokens, for the triage of
// c.null.deref: which paths are NULL on every path into each operand and
// into each branch, with the short-circuit rules of && and ||.

// memPath is a tested path: the tokens [at, end) of p, p->next, a.b[2].
type memPath struct{ at, end int }

// memCondFacts are the paths an expression leaves NULL on every path
// where it is true (nullT) and where it is false (nullF).
type memCondFacts struct{ nullT, nullF []memPath }

// memCondVisit receives what the evaluator finds: every operand it
// cannot look into, with the paths NULL on every path into it, and
// every plain test of a single identifier (p, !p, p == NULL) as
// Check's deref-before-test understands it.
type memCondVisit struct {
	operand func(from, to int, nulls []memPath)
	plain   func(tok int)
}

// condNull evaluates the expression [from, to) evaluated with the paths
// in ctx NULL.
func (m memLex) condNull(from, to int, ctx []memPath, v memCondVisit) memCondFacts {
	for m.is(from, "(") && m.closeOf(from) == to-1 && to-from > 2 {
		from, to = from+1, to-1
	}
	if ops, and := m.splitTop(from, to); len(ops) > 1 {
		return m.condChain(ops, ctx, v, and)
	}
	if m.is(from, "!") {
		inner := from + 1
		if m.is(inner, "(") && m.closeOf(inner) == to-1 || m.ident(inner) && m.pathEnd(inner) == to {
			f := m.condNull(inner, to, ctx, v)
			return memCondFacts{nullT: f.nullF, nullF: f.nullT}
		}
	}
	v.operand(from, to, ctx)
	return m.condAtom(from, to, v)
}

// condAtom returns the facts of one comparison: p, p == NULL, NULL != p,
// p = value.
func (m memLex) condAtom(from, to int, v memCondVisit) memCondFacts {
	nullish := func(i int) bool { return m.is(i, "NULL") || m.is(i, "nullptr") || m.is(i, "0") }
	at, null := -1, false
	pe := -1 // the end of the path at from, when from is a name
	if m.ident(from) {
		pe = m.pathEnd(from)
	}
	switch {
	case pe >= 0 && pe == to:
		at = from
	case pe >= 0 && pe+2 == to && (m.is(to-2, "==") || m.is(to-2, "!=")) && nullish(to-1):
		at, null = from, m.is(to-2, "==")
	case nullish(from) && (m.is(from+1, "==") || m.is(from+1, "!=")) && m.ident(from+2) && m.pathEnd(from+2) == to:
		at, null = from+2, m.is(from+1, "==")
	case pe >= 0 && m.is(pe, "=") && !m.is(from-1, "*"):
		return memCondFacts{nullF: []memPath{{from, pe}}} // (p = f()) tests the new p
	}
	if at < 0 || m.is(at+1, "(") {
		return memCondFacts{}
	}
	p := memPath{at, m.pathEnd(at)}
	if p.end-p.at == 1 {
		v.plain(at)
	}
	if null {
		return memCondFacts{nullT: []memPath{p}}
	}
	return memCondFacts{nullF: []memPath{p}}
}

// condChain evaluates operands joined by && (and) or ||: each runs with
// the facts of the earlier ones holding (true for &&, false for ||).
func (m memLex) condChain(ops [][2]int, ctx []memPath, v memCondVisit, and bool) memCondFacts {
	var res memCondFacts
	held := ctx        // NULL on entry to the next operand
	var sure []memPath // NULL on every way out through the short circuit
	for i, op := range ops {
		f := m.condNull(op[0], op[1], held, v)
		stay, exit := f.nullT, f.nullF // && goes on when true, leaves when false
		if !and {
			stay, exit = f.nullF, f.nullT
		}
		out := m.pathUnion(held, exit)
		if i == 0 {
			sure = out
		} else {
			sure = m.pathMeet(sure, out)
		}
		held = m.pathUnion(held, stay)
	}
	// The chain's other outcome happens only when every operand went on.
	if and {
		res.nullT, res.nullF = held, sure
	} else {
		res.nullF, res.nullT = held, sure
	}
	return res
}

// splitTop splits [from, to) at its top-level ||s, or when there are
// none at its top-level &&s (and is then true); nil when it has neither
// or a top-level ?: (no short circuit the evaluator follows).
func (m memLex) splitTop(from, to int) (ops [][2]int, and bool) {
	// One pass notes the top-level || and && (the first of each, and
	// whether there are more); a second splits only when there are more.
	firstOr, firstAnd, moreOr, moreAnd := -1, -1, false, false
	for k := from; k < to; k++ {
		t := &m.lx.Tokens[k]
		switch p := m.p1(k); {
		case p == '(' || p == '[' || p == '{':
			if c := m.closeOf(k); c > k && c < to {
				k = c
			}
		case p == '?':
			return nil, false
		case t.End-t.Start == 2 && t.First == '|' && m.is(k, "||"):
			moreOr = firstOr >= 0
			if firstOr < 0 {
				firstOr = k
			}
		case t.End-t.Start == 2 && t.First == '&' && m.is(k, "&&"):
			moreAnd = firstAnd >= 0
			if firstAnd < 0 {
				firstAnd = k
			}
		}
	}
	op, first, more := "||", firstOr, moreOr
	switch {
	case firstOr >= 0:
	case firstAnd >= 0:
		op, first, more, and = "&&", firstAnd, moreAnd, true
	default:
		return nil, false
	}
	if !more {
		return [][2]int{{from, first}, {first + 1, to}}, and
	}
	start := from
	for k := from; k < to; k++ {
		switch p := m.p1(k); {
		case p == '(' || p == '[' || p == '{':
			if c := m.closeOf(k); c > k && c < to {
				k = c
			}
		case m.is(k, op):
			ops = append(ops, [2]int{start, k})
			start = k + 1
		}
	}
	return append(ops, [2]int{start, to}), and
}

// pathUnion returns a ∪ b.
func (m memLex) pathUnion(a, b []memPath) []memPath {
	out := append([]memPath(nil), a...)
	for _, p := range b {
		if !m.pathIn(p, out) {
			out = append(out, p)
		}
	}
	return out
}

// pathMeet returns a ∩ b.
func (m memLex) pathMeet(a, b []memPath) []memPath {
	var out []memPath
	for _, p := range a {
		if m.pathIn(p, b) {
			out = append(out, p)
		}
	}
	return out
}

func (m memLex) pathIn(p memPath, set []memPath) bool {
	for _, q := range set {
		if q.end-q.at == p.end-p.at && m.samePath(p.at, q.at, p.end-p.at) {
			return true
		}
	}
	return false
}
