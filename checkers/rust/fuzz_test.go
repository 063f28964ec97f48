package rust

import "testing"

// FuzzLex: the lexer must accept any bytes, keep tokens inside the source
// and in order, and delimit items that do not overlap.
func FuzzLex(f *testing.F) {
	for _, s := range []string{
		"fn main() { let x = unsafe { *p }; }", "r#\"raw\"#", "/* /* nested */", "'a 'b' '\\u{1F600}'", "#![x] mod m { #[test] fn t() {} }",
		"b'x' br##\"y\"## c\"z\"", "}}}{{{",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		lx := Lex(src)
		last := int32(0)
		for _, tk := range lx.Tokens {
			if tk.Start < last || tk.End < tk.Start || int(tk.End) > len(src) {
				t.Fatalf("bad token %+v after %d (len %d)", tk, last, len(src))
			}
			last = tk.End
		}
		prev := 0
		for _, it := range lx.Items {
			if it.TokStart < prev || it.TokEnd <= it.TokStart || it.TokEnd > len(lx.Tokens) || it.End > len(src) {
				t.Fatalf("bad item %+v", it)
			}
			prev = it.TokEnd
		}
	})
}
