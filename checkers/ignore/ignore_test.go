package ignore

import (
	"testing"
)

func TestMatch(t *testing.T) {
	m := MustParse(
		"# comment",
		"*.o",
		"build/",
		"/only-root.c",
		"docs/**/*.tmp",
		"**/generated",
		"!keep.o",
		"a/**",
		"log?.txt",
		"[Tt]emp[0-9]",
		"\\#literal",
		"trailing   ",
	)
	cases := []struct {
		path  string
		dir   bool
		want  bool
		match bool
	}{
		{"x.o", false, true, true},
		{"src/deep/x.o", false, true, true},
		{"keep.o", false, false, true},
		{"src/keep.o", false, false, true},
		{"build", true, true, true},
		{"build", false, false, false}, // dir-only
		{"src/build", true, true, true},
		{"only-root.c", false, true, true},
		{"src/only-root.c", false, false, false},
		{"docs/a/b/c.tmp", false, true, true},
		{"docs/c.tmp", false, true, true},
		{"x/docs/c.tmp", false, false, false},
		{"generated", true, true, true},
		{"src/generated", true, true, true},
		{"a/b/c", false, true, true},
		{"log1.txt", false, true, true},
		{"log10.txt", false, false, false},
		{"Temp3", false, true, true},
		{"temp3", false, true, true},
		{"#literal", false, true, true},
		{"trailing", false, true, true},
		{"main.c", false, false, false},
	}
	for _, c := range cases {
		got, ok := m.Match(c.path, c.dir)
		if got != c.want || ok != c.match {
			t.Errorf("Match(%q, dir=%v) = %v,%v; want %v,%v", c.path, c.dir, got, ok, c.want, c.match)
		}
	}
}

func TestStackPrecedence(t *testing.T) {
	root := MustParse("*.log", "vendor/")
	sub := MustParse("!important.log")
	s := Stack{}.With(Layer{"", root}).With(Layer{"src", sub})
	if !s.Ignored("x.log", false) || !s.Ignored("lib/x.log", false) {
		t.Fatal("root pattern not applied")
	}
	if s.Ignored("src/important.log", false) {
		t.Fatal("deeper negation did not override")
	}
	if !s.Ignored("src/other.log", false) {
		t.Fatal("root pattern lost under src")
	}
	if !s.Ignored("src/vendor", true) {
		t.Fatal("dir pattern not applied in subdir")
	}
}

func TestBadLines(t *testing.T) {
	m, errs := Parse([]byte("ok.c\n[unterminated\n*.h\n"))
	if len(errs) != 1 || m.Len() != 2 {
		t.Fatalf("errs=%v len=%d", errs, m.Len())
	}
}

func FuzzParse(f *testing.F) {
	f.Add("*.o\n!keep.o\nbuild/\n/docs/**/x\n[a-z]?", "src/keep.o")
	f.Fuzz(func(t *testing.T, data, path string) {
		m, _ := Parse([]byte(data))
		m.Match(path, false)
		m.Match(path, true)
	})
}
