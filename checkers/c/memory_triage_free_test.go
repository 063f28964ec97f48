package c

import (
	"testing"

	"github.com/jsec/jsec/checkers"
)

// TestFreeTriageNamedCasts pins the delete triage on named casts: Check
// follows no path through one, so a statement deleting a cast asks for no
// parse, while the same delete of the plain pointer still does.
func TestFreeTriageNamedCasts(t *testing.T) {
	cases := []struct {
		name, src string
		parse     bool
	}{
		{"a cast deleted, then used", `int f(Msg *m) { delete static_cast<Msg *>(m); return m->n; }`, false},
		{"a member through reinterpret_cast", `void f(H *h) { delete reinterpret_cast<::ns::Lite*>(h->msg_); h->msg_ = nullptr; }`, false},
		{"a nested template argument", `void f(void *p) { delete static_cast<std::vector<std::vector<int>>*>(p); }`, false},
		{"the plain pointer deleted, then used", `int f(Msg *m) { delete m; return m->n; }`, true},
		{"a cast that does not end the statement", `void f(Msg *m, int k) { delete static_cast<Msg *>(m), k++; m->n = k; }`, true},
	}
	for _, c := range cases {
		lx := LexCPP([]byte(c.src))
		if got := memTriageFree(lx, tokenOf(t, lx, "delete", false)); got != c.parse {
			t.Errorf("%s: triage asks for a parse = %v, want %v\n%s", c.name, got, c.parse, c.src)
		}
	}
}

// tokenOf returns the first (or the last) token whose text is word.
func tokenOf(t *testing.T, lx *checkers.Lexed, word string, last bool) int {
	t.Helper()
	at := -1
	for i := range lx.Tokens {
		if lx.Is(i, word) {
			at = i
			if !last {
				break
			}
		}
	}
	if at < 0 {
		t.Fatalf("no %s in %q", word, lx.Src)
	}
	return at
}

// TestAngleEnd pins Lexed.AngleEnd on C++ template arguments: nested
// lists, ">>" closing two, a comparison inside parentheses, and a
// statement end before any close.
func TestAngleEnd(t *testing.T) {
	cases := []struct {
		src  string
		want string // the text from the closing token on, "" for none
	}{
		{"vector<int> v;", "> v;"},
		{"map<string, vector<int>> m;", ">> m;"},
		{"array<int, (N > 2 ? 4 : 8)> a;", "> a;"},
		{"static_cast<const char *>(p);", ">(p);"},
		{"a < b; c > d;", ""},
	}
	for _, c := range cases {
		lx := LexCPP([]byte(c.src))
		lt := -1
		for i := range lx.Tokens {
			if lx.Is(i, "<") {
				lt = i
				break
			}
		}
		got := ""
		if e := lx.AngleEnd(lt); e >= 0 {
			got = c.src[lx.Tokens[e].Start:]
		}
		if got != c.want {
			t.Errorf("%q: AngleEnd at %q, want %q", c.src, got, c.want)
		}
	}
}

// TestFreeTriageEarlierFree pins the free triage on an earlier free of
// the same pointer: it keeps the later free (a possible double free) only
// when the definite-assignment walk from the earlier one finds a path on
// which the released value reaches a mention before a reassignment.
func TestFreeTriageEarlierFree(t *testing.T) {
	cases := []struct {
		name, src string
		parse     bool
	}{
		{"reassigned in the block of the later free", `void f(int a, int b) { char *old; if (a) { old = put(1); free(old); } if (b) { old = put(2); free(old); } }`, false},
		{"freed on one path, freed again", `void f(char *p, int c) { if (c) free(p); g(); free(p); }`, true},
		{"reassigned on one path only", `void f(char *p, int c) { free(p); if (c) p = g(); free(p); }`, true},
		{"reassigned on every path", `void f(char *p, int c) { free(p); if (c) p = g(); else p = h(); free(p); }`, false},
		{"the earlier free in a loop, reassigned after it", `void f(char **v, int n, char *p) { for (int i = 0; i < n; i++) { if (v[i]) { free(p); } p = v[i]; } free(p); }`, false},
		{"the earlier free in a loop", `void f(char **v, int n, char *p) { for (int i = 0; i < n; i++) { if (v[i]) { free(p); } } free(p); }`, true},
		{"a mention between the frees", `void f(char *p, int c) { free(p); if (c) use(p); p = g(); free(p); }`, true},
	}
	for _, c := range cases {
		lx := LexC([]byte(c.src))
		if got := memTriageFree(lx, tokenOf(t, lx, "free", true)); got != c.parse {
			t.Errorf("%s: triage of the last free asks for a parse = %v, want %v\n%s", c.name, got, c.parse, c.src)
		}
	}
}
