package c

import (
	"bytes"
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

// TestLexerBracesMatchPass holds the braces the lexer pairs as it emits
// them (braceMatcher) to the pass over the tokens that paired them before
// (refMatchBraces), on every fixture (and $JSEC_TRIAGE_CORPUS), as C and
// as C++, and on conditional-compilation cases of its own.
func TestLexerBracesMatchPass(t *testing.T) {
	srcs := triageSources(t,
		"#ifdef X\nint f(int a, int b) {\n#else\nint f(int a) {\n#endif\n  return a;\n}\n",
		"#ifndef X\nvoid g(void) { }\n#else\nvoid g(void) { }\n#endif\nint h;\n",
		"#if A\n{ {\n#elif B\n{\n#else\n}\n#endif\n} }\n#endif\n#else\n{\n",
		"#if 0\n{\n#endif\n}\n#if 1\n{\n#else\n}\n#endif\n}\n")
	pairs := 0
	for _, src := range srcs {
		for _, cpp := range []bool{false, true} {
			l := &lexer{src: src, cpp: cpp, filter: wordFilter(), facts: &lexFacts{}}
			l.run()
			lx := &checkers.Lexed{Src: src, Tokens: l.toks}
			want := refMatchBraces(lx)
			got := closesOf(nil, len(l.toks), l.braces.pairs)
			for i := range want {
				if int(got[i])-1 != int(want[i]) {
					t.Fatalf("token %d (%q): the lexer pairs it with %d, the pass with %d\n%s", i, lx.Text(i), got[i]-1, want[i], src)
				}
				if want[i] >= 0 {
					pairs++
				}
			}
		}
	}
	if pairs == 0 {
		t.Fatal("no braces paired: the test proves nothing")
	}
	t.Logf("%d sources, %d pairs", len(srcs), pairs)
}

// refMatchBraces is the pass over the tokens that paired braces before
// the lexer did (see braceMatcher): -1 for a "{" without a "}".
func refMatchBraces(lx *checkers.Lexed) []int32 {
	toks := lx.Tokens
	closes := make([]int32, len(toks))
	type frame struct {
		saved, first []int32
		inElse       bool
	}
	var stack []int32
	var frames []frame
	isPunct := func(i int, c byte) bool {
		t := &toks[i]
		return t.Kind == checkers.TokPunct && t.End-t.Start == 1 && t.First == c
	}
	for i := range toks {
		closes[i] = -1
		if toks[i].Kind == checkers.TokPreproc {
			name, _ := directiveWord(lx.Src[toks[i].Start:toks[i].End])
			switch name {
			case "if", "ifdef", "ifndef":
				frames = append(frames, frame{saved: append([]int32(nil), stack...)})
			case "else", "elif", "elifdef", "elifndef":
				if k := len(frames) - 1; k >= 0 {
					if !frames[k].inElse {
						frames[k].first, frames[k].inElse = append([]int32(nil), stack...), true
					}
					stack = append(stack[:0:0], frames[k].saved...)
				}
			case "endif":
				if k := len(frames) - 1; k >= 0 {
					if frames[k].inElse {
						stack = frames[k].first
					}
					frames = frames[:k]
				}
			}
			continue
		}
		if isPunct(i, '{') {
			stack = append(stack, int32(i))
		} else if isPunct(i, '}') && len(stack) > 0 {
			closes[stack[len(stack)-1]] = int32(i)
			stack = stack[:len(stack)-1]
		}
	}
	return closes
}

// TestLexerBracketsMatchPass holds the brackets the lexer pairs as it
// emits them (Lexed.BracketPairs) to the pass over the tokens that pairs
// them for a Lexed made otherwise, on every fixture (and
// $JSEC_TRIAGE_CORPUS), as C and as C++, and on unbalanced cases.
func TestLexerBracketsMatchPass(t *testing.T) {
	srcs := triageSources(t, "f(a[1)]; } { (", "int x = (a[(b)]]);\n#if A\n(\n#else\n)\n#endif\n}")
	pairs := 0
	for _, src := range srcs {
		for _, cpp := range []bool{false, true} {
			lx := Lex(src, cpp)
			if lx.BracketPairs == nil && bytes.ContainsAny(src, "()[]{}") {
				t.Fatalf("the lexer paired no brackets in %q", src)
			}
			ref := &checkers.Lexed{Src: lx.Src, Tokens: lx.Tokens}
			for i := range lx.Tokens {
				if got, want := lx.Close(i), ref.Close(i); got != want {
					t.Fatalf("Close(%d) %d, the pass %d\n%s", i, got, want, src)
				}
				if got, want := lx.Open(i), ref.Open(i); got != want {
					t.Fatalf("Open(%d) %d, the pass %d\n%s", i, got, want, src)
				}
				if lx.Close(i) >= 0 {
					pairs++
				}
			}
			lx.Recycle()
		}
	}
	if pairs == 0 {
		t.Fatal("no brackets paired: the test proves nothing")
	}
	t.Logf("%d sources, %d pairs", len(srcs), pairs)
}
