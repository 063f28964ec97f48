package c

import (
	"os"
	"reflect"
	"testing"

	"github.com/jsec/jsec/checkers"
)

// The name scans of the memory triage find a name's mentions with
// Lexed.Find and FindLast, and untestedDerefBefore stops at the item's
// label colons from lexFacts. TestNameScansMatchWalks holds each to the
// token-by-token walk it replaced (the ref functions below), at every
// identifier of the fixtures (and every third of $JSEC_TRIAGE_CORPUS's),
// as C and as C++.
func TestNameScansMatchWalks(t *testing.T) {
	files := triageFiles(t, "testdata")
	corpus := len(files)
	if dir := os.Getenv("JSEC_TRIAGE_CORPUS"); dir != "" {
		files = append(files, triageFiles(t, dir)...)
	}
	calls, labels, derefs := 0, 0, 0
	for fi, path := range files {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		step := 1
		if fi >= corpus {
			step = 3
		}
		for _, lx := range []*checkers.Lexed{LexC(src), LexCPP(src)} {
			for v := 0; v < len(lx.Tokens); v += step {
				if lx.Kind(v) != checkers.TokIdent {
					continue
				}
				m, ok := newMemLex(lx, v)
				if !ok {
					continue
				}
				calls++
				where := func() string { return path + ": " + lx.Text(v) }
				name := m.text(v)
				_, scope := m.enclosingBlock(v)
				if got, want := m.mentionBefore(v+1, scope, name), refMentionBefore(m, v+1, scope, name); got != want {
					t.Fatalf("%s: mentionBefore %d, the walk %d", where(), got, want)
				}
				if got, want := m.lastMentionCut(name, v+1, scope), refLastMentionCut(m, name, v+1, scope); got != want {
					t.Fatalf("%s: lastMentionCut %d, the walk %d", where(), got, want)
				}
				if got, want := m.derefBeforeWrite(v+1, v+1, scope, v, 1), refDerefBeforeWrite(m, v+1, v+1, scope, v, 1); got != want {
					t.Fatalf("%s: derefBeforeWrite %v, the walk %v", where(), got, want)
				}
				for _, tok := range []int{m.mention(v+1, name), scope, m.hi - 1} {
					if tok <= v {
						continue
					}
					got, want := m.untestedDerefBefore(v, tok), refUntestedDerefBefore(m, v, tok)
					if got != want {
						t.Fatalf("%s: untestedDerefBefore(.., %d) %v, the walk %v", where(), tok, got, want)
					}
					if want {
						derefs++
					}
				}
				if m.is(v+1, ":") && !m.is(v+2, ":") {
					labels++
					for _, in := range []bool{false, true} {
						d := &memDA{m: m, name: lx.Text(v), use: func(int) bool { return true }}
						if got, want := d.label(v, in), refLabel(d, v, in); got != want {
							t.Fatalf("%s: label %v, the walk %v", where(), got, want)
						}
					}
				}
			}
			lx.Recycle()
		}
	}
	if labels == 0 || derefs == 0 {
		t.Fatalf("%d names, %d labels, %d dereferences before a test: the test proves little", calls, labels, derefs)
	}
	t.Logf("%d names, %d labels, %d dereferences before a test", calls, labels, derefs)
}

func refMentionBefore(m memLex, i, limit int, name string) int {
	for k := i; k < min(limit, m.hi); k++ {
		if !m.lx.Is(k, name) || !m.ident(k) || m.is(k-1, "->") || m.is(k-1, ".") || m.noVariable(k) {
			continue
		}
		if m.is(k-1, "(") && m.is(k-2, "sizeof") || m.is(k-1, "sizeof") {
			continue
		}
		return k
	}
	return -1
}

func refLastMentionCut(m memLex, name string, from, to int) int {
	last := -1
	for j := to - 1; j >= from; j-- {
		if m.lx.Is(j, name) && m.ident(j) {
			last = j
			break
		}
	}
	if last < 0 {
		return from
	}
	depth := 0
	var g memGroups
	for j := from; j < to; j++ {
		if m.lx.Kind(j) == checkers.TokPreproc {
			g.directive(memDirective(m, j))
			continue
		}
		boundary := false
		switch m.lx.Tokens[j].First {
		case '(', '[', '{':
			depth++
		case ')', ']':
			depth--
		case '}':
			depth--
			boundary = !m.is(j+1, "else") && !m.is(j+1, "while")
		case ';':
			boundary = !m.is(j+1, "else")
		}
		if boundary && depth == 0 && g.outside() && j >= last {
			return j + 1
		}
	}
	return to
}

