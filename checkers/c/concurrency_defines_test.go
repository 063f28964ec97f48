package c

import (
	"testing"

	"github.com/jsec/jsec/checkers"
)

// definesFuncScan is definesFunc as it was, a pass over the tokens per
// question: the reference TestDefinesFuncMatchesScan holds the memo to.
func definesFuncScan(lx *checkers.Lexed, i int) bool {
	if lx.Kind(i) != checkers.TokIdent {
		return false
	}
	name := lx.Text(i)
	for j, t := range lx.Tokens {
		if t.Kind == checkers.TokIdent && j != i && lx.Is(j, name) && lx.Is(j+1, "(") {
			if cl := lx.Close(j + 1); cl > 0 && lx.Is(cl+1, "{") {
				return true
			}
		}
	}
	return false
}

// TestDefinesFuncMatchesScan asks definesFunc about every token of the
// fixtures (and $JSEC_TRIAGE_CORPUS), and of a file where a function's
// only definition is the token asked about, both ways.
func TestDefinesFuncMatchesScan(t *testing.T) {
	srcs := triageSources(t, "void h(int s) { }\nvoid g(int s) { }\nint main(void) { signal(2, h); signal(3, g); g(1); signal(4, k); }\nvoid h(int s);\n")
	yes, asked := 0, 0
	for _, src := range srcs {
		lx := Lex(src, false)
		for i := range lx.Tokens {
			got, want := definesFunc(lx, i), definesFuncScan(lx, i)
			if got != want {
				t.Fatalf("token %d %q: definesFunc %v, the scan %v", i, lx.Text(i), got, want)
			}
			if lx.Kind(i) == checkers.TokIdent {
				asked++
			}
			if got {
				yes++
			}
		}
		lx.Recycle()
	}
	if yes == 0 || yes == asked {
		t.Fatalf("%d of %d identifiers name a defined function: the test proves little", yes, asked)
	}
	t.Logf("%d identifiers, %d name a function the file defines", asked, yes)
}
