package lit

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// naive is the reference: every occurrence of every word.
func naive(words []string, src []byte, fold bool) map[Match]bool {
	res := map[Match]bool{}
	lower := func(b []byte) []byte { // ASCII only, byte for byte, like the matcher
		out := bytes.Clone(b)
		for i, c := range out {
			if c >= 'A' && c <= 'Z' {
				out[i] = c + 'a' - 'A'
			}
		}
		return out
	}
	hay := src
	if fold {
		hay = lower(src)
	}
	for id, w := range words {
		if w == "" {
			continue
		}
		needle := []byte(w)
		if fold {
			needle = lower(needle)
		}
		for i := 0; i+len(needle) <= len(hay); i++ {
			if bytes.Equal(hay[i:i+len(needle)], needle) {
				res[Match{id, i, i + len(needle)}] = true
			}
		}
	}
	return res
}

func check(t *testing.T, words []string, src string, fold bool) {
	t.Helper()
	m := New(words, Options{FoldASCII: fold})
	got := map[Match]bool{}
	last := -1
	for _, x := range m.FindAll(nil, []byte(src)) {
		if x.End < last {
			t.Fatalf("matches out of order: %v after end %d", x, last)
		}
		last = x.End
		if got[x] {
			t.Fatalf("duplicate match %v", x)
		}
		got[x] = true
	}
	want := naive(words, []byte(src), fold)
	if len(got) != len(want) {
		t.Fatalf("words %q in %q: got %d matches, want %d\n got %v\nwant %v", words, src, len(got), len(want), got, want)
	}
	for x := range want {
		if !got[x] {
			t.Fatalf("missing %v (%q)", x, words[x.Word])
		}
	}
	if m.Any([]byte(src)) != (len(want) > 0) {
		t.Fatal("Any disagrees with FindAll")
	}
}

func TestOverlapsAndSuffixes(t *testing.T) {
	check(t, []string{"he", "she", "his", "hers"}, "ushers and his hershey", false)
	check(t, []string{"strcpy", "strcat", "str", "cpy", "strncpy"}, "x = strncpy(strcpy(a,b), strcat)", false)
	check(t, []string{"a", "aa", "aaa"}, "aaaaa", false)
	check(t, []string{"SELECT", "from"}, "select * FROM t", true)
	check(t, nil, "anything", false)
	check(t, []string{""}, "anything", false)
}

func TestRandomAgainstNaive(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	alpha := "abc_XY"
	word := func(n int) string {
		var b strings.Builder
		for range n {
			b.WriteByte(alpha[r.IntN(len(alpha))])
		}
		return b.String()
	}
	for i := range 300 {
		var words []string
		for range 1 + r.IntN(8) {
			words = append(words, word(1+r.IntN(4)))
		}
		t.Run(fmt.Sprint(i), func(t *testing.T) { check(t, words, word(r.IntN(60)), i%2 == 0) })
	}
}

func FuzzMatcher(f *testing.F) {
	f.Add("strcpy,gets,memcpy", "int main(){ gets(b); strcpy(a,b); }")
	f.Add("a,ab,b", "abab")
	f.Fuzz(func(t *testing.T, ws, src string) {
		words := strings.Split(ws, ",")
		if len(words) > 20 {
			words = words[:20]
		}
		check(t, words, src, len(src)%2 == 0)
	})
}

func BenchmarkScan(b *testing.B) {
	words := strings.Fields("strcpy strcat gets sprintf vsprintf memcpy memmove strncpy strncat printf fprintf snprintf syslog scanf sscanf fscanf realloc malloc calloc free system popen execl execlp execv execvp tmpnam mktemp atoi rand strtok alloca")
	m := New(words, Options{})
	var src bytes.Buffer
	for src.Len() < 8<<20 {
		src.WriteString("static int parse_header(struct conn *c, const char *line, size_t len) {\n\tif (len > sizeof(c->buf) - 1) return -1;\n\tmemcpy(c->buf, line, len);\n}\n")
	}
	b.SetBytes(int64(src.Len()))
	for b.Loop() {
		n := 0
		m.Scan(src.Bytes(), func(Match) bool { n++; return true })
	}
}