func refDerefBeforeWrite(m memLex, from, i, limit, ps, n int) bool {
	name := m.text(ps)
	for k := from; k < limit; k++ {
		if !m.lx.Is(k, name) {
			continue
		}
		if k >= i && m.straightWriteAt(i, k, ps, n) {
			return false
		}
		if m.derefAt(k, ps, n) {
			return true
		}
	}
	return false
}

func refUntestedDerefBefore(m memLex, v, tok int) bool {
	name := m.text(v)
	from := m.outerBrace(tok)
	type decision struct {
		at    int
		deref bool
	}
	var seen []decision
	toks := m.lx.Tokens
	for k := tok - 1; k > from; k-- {
		if t := &toks[k]; t.Kind != checkers.TokIdent {
			if t.First == ':' && t.End-t.Start == 1 && m.labelColon(k) {
				from = k
				break
			}
			continue
		}
		if !m.lx.Is(k, name) || m.is(k-1, "->") || m.is(k-1, ".") {
			continue
		}
		if m.is(k+1, "=") || m.fieldStore(k) {
			from = m.stmtEnd(k)
			break
		}
		if m.nullTestAt(k, k+1) && !m.unaryStar(k-1) {
			seen = append(seen, decision{k, false})
		} else if (m.is(k+1, "->") || m.is(k+1, "[") || m.unaryStar(k-1)) && !m.inSizeof(k) && m.mayDominate(k, tok) {
			seen = append(seen, decision{k, true})
		}
	}
	for i := len(seen) - 1; i >= 0; i-- {
		if seen[i].at >= from {
			return seen[i].deref
		}
	}
	return false
}

func refLabel(d *memDA, k int, assigned bool) bool {
	m := d.m
	name := m.text(k)
	g := d.gotos[name]
	n, back := 0, false
	for j := m.lo; j+1 < m.hi; j++ {
		if (m.is(j, "goto") || m.is(j, "&&")) && m.lx.Is(j+1, name) {
			if m.is(j, "&&") {
				return false
			}
			back = back || j > k
			n++
		}
	}
	if back {
		labels, gnu := 0, false
		for j := m.lo; j < m.hi; j++ {
			if m.lx.Is(j, name) && m.is(j+1, ":") {
				labels++
			}
			gnu = gnu || m.lx.Is(j, "__label__")
		}
		return labels == 1 && !gnu
	}
	if n == 0 {
		return assigned
	}
	if g == nil || len(g.seen) != n {
		return false
	}
	return d.join(assigned, g.state)
}

// TestWordShapeKeepsEveryWord: a wordShape rules out no token whose text
// is one of its words, over every identifier of the fixtures and a few
// words of their own.
func TestWordShapeKeepsEveryWord(t *testing.T) {
	set := map[string]bool{}
	for _, w := range inExternalTriggers {
		set[w] = true
	}
	src := []byte("int main(int argc, char **argv) { return atoi(getenv(\"X\")) + read + rea + strtoumax_ + optarg; }")
	ruled, kept := 0, 0
	for _, s := range append(triageSources(t), src) {
		lx := LexC(s)
		for k := range lx.Tokens {
			tk := &lx.Tokens[k]
			if tk.Kind != checkers.TokIdent {
				continue
			}
			if !inExternalTriggerShape.may(tk) {
				ruled++
				if set[lx.Text(k)] {
					t.Fatalf("%q ruled out", lx.Text(k))
				}
			} else if set[lx.Text(k)] {
				kept++
			}
		}
	}
	if ruled == 0 || kept == 0 {
		t.Fatalf("%d ruled out, %d words kept: the test proves little", ruled, kept)
	}
	// Every word of a shape's set passes it, as a token of its own.
	for _, c := range []struct {
		shape *wordShape
		words []string
	}{{&inExternalTriggerShape, inExternalTriggers}, {&memNoReturnShape, memKeys(memNoReturn)}} {
		for _, w := range c.words {
			lx := LexC([]byte(w + "();"))
			if !c.shape.may(&lx.Tokens[0]) {
				t.Errorf("%q ruled out by its own shape", w)
			}
		}
	}
}

