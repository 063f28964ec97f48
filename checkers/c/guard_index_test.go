package c

import (
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/jsec/jsec/checkers"
	"github.com/jsec/jsec/checkers/syntax"
)

// bothWays runs ask with the indexes off (the walks) and on for every size
// (guardIndexMin and reachingSearchMin at 0), and fails when the answers
// differ. It returns the answer.
func bothWays[T comparable](t *testing.T, what string, ask func() T) T {
	t.Helper()
	defer func(g, r int) { guardIndexMin, reachingSearchMin = g, r }(guardIndexMin, reachingSearchMin)
	guardIndexMin, reachingSearchMin = 1<<40, 1<<40
	walk := ask()
	guardIndexMin, reachingSearchMin = 0, 0
	if index := ask(); index != walk {
		t.Fatalf("%s: %v with the indexes, %v with the walks", what, index, walk)
	}
	return walk
}

// answers counts the questions asked and the yes answers, per question.
type answers map[string][2]int

func (a answers) add(q string, yes bool) {
	c := a[q]
	c[0]++
	if yes {
		c[1]++
	}
	a[q] = c
}

// check fails when a question was never asked on the fixtures or never
// answered yes: the fixtures no longer exercise both answers.
func (a answers) check(t *testing.T, qs ...string) {
	t.Helper()
	for _, q := range qs {
		if c := a[q]; c[0] == 0 || c[1] == 0 || c[1] == c[0] {
			t.Errorf("%s: %d asked, %d yes: the fixtures no longer exercise both answers", q, c[0], c[1])
		}
		t.Logf("%s: %d asked, %d yes", q, a[q][0], a[q][1])
	}
}

// TestGuardIndexesMatchWalks asks the guard questions of the checks about
// every call of every function of the C/C++ fixtures (and of
// $JSEC_TRIAGE_CORPUS when set), with each argument as the operand, both
// with the walks and with the indexes built for large blocks and bodies
// (and for definitions lists): the answers must be the same.
func TestGuardIndexesMatchWalks(t *testing.T) {
	got := answers{}
	ask := func(path string, p *checkers.Pass, fn syntax.Node) {
		defs := Defs(p, fn)
		for call := range fn.Field("body").Descendants() {
			if call.Kind() != "call_expression" || EnclosingFunction(call) != fn {
				continue
			}
			at := fmt.Sprintf("%s: %s at %d", path, call.Text(), call.Start())
			for _, a := range Args(call) {
				got.add("lengthChecked", bothWays(t, at+" lengthChecked", func() bool { return lengthChecked(p, call, a) }))
				got.add("bufSrcLenGuarded", bothWays(t, at+" bufSrcLenGuarded", func() bool { return bufSrcLenGuarded(p, call, a) }))
				names := bufLenNames(a)
				got.add("bufGuardedBy", bothWays(t, at+" bufGuardedBy", func() bool { return bufGuardedBy(p, call, names) }))
				if id := Ident(a); id != "" {
					got.add("inRangeCheckedAfter", bothWays(t, at+" inRangeCheckedAfter "+id, func() bool { return inRangeCheckedAfter(p, call, id) }))
					got.add("Reaching", bothWays(t, at+" Reaching "+id, func() string { return defsText(defs.Reaching(id, call)) }) != "")
				}
				got.add("exPathOrigin", bothWays(t, at+" exPathOrigin", func() string {
					src, ch := exPathOrigin(p, a, call)
					return fmt.Sprintf("%v %v %d", src.Origin, ch.basename, len(ch.realpath))
				}) != fmt.Sprintf("%v false 0", OriginUnknown))
			}
		}
	}
	eachFunction(t, ask)
	eachFunctionOf(t, "guards.c", []byte(guardSource), ask)
	got.check(t, "lengthChecked", "bufSrcLenGuarded", "bufGuardedBy", "inRangeCheckedAfter", "Reaching", "exPathOrigin")
}

// guardSource holds the guards the fixtures lack: a length compared with
// > only, and in an if after the call; an assertion as the guard; a range
// check only before the conversion.
const guardSource = `
void later(char *src, char *d2) {
	char dst[16];
	strcat(dst, src);
	if (strlen(src) >= sizeof dst) return;
	if (strlen(d2) > 15) return;
	strcat(dst, d2);
}
void asserted(char *src, int n) {
	char buf[8];
	assert(n < 8);
	memcpy(buf, src, n);
	buf[n] = 0;
}
int before(char *s) {
	int v = 0;
	if (v > 10) return 0;
	v = atoi(s);
	return v;
}
void resolved(char *in) {
	char out[4096];
	realpath(in, out);
	fopen(out, "r");
}
`

// tokenSource holds what the token indexes must leave out: a member of
// the same name assigned a length, and a declaration of the same array
// name after the call.
const tokenSource = `
void member(struct s *p, char *x, int n) {
	char *e = getenv("E");
	p->n = strlen(x);
	use(e, n);
}
void late(char *s) {
	{ char buf[4]; sprintf(buf, "%s", s); }
	{ char buf[64]; strcpy(buf, s); }
}
`

// eachFunctionOf calls f with every function of the C source src.
func eachFunctionOf(t *testing.T, name string, src []byte, f func(path string, p *checkers.Pass, fn syntax.Node)) {
	parser := syntax.NewParser(syntax.C)
	defer parser.Close()
	tree, err := parser.Parse(src, nil)
	if err != nil {
		t.Fatal(err)
	}
	p := &checkers.Pass{File: checkers.NewFile(name, "c", src), Lex: Lex(src, false), Tree: tree}
	for fn := range tree.Root().Descendants() {
		if fn.Kind() == "function_definition" {
			f(name, p, fn)
		}
	}
}

