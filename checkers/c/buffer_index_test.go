package c

import (
	"os"
	"strings"
	"testing"

	"github.com/jsec/jsec/checkers"
)

// TestBufMayDeclareArray holds the off-by-one triage's first check to the
// walk it saves: wherever bufMayDeclareArray rules a type word out, the
// declarator walk finds no candidate either. Over every fixture (and
// JSEC_TRIAGE_CORPUS when set), as C and as C++.
func TestBufMayDeclareArray(t *testing.T) {
	files := triageFiles(t, "testdata")
	if dir := os.Getenv("JSEC_TRIAGE_CORPUS"); dir != "" {
		files = append(files, triageFiles(t, dir)...)
	}
	words := map[string]bool{}
	for _, w := range bufElemTypes {
		words[w] = true
	}
	ruledOut, walked, found := 0, 0, 0
	for _, path := range files {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for _, lx := range []*checkers.Lexed{LexC(src), LexCPP(src)} {
			for tok := range lx.Tokens {
				if lx.Kind(tok) != checkers.TokIdent || !words[lx.Text(tok)] {
					continue
				}
				it := lx.ItemOf(tok)
				if it < 0 {
					continue
				}
				walked++
				cands := bufIdxWalk(lx, tok, it)
				found += len(cands)
				if bufMayDeclareArray(lx, tok, lx.Items[it].TokEnd) {
					continue
				}
				ruledOut++
				if len(cands) > 0 {
					t.Errorf("%s:%d: %s ruled out, but the walk finds %d candidates", path, 1+strings.Count(string(src[:lx.Tokens[tok].Start]), "\n"), lx.Text(tok), len(cands))
				}
			}
		}
	}
	if found == 0 || ruledOut == 0 {
		t.Fatalf("nothing exercised: %d walks, %d ruled out, %d candidates", walked, ruledOut, found)
	}
	t.Logf("%d type words, %d ruled out by the first check, %d candidates", walked, ruledOut, found)
}
