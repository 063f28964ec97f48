package c

import (
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/jsec/jsec/checkers"
)

// checkLexFacts holds the facts the lexer recorded to a pass over the
// tokens it emitted.
func checkLexFacts(t *testing.T, lx *checkers.Lexed) {
	t.Helper()
	got, want := *fileLexFacts(lx), *scanLexFacts(lx)
	norm := func(f *lexFacts) {
		for _, s := range []*[]int32{&f.directives, &f.gotos, &f.labels, &f.colons} {
			if len(*s) == 0 {
				*s = nil
			}
		}
	}
	norm(&got)
	norm(&want)
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("lexer's facts %+v, the tokens' %+v", got, want)
	}
}

// TestLexFactsMatchScan: on every fixture (and $JSEC_TRIAGE_CORPUS), as C
// and as C++, the directives, jumps and C++ markers the lexer records are
// those a pass over its tokens finds; and a Lexed the lexer did not make
// gets them from that pass.
func TestLexFactsMatchScan(t *testing.T) {
	files := triageFiles(t, "testdata")
	if dir := os.Getenv("JSEC_TRIAGE_CORPUS"); dir != "" {
		files = append(files, triageFiles(t, dir)...)
	}
	seen := lexFacts{}
	for _, path := range files {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for _, cpp := range []bool{false, true} {
			lx := Lex(src, cpp)
			checkLexFacts(t, lx)
			f := fileLexFacts(lx)
			seen.directives = append(seen.directives, f.directives...)
			seen.gotos = append(seen.gotos, f.gotos...)
			seen.labels = append(seen.labels, f.labels...)
			seen.colons = append(seen.colons, f.colons...)
			seen.cppMarker = seen.cppMarker || f.cppMarker
			lx.Recycle()
		}
	}
	if len(seen.directives) == 0 || len(seen.gotos) == 0 || len(seen.labels) == 0 || len(seen.colons) == 0 || !seen.cppMarker {
		t.Fatalf("the files lack a kind of fact (directives %d, gotos %d, labels %d, colons %d, C++ %v): the test proves little",
			len(seen.directives), len(seen.gotos), len(seen.labels), len(seen.colons), seen.cppMarker)
	}
	t.Logf("%d files: %d directives, %d gotos, %d labels, %d colons", len(files), len(seen.directives), len(seen.gotos), len(seen.labels), len(seen.colons))

	src := []byte("#include <x.h>\nint f(int a) {\n  switch (a) { case 1: goto out; default: break; }\nout:\n  return A::b;\n}\n// goto case\nchar *s = \"class\";\n")
	lx := Lex(src, true)
	other := &checkers.Lexed{Src: lx.Src, Tokens: lx.Tokens, Items: lx.Items}
	f := fileLexFacts(other)
	if len(f.directives) != 1 || len(f.gotos) != 1 || len(f.labels) != 2 || len(f.colons) != 3 || !f.cppMarker {
		t.Errorf("facts of a Lexed made by hand: %+v", *f)
	}
	checkLexFacts(t, lx)
	plain := Lex([]byte(strings.ReplaceAll(string(src), "A::b", "0")), false)
	if fileLexFacts(plain).cppMarker {
		t.Errorf("a C++ marker found in code without one")
	}
}
