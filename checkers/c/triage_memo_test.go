package c

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/jsec/jsec/checkers"
)

// Triage facts found once per item (rngNames, arrayFacts, arithNames)
// must answer as the scans they replaced did, for each occurrence.

// tokenAt returns the index of the n-th (from 0) identifier token with
// the text word.
func tokenAt(t *testing.T, lx *checkers.Lexed, word string, n int) int {
	t.Helper()
	for i := range lx.Tokens {
		if lx.Kind(i) == checkers.TokIdent && lx.Text(i) == word {
			if n == 0 {
				return i
			}
			n--
		}
	}
	t.Fatalf("no identifier %q number %d", word, n)
	return -1
}

func TestRandomTriageNamesPerCall(t *testing.T) {
	src := `
void f(struct s *s) {
	int n = rand();
	s->session = rand();
	log("%d", n);
}
void g(void) {
	int a = rand();
	int key;
	key = 1;
}
void h(char *buf) {
	buf[0] = rand();
	make_salt(buf);
}
void k(void) {
	int x = rand();
	int y = rand();
}
`
	lx := Lex([]byte(src), false)
	for _, c := range []struct {
		n    int
		want bool
		why  string
	}{
		{0, false, "f: a weak name in another statement of the item"},
		{1, true, "f: a weak name in the call's statement (asked after the item's facts are found)"},
		{2, false, "g: the weak name's statement is not the call's"},
		{3, true, "h: a strong name anywhere in the item"},
		{4, false, "k: no name a random value could land in"},
		{5, false, "k: the second call, from the item's facts"},
	} {
		if got := triageRandom(lx, tokenAt(t, lx, "rand", c.n)); got != c.want {
			t.Errorf("rand #%d: %v, want %v (%s)", c.n, got, c.want, c.why)
		}
	}
}

func TestMayBeArrayBeforeTheFree(t *testing.T) {
	src := `
void f(int n) {
	char buf[8];
	char *p, *q, *r, *s, *u;
	p = buf;
	q = "text";
	r = &n;
	s = NULL;
	free(p);
	free(q);
	free(r);
	free(s);
	free(buf);
	free(u);
	u = buf;
	char late[4];
	free(late);
}
`
	lx := Lex([]byte(src), false)
	for _, c := range []struct {
		name string
		n    int // which free
		want bool
	}{
		{"p", 0, true},   // assigned an array
		{"q", 1, true},   // assigned a literal
		{"r", 2, true},   // assigned an address
		{"s", 3, false},  // assigned NULL
		{"buf", 4, true}, // declared with [ ]
		{"u", 5, false},  // assigned an array only after the free
	} {
		tok := tokenAt(t, lx, "free", c.n)
		m, ok := newMemLex(lx, tok)
		if !ok {
			t.Fatal("no item")
		}
		if got := m.narrow(tok).mayBeArray(tok+2, tok); got != c.want {
			t.Errorf("free(%s): mayBeArray %v, want %v", c.name, got, c.want)
		}
	}
	// late is declared with [ ] after every free but its own.
	if tok := tokenAt(t, lx, "free", 6); !memLexAt(t, lx, tok).mayBeArray(tok+2, tok) {
		t.Error("free(late) after its declaration: not taken for an array")
	}
	if tok := tokenAt(t, lx, "free", 0); memLexAt(t, lx, tok).mayBeArray(tokenAt(t, lx, "late", 1), tok) {
		t.Error("late, asked at the first free (before its declaration): taken for an array")
	}
}

func memLexAt(t *testing.T, lx *checkers.Lexed, tok int) memLex {
	t.Helper()
	m, ok := newMemLex(lx, tok)
	if !ok {
		t.Fatal("no item")
	}
	return m.narrow(tok)
}

// TestSignedSizeIndexMatchesScan runs the signed-size triage with and
// without its index of names (arithIndexMin lowered to 1) over the arith
// and buffer fixtures and $JSEC_TRIAGE_CORPUS when set: every occurrence
// must get the same answer.
func TestSignedSizeIndexMatchesScan(t *testing.T) {
	dirs := []string{filepath.Join("testdata", "arith"), filepath.Join("testdata", "buffer"), filepath.Join("testdata", "memory")}
	if dir := os.Getenv("JSEC_TRIAGE_CORPUS"); dir != "" {
		dirs = append(dirs, dir)
	}
	var c *checkers.Checker
	for _, x := range arithCheckers {
		if x.Name == "c/int/signed-size" {
			c = x
		}
	}
	if c == nil {
		t.Fatal("no c/int/signed-size checker")
	}
	defer func(v int) { arithIndexMin = v }(arithIndexMin)
	asked, kept := 0, 0
	ask := func(path string, lx *checkers.Lexed) {
		for i := range lx.Tokens {
			if lx.Kind(i) != checkers.TokIdent || !slices.Contains(c.Triggers, lx.Text(i)) {
				continue
			}
			arithIndexMin = 1 << 30
			scan := triageSignedSize(lx, i)
			arithIndexMin = 1
			if index := triageSignedSize(lx, i); index != scan {
				t.Fatalf("%s: %s at token %d: %v with the index, %v with the scan", path, lx.Text(i), i, index, scan)
			}
			asked++
			if scan {
				kept++
			}
		}
	}
	for _, path := range triageFiles(t, dirs...) {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		ask(path, Lex(src, strings.HasSuffix(path, ".cc") || strings.HasSuffix(path, ".cpp")))
	}
	// A size whose value comes from a variable an input call fills as a
	// later argument.
	ask("filled.c", Lex([]byte(`
void f(int fd) {
	int x;
	int m;
	read(fd, x, 4);
	m = x;
	malloc(m);
}
`), false))
	if asked < 20 || kept == 0 || kept == asked {
		t.Fatalf("%d occurrences asked, %d kept: the fixtures no longer exercise both answers", asked, kept)
	}
	t.Logf("%d occurrences asked, %d kept", asked, kept)
}