// TestUsedBeforeMatchesWalk holds usedBefore (the loop keywords and
// braces found once per item, the mentions found with Find) to the walk
// over every token before the free that it replaced, at every call of
// the fixtures (and every third of $JSEC_TRIAGE_CORPUS's) whose first
// argument is a name, with the item whole and narrowed to the function
// around the call as memTriageFree narrows it.
func TestUsedBeforeMatchesWalk(t *testing.T) {
	files := triageFiles(t, "testdata")
	corpus := len(files)
	if dir := os.Getenv("JSEC_TRIAGE_CORPUS"); dir != "" {
		files = append(files, triageFiles(t, dir)...)
	}
	calls, used, loops := 0, 0, 0
	for fi, path := range files {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for _, lx := range []*checkers.Lexed{LexC(src), LexCPP(src)} {
			n := 0
			for tok := range lx.Tokens {
				if lx.Kind(tok) != checkers.TokIdent || !lx.Is(tok+1, "(") || lx.Kind(tok+2) != checkers.TokIdent {
					continue
				}
				if n++; fi >= corpus && n%3 != 0 {
					continue
				}
				whole, ok := newMemLex(lx, tok)
				if !ok {
					continue
				}
				for _, m := range []memLex{whole, whole.narrow(tok)} {
					a := tok + 2
					pe := m.pathEnd(a)
					name := m.text(a)
					gu, gl := m.usedBefore(a, pe, tok, name)
					wu, wl := refUsedBefore(m, a, pe, tok, name)
					if gu != wu || !gu && gl != wl {
						t.Fatalf("%s: %s(%s …): usedBefore %v %+v, the walk %v %+v", path, lx.Text(tok), name, gu, gl, wu, wl)
					}
					calls++
					if wu {
						used++
					} else if wl.end > 0 {
						loops++
					}
				}
			}
			lx.Recycle()
		}
	}
	if used == 0 || loops == 0 {
		t.Fatalf("%d calls, %d used before, %d in loops: the test proves little", calls, used, loops)
	}
	t.Logf("%d calls, %d used before, %d in loops", calls, used, loops)
}

func refUsedBefore(m memLex, a, pe, tok int, name string) (bool, memLoop) {
	loopEnd, loopUpdate, loopKw := -1, -1, -1
	toks := m.lx.Tokens
	body := m.firstBraceIn(tok)
	for j := m.lo; j < tok; j++ {
		isIdent := toks[j].Kind == checkers.TokIdent
		switch c := toks[j].First; {
		case isIdent && (c == 'f' && m.is(j, "for") || c == 'w' && m.is(j, "while") || c == 'd' && m.is(j, "do")):
			if end, upd := m.loopSpan(j, tok); end > 0 && (loopEnd < 0 || end < loopEnd) {
				loopEnd, loopUpdate, loopKw = end, upd, j
			}
		case !isIdent && m.p1(j) == '{' && m.is(j-1, ")") && j != body:
			if m.macroLoopHolds(j, tok) {
				if end := m.closeOf(j); loopEnd < 0 || end < loopEnd {
					loopEnd, loopUpdate, loopKw = end, -1, -1
				}
			}
		case isIdent && m.lx.Is(j, name):
			if m.is(j+1, "++") || m.is(j-1, "++") || m.is(j+1, "--") || m.is(j-1, "--") || m.is(j+1, "+=") || m.is(j+1, "-=") {
				return true, memLoop{}
			}
			freed := m.is(j-1, "(") && memDeallocators[string(m.word(j-2))] && m.is(j+pe-a, ")") ||
				(m.is(j-1, "delete") || m.is(j-1, "]") && m.is(j-2, "[") && m.is(j-3, "delete")) && m.is(j+pe-a, ";")
			if freed && m.samePath(j, a, pe-a) && m.pathEnd(j) == j+pe-a {
				if next, seg, _ := m.reachableNext(m.pathEnd(j)+1, a, pe); next >= 0 && !m.killedAt(seg, next, pe-a) {
					return true, memLoop{}
				}
			}
			if m.is(j+1, "=") && m.ident(j+2) && m.lx.Is(j+2, name) && (m.is(j+3, "+") || m.is(j+3, "-")) {
				return true, memLoop{}
			}
		}
	}
	return false, memLoop{loopEnd, loopUpdate, loopKw}
}

