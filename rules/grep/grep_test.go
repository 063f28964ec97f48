package grep

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"
	"testing"
)

// naive is the reference: the regexp on every line.
func naive(expr string, src []byte) []string {
	re := regexp.MustCompile(expr)
	var out []string
	for i, line := range bytes.Split(src, []byte("\n")) {
		if i == len(bytes.Split(src, []byte("\n")))-1 && len(line) == 0 && len(src) > 0 {
			break
		}
		if re.Match(line) {
			out = append(out, fmt.Sprintf("%d:%s", i+1, line))
		}
	}
	return out
}

func search(t *testing.T, expr string, src []byte) []string {
	p, err := Compile(expr)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	p.Search(src, func(m Match) bool { out = append(out, fmt.Sprintf("%d:%s", m.Line, m.Text)); return true })
	return out
}

func TestAgainstNaive(t *testing.T) {
	src := []byte("int main(void) {\n\tchar buf[8];\n\tstrcpy(buf, argv[1]);\n\tSTRCPY(x);\n\tgets(buf); gets(buf);\n}\nstrcpy at start\n\n  memcpy(a, b, n)\nlast line no newline strcpy")
	for _, expr := range []string{
		`strcpy\s*\(`, `\b(strcpy|gets|memcpy)\b`, `(?i)strcpy`, `buf\[\d+\]`, `^\s*\}`, `.*`, `[a-z]+\(`,
		`x{2,}`, `(foo)?bar`, `argv\[1\]`, `no newline`, `^$`, `gets\(buf\);.*gets`,
	} {
		got, want := search(t, expr, src), naive(expr, src)
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("%s:\n got %q\nwant %q", expr, got, want)
		}
	}
}

func TestLiterals(t *testing.T) {
	for expr, want := range map[string]string{
		`strcpy\s*\(`:          "strcpy",
		`\b(strcpy|gets)\b`:    "strcpy,gets",
		`[a-z]+`:               "",
		`foo.*barbaz`:          "barbaz",
		`(a|bc)d`:              "d",
		`(?:x|y)?longerword`:   "longerword",
		`(memcpy|strlen)\(dst`: "memcpy,strlen",
	} {
		p, err := Compile(expr)
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Join(p.Literals(), ","); got != want {
			t.Errorf("%s: literals %q, want %q", expr, got, want)
		}
	}
	if _, err := Compile(`(unclosed`); err == nil {
		t.Fatal("bad regexp accepted")
	}
}

func TestMatchOffsets(t *testing.T) {
	src := []byte("a\n  strcpy(x, y);\nzz strcpy(q)")
	for _, expr := range []string{`strcpy\(`, `.?strcpy\(`} {
		p, _ := Compile(expr)
		var got []string
		p.Search(src, func(m Match) bool { got = append(got, string(src[m.Start:m.End])); return true })
		if len(got) != 2 || !strings.HasSuffix(got[0], "strcpy(") || !strings.HasSuffix(got[1], "strcpy(") {
			t.Fatalf("%s: %q", expr, got)
		}
	}
}

func TestStopEarly(t *testing.T) {
	p, _ := Compile(`x`)
	n := 0
	p.Search([]byte("x\nx\nx\n"), func(Match) bool { n++; return n < 2 })
	if n != 2 {
		t.Fatalf("n = %d", n)
	}
}

func FuzzSearch(f *testing.F) {
	f.Add(`str(cpy|cat)`, "a\nstrcpy(b)\nstrcat\n")
	f.Add(`(?i)GETS`, "gets\n\nGeTs x")
	f.Fuzz(func(t *testing.T, expr, src string) {
		if _, err := regexp.Compile(expr); err != nil {
			return
		}
		got, want := search(t, expr, []byte(src)), naive(expr, []byte(src))
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Fatalf("%q on %q:\n got %q\nwant %q", expr, src, got, want)
		}
	})
}

func BenchmarkSearch(b *testing.B) {
	var src bytes.Buffer
	for src.Len() < 8<<20 {
		src.WriteString("static int parse_header(struct conn *c, const char *line, size_t len) {\n\tif (len > sizeof(c->buf) - 1) return -1;\n\tmemcpy(c->buf, line, len);\n}\n")
	}
	p, _ := Compile(`\b(strcpy|strcat|gets|sprintf|vsprintf|system|popen)\s*\(`)
	b.SetBytes(int64(src.Len()))
	for b.Loop() {
		p.Search(src.Bytes(), func(Match) bool { return true })
	}
}
