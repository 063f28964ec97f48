package c

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/jsec/jsec/checkers"
	"github.com/jsec/jsec/checkers/syntax"
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
		// The lexer writes checkers.NewToken out: First and One must be
		// what NewToken sets.
		if want := checkers.NewToken(lx.Src, int(tk.Start), int(tk.End), tk.Kind, tk.Flags); tk != want {
			t.Fatalf("token %+v, want %+v as NewToken makes it", tk, want)
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
	checkLexFacts(t, lx)
}

// FuzzTriage: every C and C++ triage must answer on any token stream
// without panicking (the engine turns a panic into "parse it", which
// would hide the bug and cost a parse).
func FuzzTriage(f *testing.F) {
	for _, s := range []string{
		"int f(char *p) { int n; if (p && (n = g(p)) > 0) return n; free(p); free(p); return *p; }",
		"void f(struct s *o) { o->p = NULL; if (o) o->p[0] = 1; char *q = c ? xstrdup(a) : NULL; }",
		"void f(void) { while ((p = pop(l)) != NULL) { free(p->name); } for (;;) { x = y ? : z; } }",
		"int main(int argc, char **argv) { char *v = malloc(atoi(argv[1]) * sizeof(int)); }",
		"void f() { wchar_t w[4]; wcsncpy(w, s, sizeof(w)); memcpy(b + 2, c, sizeof(b) - 2); }",
		"( ) && || ? : { } [ ] & * = == != -> . , ; if while for do switch case default goto",
		"int f(int a) { int n; if (a) n = 1;\n#if V6\nelse if (b) n = 2; else n = 4;\n#elif W\n\n#else\nelse g();\n#endif\nelse return n; return n; }",
	} {
		f.Add([]byte(s), false)
		f.Add([]byte(s), true)
	}
	f.Fuzz(func(t *testing.T, src []byte, cpp bool) {
		lx := Lex(src, cpp)
		for _, c := range allCheckers() {
			if c.Triage == nil {
				continue
			}
			for _, w := range c.Triggers {
				for tok := range lx.Tokens {
					if lx.Tokens[tok].Kind == checkers.TokIdent && lx.Is(tok, w) {
						c.Triage(lx, tok) // a panic fails the test
					}
				}
			}
		}
	})
}

// FuzzDefineInt holds maybeDefine to its promise: a directive it turns
// away is one parseDefine would not read as a #define either.
func FuzzDefineInt(f *testing.F) {
	for _, s := range []string{
		"#define N 16", "#  define N (4*4)", "#\tdefine N 1 // c", "#define\\\n N 2", "#\\\ndefine N 3",
		"#include <stdio.h>", "#if X", "#endif", "#defined", "#define", "#define F(x) x", "# \u00a0define N 5",
		"#\vdefine N 6", "#define\rN 7", "#define\vN 8", "#pragma once", "#definex 1", "#  \\\n define N 9",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		line = append([]byte{'#'}, line...)
		if maybeDefine(line) {
			return
		}
		if name, v, ok := parseDefine(line, map[string]int64{}); ok {
			t.Fatalf("maybeDefine turned away %q, which defines %s = %d", line, name, v)
		}
	})
}

// FuzzTriageSound holds every C and C++ Triage to its contract on mutated
// code, as TestTriageSound does on the fixtures and corpora: with its
// Triage a checker reports everything it reports without one. The seeds
// are the checkers' fixtures, and the C files of at most fuzzSoundMax
// bytes under $JSEC_FUZZ_SEEDS when set (real code mutates into shapes
// the fixtures lack); a mutation that reaches a construct the token-level
// triage misjudges (a pointer reached through another, a macro shape)
// fails with the finding it hid.
func FuzzTriageSound(f *testing.F) {
	for _, dir := range []string{"testdata", os.Getenv("JSEC_FUZZ_SEEDS")} {
		if dir == "" {
			continue
		}
		fuzzSeeds(f, dir)
	}
	var sound []*triageSoundness
	var names []string
	parsers := map[string]*syntax.Parser{"c": syntax.NewParser(syntax.C), "cpp": syntax.NewParser(syntax.CPP)}
	for _, c := range allCheckers() {
		if c.Triage != nil {
			sound = append(sound, newTriageSoundness(c))
			names = append(names, c.Name)
		}
	}
	f.Fuzz(func(t *testing.T, src []byte, cpp bool) {
		if len(src) > fuzzSoundMax {
			return
		}
		lang := "c"
		if cpp {
			lang = "cpp"
		}
		// Code the parser recovers from errors in is left out: Check's
		// reading of a recovered tree is no contract the triage keeps.
		if tree, err := parsers[lang].Parse(src, nil); err != nil || tree.Root().HasError() {
			return
		}
		for i, s := range sound {
			for _, h := range s.compare(lang, src).hidden {
				t.Errorf("line %d: %s's triage hides %s: %s", h.line, names[i], h.rule, h.message)
			}
		}
	})
}

// fuzzSoundMax bounds FuzzTriageSound's inputs (each runs every checker
// twice, parsing all of it).
const fuzzSoundMax = 8 << 10

// fuzzSeeds adds the C and C++ files under dir as seeds.
func fuzzSeeds(f *testing.F, dir string) {
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		ext := filepath.Ext(p)
		if err != nil || d.IsDir() || (ext != ".c" && ext != ".cc" && ext != ".h") {
			return nil
		}
		if src, err := os.ReadFile(p); err == nil && len(src) <= fuzzSoundMax {
			f.Add(src, ext == ".cc")
		}
		return nil
	})
}