// TestCondSplitMatchesWalk holds splitTop and condAtom to the versions
// they replaced (two passes for every split; the path's end found once
// per case) on every if condition of the fixtures (and
// $JSEC_TRIAGE_CORPUS) and, recursively, on the operands they split off.
func TestCondSplitMatchesWalk(t *testing.T) {
	split, atoms := 0, 0
	for _, src := range triageSources(t, "void f(int *p, int *q) { if (p && q && !p->x || q == NULL || (p = g()) || NULL != q->y) h(); }") {
		lx := LexC(src)
		for tok := range lx.Tokens {
			if !lx.Is(tok, "if") || !lx.Is(tok+1, "(") {
				continue
			}
			m, ok := newMemLex(lx, tok)
			c := lx.Close(tok + 1)
			if !ok || c < 0 {
				continue
			}
			var walk func(from, to, depth int)
			walk = func(from, to, depth int) {
				gotOps, gotAnd := m.splitTop(from, to)
				wantOps, wantAnd := refSplitTop(m, from, to)
				if !reflect.DeepEqual(gotOps, wantOps) || gotAnd != wantAnd {
					t.Fatalf("splitTop(%q) = %v %v, the walk %v %v", lx.Src[lx.Tokens[from].Start:lx.Tokens[to-1].End], gotOps, gotAnd, wantOps, wantAnd)
				}
				var gotPlain, wantPlain []int
				got := m.condAtom(from, to, memCondVisit{plain: func(k int) { gotPlain = append(gotPlain, k) }})
				want := refCondAtom(m, from, to, memCondVisit{plain: func(k int) { wantPlain = append(wantPlain, k) }})
				if !reflect.DeepEqual(got, want) || !reflect.DeepEqual(gotPlain, wantPlain) {
					t.Fatalf("condAtom(%q) = %v %v, the walk %v %v", lx.Src[lx.Tokens[from].Start:lx.Tokens[to-1].End], got, gotPlain, want, wantPlain)
				}
				if len(want.nullT)+len(want.nullF) > 0 {
					atoms++
				}
				if len(wantOps) > 1 {
					split++
					if depth < 4 {
						for _, op := range wantOps {
							if op[1] > op[0] {
								walk(op[0], op[1], depth+1)
							}
						}
					}
				}
			}
			if c > tok+2 {
				walk(tok+2, c, 0)
			}
		}
		lx.Recycle()
	}
	if split == 0 || atoms == 0 {
		t.Fatalf("%d splits, %d atoms with facts: the test proves little", split, atoms)
	}
	t.Logf("%d splits, %d atoms with facts", split, atoms)
}

func refSplitTop(m memLex, from, to int) (ops [][2]int, and bool) {
	ors, ands := 0, 0
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
			ors++
		case t.End-t.Start == 2 && t.First == '&' && m.is(k, "&&"):
			ands++
		}
	}
	op := "||"
	switch {
	case ors > 0:
	case ands > 0:
		op, and = "&&", true
	default:
		return nil, false
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

func refCondAtom(m memLex, from, to int, v memCondVisit) memCondFacts {
	nullish := func(i int) bool { return m.is(i, "NULL") || m.is(i, "nullptr") || m.is(i, "0") }
	at, null := -1, false
	switch {
	case m.ident(from) && m.pathEnd(from) == to:
		at = from
	case m.ident(from) && m.pathEnd(from)+2 == to && (m.is(to-2, "==") || m.is(to-2, "!=")) && nullish(to-1):
		at, null = from, m.is(to-2, "==")
	case nullish(from) && (m.is(from+1, "==") || m.is(from+1, "!=")) && m.ident(from+2) && m.pathEnd(from+2) == to:
		at, null = from+2, m.is(from+1, "==")
	case m.ident(from) && m.is(m.pathEnd(from), "=") && !m.is(from-1, "*"):
		return memCondFacts{nullF: []memPath{{from, m.pathEnd(from)}}}
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
