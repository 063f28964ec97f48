package c

import (
	"testing"

	"github.com/jsec/jsec/checkers"
)

// FuzzLex: the lexer must accept any bytes, keep tokens inside the source
// and in order, and delimit items that do not overlap.
func FuzzLex(f *testing.F) {
	for _, s := range []string{
		"int main(void) { char b[8]; gets(b); }",
		"#if 0\nx\n#else\ny\n#endif\n", "R\"x(raw)x\"", "/* unterminated", "'\\", "namespace a { extern \"C\" { int f(); } }",
		"#define A(x) \\\n  x\n", "}}}{{{", "u8\"s\" L'c' 1'000'000",
	} {
		f.Add([]byte(s), true)
		f.Add([]byte(s), false)
	}
	f.Fuzz(func(t *testing.T, src []byte, cpp bool) {
		checkLexed(t, Lex(src, cpp))
	})
}

func checkLexed(t *testing.T, lx *checkers.Lexed) {
	last := int32(0)
	for _, tk := range lx.Tokens {
		if tk.Start < last || tk.End < tk.Start || int(tk.End) > len(lx.Src) {
			t.Fatalf("bad token %+v after %d (len %d)", tk, last, len(lx.Src))
		}
		last = tk.End
	}
	prev := 0
	for _, it := range lx.Items {
		if it.TokStart < prev || it.TokEnd <= it.TokStart || it.TokEnd > len(lx.Tokens) || it.Start > it.End || it.End > len(lx.Src) {
			t.Fatalf("bad item %+v", it)
		}
		prev = it.TokEnd
	}
}