// TestDefsInSourceOrder: each name's definitions start in source order,
// which Reaching's binary search relies on.
func TestDefsInSourceOrder(t *testing.T) {
	n := 0
	eachFunction(t, func(path string, p *checkers.Pass, fn syntax.Node) {
		for name, ds := range Defs(p, fn).byName {
			for i := 1; i < len(ds); i++ {
				if ds[i].Node.Start() < ds[i-1].Node.Start() {
					t.Fatalf("%s: definitions of %s out of order: %s at %d after %s at %d", path, name, ds[i].Node.Text(), ds[i].Node.Start(), ds[i-1].Node.Text(), ds[i-1].Node.Start())
				}
			}
			n += len(ds)
		}
	})
	if n < 100 {
		t.Fatalf("only %d definitions in the fixtures", n)
	}
}

// defsText identifies a list of definitions by their nodes.
func defsText(ds []Def) string {
	var b strings.Builder
	for _, d := range ds {
		fmt.Fprintf(&b, "%d:%d ", d.Node.Index(), d.Kind)
	}
	return b.String()
}

// TestTokenIndexesMatchScans asks the token triage's questions that use
// per-item indexes in large items (bufTokLenSuspect, bufTokLocalArray,
// inSink) about every call and every token of every item of the fixtures
// (and of $JSEC_TRIAGE_CORPUS), both ways.
func TestTokenIndexesMatchScans(t *testing.T) {
	dirs := []string{"testdata"}
	if dir := os.Getenv("JSEC_TRIAGE_CORPUS"); dir != "" {
		dirs = append(dirs, dir)
	}
	got := answers{}
	askFile := func(path string, lx *checkers.Lexed) {
		for i, it := range lx.Items {
			plain := &inTokenTaint{lx: lx, start: it.TokStart, end: it.TokEnd}
			outer := &inTokenTaint{lx: lx, start: it.TokStart, end: it.TokEnd, outer: outerOpeners(lx, it.TokStart, it.TokEnd)}
			for k := it.TokStart; k < it.TokEnd; k++ {
				a, b := plain.inSink(k), outer.inSink(k)
				if a != b {
					t.Fatalf("%s: item %d token %d (%s): inSink %v with the openers, %v with the scan", path, i, k, lx.Text(k), b, a)
				}
				got.add("inSink", a)
				if lx.Kind(k) != checkers.TokIdent {
					continue
				}
				at := fmt.Sprintf("%s: %s at token %d", path, lx.Text(k), k)
				got.add("triageDivZero", bothWays(t, at+" triageDivZero", func() bool { return triageDivZero(lx, k) }))
				args, ok := lx.CallArgs(k)
				if !ok {
					continue
				}
				for _, sp := range args {
					got.add("bufTokLenSuspect", bothWays(t, at+" bufTokLenSuspect", func() bool { return bufTokLenSuspect(lx, k, sp) }))
					name := bufTokText(lx, sp)
					got.add("bufTokLocalArray", bothWays(t, at+" bufTokLocalArray "+name, func() string {
						n, e, ok := bufTokLocalArray(lx, k, name)
						return fmt.Sprint(n, e, ok)
					}) != "0 0 false")
				}
			}
		}
	}
	for _, path := range triageFiles(t, dirs...) {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		askFile(path, Lex(src, strings.HasSuffix(path, ".cc") || strings.HasSuffix(path, ".cpp")))
	}
	askFile("tokens.c", Lex([]byte(tokenSource), false))
	r := rand.New(rand.NewPCG(3, 4))
	words := []string{"{", "}", "(", ")", "[", "]", ";", ";", "for", "while", "x", "n", "<", "=", ",", "malloc", "atoi"}
	for range 20000 {
		var b strings.Builder
		b.WriteString("void g(void) { ")
		for range 4 + r.IntN(30) {
			b.WriteString(words[r.IntN(len(words))] + " ")
		}
		lx := Lex([]byte(b.String()), false)
		for _, it := range lx.Items {
			plain := &inTokenTaint{lx: lx, start: it.TokStart, end: it.TokEnd}
			outer := &inTokenTaint{lx: lx, start: it.TokStart, end: it.TokEnd, outer: outerOpeners(lx, it.TokStart, it.TokEnd)}
			for k := it.TokStart; k < it.TokEnd; k++ {
				if a, b2 := plain.inSink(k), outer.inSink(k); a != b2 {
					t.Fatalf("%q token %d: inSink %v with the openers, %v with the scan", b.String(), k, b2, a)
				}
			}
		}
	}
	got.check(t, "inSink", "triageDivZero", "bufTokLenSuspect", "bufTokLocalArray")
}

// TestOuterOpeners checks the openers table on a statement sequence with
// both kinds of brackets, closed by either kind, and braces.
func TestOuterOpeners(t *testing.T) {
	lx := Lex([]byte("f(a[b(c)]; x( y[ z ) ] { q ( }"), false)
	got := outerOpeners(lx, 0, len(lx.Tokens))
	var want []int32
	for _, w := range []int{-1, 1, 1, 3, 3, 5, 5, 3, 1, 1, 1, 11, 11, 13, 13, 11, 1, -1, -1, 19, -1} {
		want = append(want, int32(w))
	}
	if !slices.Equal(got, want) {
		var toks []string
		for k := range lx.Tokens {
			toks = append(toks, lx.Text(k))
		}
		t.Fatalf("tokens %q: openers %v, want %v", toks, got, want)
	}
}
