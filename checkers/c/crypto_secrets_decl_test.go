package c

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/jsec/jsec/checkers"
)

// secretDeclTriageText is secretDeclTriage as it compared token texts:
// the reference for the byte switch.
func secretDeclTriageText(lx *checkers.Lexed, tok int) bool {
	depth := 0
	for i := tok + 1; i < len(lx.Tokens) && i < tok+400; i++ {
		switch {
		case lx.Is(i, "(") || lx.Is(i, "[") || lx.Is(i, "{"):
			if depth == 0 && !lx.Is(i, "[") && secretTokLen(lx, i+1) >= 6 && lx.Kind(i-1) == checkers.TokIdent && credentialName(lx.Text(i-1)) != secretNone {
				return true
			}
			depth++
		case lx.Is(i, ")") || lx.Is(i, "]") || lx.Is(i, "}"):
			depth--
			if depth < 0 {
				return false
			}
		case depth == 0 && lx.Is(i, ";"):
			return false
		case depth == 0 && lx.Is(i, "=") && secretLiteralAssigned(lx, i):
			return true
		}
	}
	return false
}

// TestSecretDeclByteSwitch asks both about every token of the fixtures
// (and $JSEC_TRIAGE_CORPUS), inline declarations and 20,000 token soups.
func TestSecretDeclByteSwitch(t *testing.T) {
	srcs := triageSources(t, `static const char password[] = "hunter2hunter2";
std::string token{"abcdefgh"}; char *api_key = "0123456789"; int f(char *secret, int n);
char x[3] = {'a'}; const char *pw == "notadecl", q = ("zzzzzzzz"), *tok[2] = {"aaaaaaaa"};
`)
	r := rand.New(rand.NewPCG(3, 4))
	words := []string{"char", "password", "secret", "=", "==", "(", ")", "[", "]", "{", "}", ";", ",", `"abcdefgh"`, `"ab"`, "x", "*", "<:"}
	for range 20000 {
		var b strings.Builder
		for range 2 + r.IntN(25) {
			b.WriteString(words[r.IntN(len(words))])
			b.WriteByte(' ')
		}
		srcs = append(srcs, []byte(b.String()))
	}
	asked, yes := 0, 0
	for _, src := range srcs {
		for _, cpp := range []bool{false, true} {
			lx := Lex(src, cpp)
			for tok := range lx.Tokens {
				got, want := secretDeclTriage(lx, tok), secretDeclTriageText(lx, tok)
				if got != want {
					t.Fatalf("%q token %d %q: byte switch %v, texts %v", src, tok, lx.Text(tok), got, want)
				}
				asked++
				if want {
					yes++
				}
			}
			lx.Recycle()
		}
	}
	if yes == 0 || yes == asked {
		t.Fatalf("%d of %d tokens kept: the test proves little", yes, asked)
	}
	t.Logf("%d tokens asked, %d kept", asked, yes)
}
