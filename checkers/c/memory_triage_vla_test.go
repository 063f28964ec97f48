package c

import "testing"

// TestVLABracketFilter asks memTriageVLA, which skips declarations
// without a "[", and the declarator walk alone about every type word of
// the fixtures (and $JSEC_TRIAGE_CORPUS) and of inline declarations.
func TestVLABracketFilter(t *testing.T) {
	srcs := triageSources(t, `void f(int n) {
	int a[n], b = c[n], d;
	char e[sizeof(x[n])], g[N];
	int (*h)[n];
	int k = f(a[n]), m[n];
	struct s t[n + 1];
}
`)
	declarations, bracketed, kept := 0, 0, 0
	for _, src := range srcs {
		lx := Lex(src, false)
		for tok := range lx.Tokens {
			if !memTypeSet[lx.Text(tok)] {
				continue
			}
			want := false
			if m, ok := newMemLex(lx, tok); ok {
				if end := m.localDecl(tok); end >= 0 {
					declarations++
					want = m.vlaDeclarator(tok, end)
					if hasOpenBracket(lx, tok, end) {
						bracketed++
					}
				}
			}
			if got := memTriageVLA(lx, tok); got != want {
				t.Fatalf("token %d %q (line %d): triage %v, the walk %v", tok, lx.Text(tok), lineOf(src, int(lx.Tokens[tok].Start)), got, want)
			}
			if want {
				kept++
			}
		}
		lx.Recycle()
	}
	if kept == 0 || bracketed == declarations {
		t.Fatalf("%d declarations, %d with a bracket, %d kept: the test proves little", declarations, bracketed, kept)
	}
	t.Logf("%d local declarations, %d with a \"[\", %d kept", declarations, bracketed, kept)
}
