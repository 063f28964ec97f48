package checkers_test

import (
	"context"
	"strings"
	"testing"

	"github.com/jsec/jsec/checkers"
	"github.com/jsec/jsec/checkers/syntax"
)

// FuzzAnalyze runs every C, C++ and Rust checker over arbitrary input: no
// checker may panic (the engine would turn it into a problem report) and
// every finding must lie inside the file.
func FuzzAnalyze(f *testing.F) {
	seeds := []string{
		"int main(int c, char **v) { char b[8]; strcpy(b, v[1]); gets(b); free(b); free(b); }",
		"void f(char *p) { char *q = malloc(10); memcpy(q, p, strlen(p)); printf(p); system(p); }",
		"fn f(p: *const u8) -> u8 { unsafe { *p } } fn g() { let x: f32 = unsafe { std::mem::transmute(1u32) }; x.unwrap(); }",
		"class A { virtual void f(); }; void g(std::string s) { auto t = std::move(s); s.size(); delete[] new int; }",
	}
	for i, s := range seeds {
		f.Add([]byte(s), uint8(i))
	}
	langs := languages()
	names := []string{"c", "cpp", "rust"}
	f.Fuzz(func(t *testing.T, src []byte, which uint8) {
		name := names[int(which)%len(names)]
		lang := langs[name]
		a := checkers.NewAnalyzer(lang, nil)
		p := syntax.NewParser(lang.Grammar)
		defer p.Close()
		file := checkers.NewFile("fuzz."+name, name, src)
		res, err := a.Analyze(context.Background(), file, p)
		if err != nil {
			t.Fatal(err)
		}
		for _, pr := range res.Problems {
			if !strings.HasPrefix(pr, "parse:") {
				t.Fatalf("%s: %s", name, pr)
			}
		}
		for _, fd := range res.Findings {
			if fd.Span.Start < 0 || fd.Span.End > len(src) || fd.Span.End < fd.Span.Start {
				t.Fatalf("finding %s outside the file: %+v", fd.Rule, fd.Span)
			}
		}
		checkers.ToIssues(file, res.Findings, 3, 0)
	})
}
