package ignore

import (
	"bufio"
	"bytes"
	"regexp"
	"slices"
	"strings"
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
		"[Rr]ésumé",
		"naïve",
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
		{"docs/résumé", false, true, true}, // a class and multi-byte text
		{"Résumé/x.c", false, true, true},
		{"src/naïve/x.c", false, true, true},
		{"naive", false, false, false},
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

// scannerLines splits data as Parse did before eachLine: bufio.Scanner
// with ScanLines and a buffer of up to 1 MB.
func scannerLines(data []byte) []string {
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	var out []string
	for sc.Scan() {
		out = append(out, sc.Text())
	}
	return out
}

// checkLines fails when eachLine and bufio.Scanner split data apart.
func checkLines(t *testing.T, data []byte) {
	t.Helper()
	var got []string
	eachLine(data, func(s string) { got = append(got, s) })
	want := scannerLines(data)
	if !slices.Equal(got, want) {
		t.Fatalf("eachLine(%.40q... %d bytes) = %d lines, bufio.Scanner %d", data, len(data), len(got), len(want))
	}
}

func TestEachLineMatchesScanner(t *testing.T) {
	long := strings.Repeat("x", maxLine-1)
	for _, s := range []string{
		"", "\n", "\n\n", "a", "a\n", "a\r\n", "a\r", "\r", "\r\r\n", "a\nb", "a\n\nb\n",
		"*.o\r\n!keep.o\r\n", "x\r\ny\rz\n",
		long, long + "\n", long + "\r\nnext\n", long + "y", long + "y\n", long + "yz\nnext\n",
		"a\n" + long + "yy\nb\n", "a\n" + long + "\nb",
	} {
		checkLines(t, []byte(s))
	}
}

func FuzzParse(f *testing.F) {
	f.Add("*.o\n!keep.o\nbuild/\n/docs/**/x\n[a-z]?", "src/keep.o")
	f.Add("a\r\n\r\nb\r", "a")
	f.Fuzz(func(t *testing.T, data, path string) {
		checkLines(t, []byte(data))
		m, _ := Parse([]byte(data))
		m.Match(path, false)
		m.Match(path, true)
	})
}

// regexpTwin is the regular expression the pattern stood for before
// plain globs were matched without one.
func regexpTwin(t testing.TB, p *Pattern) *regexp.Regexp {
	re, err := compileRegexp(strings.Join(p.segs, "/"), p.anchored)
	if err != nil {
		t.Fatalf("%q: %v", p.Source, err)
	}
	return re
}

// checkTwin fails when a plain pattern and its regular expression
// disagree on a path.
func checkTwin(t testing.TB, line, rel string) {
	m, errs := Parse([]byte(line))
	if len(errs) > 0 || m.Len() != 1 || m.patterns[0].segs == nil {
		return
	}
	p := &m.patterns[0]
	if got, want := p.match(rel), regexpTwin(t, p).MatchString(rel); got != want {
		t.Fatalf("pattern %q, path %q: matched %v, its regular expression %v", line, rel, got, want)
	}
}

// words lists every string of up to n symbols of the alphabet.
func words(alphabet []string, n int) []string {
	out := []string{""}
	last := []string{""}
	for range n {
		var next []string
		for _, w := range last {
			for _, a := range alphabet {
				next = append(next, w+a)
			}
		}
		out = append(out, next...)
		last = next
	}
	return out
}

// TestPlainGlobsMatchTheirRegexp runs every plain pattern of up to four
// symbols against every path of up to four, multi-byte and invalid
// UTF-8 and a newline included.
func TestPlainGlobsMatchTheirRegexp(t *testing.T) {
	globs := words([]string{"a", "*", "?", "/", "é"}, 4)
	paths := words([]string{"a", "b", "/", "é", "\xff", "\n"}, 4)
	plain := 0
	for _, g := range globs {
		m, _ := Parse([]byte(g))
		if m.Len() == 0 || m.patterns[0].segs == nil {
			continue
		}
		plain++
		p := &m.patterns[0]
		re := regexpTwin(t, p)
		for _, rel := range paths {
			if got, want := p.match(rel), re.MatchString(rel); got != want {
				t.Fatalf("pattern %q, path %q: matched %v, its regular expression %v", g, rel, got, want)
			}
		}
	}
	if plain < 300 {
		t.Fatalf("only %d of %d patterns took the plain path", plain, len(globs))
	}
}

func TestPlainOrRegexp(t *testing.T) {
	for line, plain := range map[string]bool{
		"*.o": true, "/git-add": true, "build/": true, "docs/*.tmp": true, "log?.txt": true,
		"docs/**/*.tmp": false, "[Tt]emp": false, "a\\*b": false, "a\uFFFDb": false, "\xffx": false,
	} {
		m := MustParse(line)
		if got := m.patterns[0].segs != nil; got != plain {
			t.Errorf("%q: plain %v, want %v", line, got, plain)
		}
	}
}

func FuzzPlainGlob(f *testing.F) {
	f.Add("*.o", "src/x.o")
	f.Add("/a*b?c/d", "a\xffbzc/d/e")
	f.Add("*a*a", "aaa/b")
	f.Fuzz(func(t *testing.T, line, rel string) {
		checkTwin(t, line, rel)
	})
}

// matchLinear is Match without the name index: the last matching line
// of all, tried one by one.
func matchLinear(m *Matcher, rel string, isDir bool) (ignored, matched bool) {
	for i := len(m.patterns) - 1; i >= 0; i-- {
		p := &m.patterns[i]
		if (!p.dirOnly || isDir) && p.match(rel) {
			return !p.negate, true
		}
	}
	return false, false
}

func checkIndexed(t testing.TB, m *Matcher, rel string) {
	for _, dir := range []bool{false, true} {
		gi, gm := m.Match(rel, dir)
		wi, wm := matchLinear(m, rel, dir)
		if gi != wi || gm != wm {
			var src []string
			for _, p := range m.patterns {
				src = append(src, p.Source)
			}
			t.Fatalf("%q (dir %v) against %q: %v,%v; one line at a time %v,%v", rel, dir, src, gi, gm, wi, wm)
		}
	}
}

// TestIndexedMatchesLinear: ignore files of four lines drawn from names,
// rooted names, directory-only and negated ones, globs and a class, the
// same name repeated, against paths of up to three components.
func TestIndexedMatchesLinear(t *testing.T) {
	lines := []string{"a", "/a", "a/", "!a", "!/a/", "b", "/b", "!b/", "*.c", "a/b", "!a.c", "b*", "[ab]", "/a/b/", "a.c"}
	paths := words([]string{"a", "b", "a.c"}, 3)
	var rels []string
	for _, w := range paths {
		if w != "" {
			rels = append(rels, w, "a/"+w, w+"/b", "b/"+w+"/a")
		}
	}
	n := 0
	for _, a := range lines {
		for _, b := range lines {
			for _, c := range lines {
				for _, d := range []string{"a", "!a/", "*.c", "!b"} {
					m := MustParse(a, b, c, d)
					for _, rel := range rels {
						checkIndexed(t, m, rel)
					}
					n++
				}
			}
		}
	}
	if n != len(lines)*len(lines)*len(lines)*4 {
		t.Fatal(n)
	}
}

func FuzzIndexedMatch(f *testing.F) {
	f.Add("a\n!/a\n*.c\nb/\n!b", "x/a/b")
	f.Fuzz(func(t *testing.T, data, rel string) {
		m, _ := Parse([]byte(data))
		checkIndexed(t, m, rel)
	})
}
