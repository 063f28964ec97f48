package c

import "testing"

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
		del := -1
		for i := range lx.Tokens {
			if lx.Is(i, "delete") {
				del = i
				break
			}
		}
		if del < 0 {
			t.Fatalf("%s: no delete in %q", c.name, c.src)
		}
		if got := memTriageFree(lx, del); got != c.parse {
			t.Errorf("%s: triage asks for a parse = %v, want %v\n%s", c.name, got, c.parse, c.src)
		}
	}
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
