package issue

import (
	"bytes"
	"io/fs"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// checkByStart holds lineHashesByStart to LineHashes (the rolling
// computation of every line) for the wanted lines of src, a file without
// CR.
func checkByStart(t testing.TB, src []byte, wanted map[int]bool) {
	t.Helper()
	all := LineHashes(src)
	got := lineHashesByStart(src, wanted)
	for l := range wanted {
		if l >= 1 && l <= len(all) {
			if got[l] != all[l-1] {
				t.Fatalf("%q line %d: %q by its start, %q rolled", src, l, got[l], all[l-1])
			}
		} else if _, in := got[l]; in {
			t.Fatalf("%q: line %d is past the end but got %q", src, l, got[l])
		}
	}
	if len(got) > len(wanted) {
		t.Fatalf("%q: %d hashes for %d lines", src, len(got), len(wanted))
	}
}

// soupLines makes a file of n lines drawn from a few shapes, so that
// lines repeat (occurrence numbers above 1, keys that match without the
// windows matching), with indentation, blanks inside the first 8 units,
// short lines whose key runs into the next ones, and non-ASCII text.
func soupLines(r *rand.Rand, n int) []byte {
	shapes := []string{
		"}", "", "\t}", "\treturn 0;", "\treturn -1;", "\t\tfree(p);", "if (x)",
		"int i;", "  x++;", "{", "s = \"é\";", "ab", "\t \t", "a\x00b\x0c",
		"/* \U0001F600 */", "\xff\xfe bad", "abcdefgh", "abcdefghi", "abcdefg",
	}
	var b bytes.Buffer
	for range n {
		b.WriteString(shapes[r.Intn(len(shapes))])
		if r.Intn(9) == 0 {
			b.WriteString(strings.Repeat("x", r.Intn(130)))
		}
		b.WriteByte('\n')
	}
	if r.Intn(2) == 0 && b.Len() > 0 {
		b.Truncate(b.Len() - 1 - r.Intn(min(3, b.Len()))) // no final newline
	}
	return b.Bytes()
}

// TestLineHashesByStartMatchRolled: every line, each line alone and
// random sets of lines, on generated files and hand-made edge cases.
func TestLineHashesByStartMatchRolled(t *testing.T) {
	srcs := [][]byte{
		nil, []byte("a"), []byte("a\n"), []byte("\n\n\n"), []byte("abcdefgh"),
		[]byte("abcdefg\n"), []byte(" \t a b c d e f g h\n"),
		[]byte(strings.Repeat("\tfree(p);\n\treturn 0;\n}\n\n", 40) + "end"),
		[]byte(strings.Repeat(strings.Repeat("y", 120)+"\n", 4)),
	}
	r := rand.New(rand.NewSource(7))
	for i := range 400 {
		srcs = append(srcs, soupLines(r, r.Intn(i/4+2)))
	}
	for _, src := range srcs {
		n := len(LineHashes(src))
		all := map[int]bool{}
		for l := -1; l <= n+2; l++ {
			all[l] = true
		}
		checkByStart(t, src, all)
		for l := 1; l <= n; l++ {
			checkByStart(t, src, map[int]bool{l: true})
		}
		some := map[int]bool{}
		for range 3 {
			some[1+r.Intn(n)] = true
		}
		checkByStart(t, src, some)
	}
}

// TestLineHashesAtTakesLineStarts: LineHashesAt answers from the lines'
// starts for a file without CR and rolls otherwise, with the same values,
// occurrence numbers included.
func TestLineHashesAtTakesLineStarts(t *testing.T) {
	src := []byte(strings.Repeat("int f(void)\n{\n\treturn 0;\n}\n\n", 30))
	all := LineHashes(src)
	want := map[int]bool{3: true, 8: true, 13: true}
	for _, got := range []map[int]string{lineHashesByStart(src, want), LineHashesAt(src, want)} {
		if got[3] != all[2] || got[8] != all[7] || got[13] != all[12] || !strings.HasSuffix(got[13], ":3") {
			t.Fatalf("got %v, rolled %v %v %v", got, all[2], all[7], all[12])
		}
	}
	crlf := bytes.ReplaceAll(src, []byte("\n"), []byte("\r\n"))
	if got := LineHashesAt(crlf, want); got[3] != all[2] || got[13] != all[12] {
		t.Fatalf("CRLF: got %v, want the LF file's %v %v", got, all[2], all[12])
	}
}

// TestKeyAt holds the 8-byte fast path of keyAt to the unit loop.
func TestKeyAt(t *testing.T) {
	r := rand.New(rand.NewSource(3))
	alphabet := []byte("ab \t\n;{\x00\x7f\x80\xc3")
	for range 20000 {
		src := make([]byte, r.Intn(14))
		for i := range src {
			src[i] = alphabet[r.Intn(len(alphabet))]
		}
		p := 0
		if len(src) > 0 {
			p = r.Intn(len(src))
		}
		key, ok := keyAt(src, p)
		var want []byte
		wantOK := true
		for q := p; len(want) < plainKeyLen; q++ {
			if q >= len(src) || src[q] >= 0x80 {
				wantOK = false
				break
			}
			if src[q] != ' ' && src[q] != '\t' {
				want = append(want, src[q])
			}
		}
		if ok != wantOK {
			t.Fatalf("keyAt(%q, %d): ok %v, want %v", src, p, ok, wantOK)
		}
		if ok {
			var w uint64
			for i, b := range want {
				w |= uint64(b) << (8 * i)
			}
			if key != w {
				t.Fatalf("keyAt(%q, %d) = %x, want %x", src, p, key, w)
			}
		}
	}
}

// TestLineHashesByStartCorpus runs the comparison on every line of the
// files under $JSEC_LINEHASH_CORPUS (real code; skipped when unset).
func TestLineHashesByStartCorpus(t *testing.T) {
	dir := os.Getenv("JSEC_LINEHASH_CORPUS")
	if dir == "" {
		t.Skip("JSEC_LINEHASH_CORPUS not set")
	}
	files, lines := 0, 0
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return nil
		}
		switch filepath.Ext(p) {
		case ".c", ".h", ".cc", ".cpp", ".hpp", ".rs":
		default:
			return nil
		}
		src, err := os.ReadFile(p)
		if err != nil || bytes.IndexByte(src, '\r') >= 0 {
			return nil
		}
		files++
		n := len(LineHashes(src))
		all := map[int]bool{}
		for l := 1; l <= n; l++ {
			all[l] = true
		}
		lines += n
		checkByStart(t, src, all)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d files without CR, %d lines: identical", files, lines)
}

func FuzzLineHashesAt(f *testing.F) {
	f.Add([]byte("int main() {\n  char buf[8];\n  gets(buf);\n}\n"), uint8(3))
	f.Add([]byte("}\n}\n}\n\treturn 0;\n}\n"), uint8(2))
	f.Add([]byte("a\rb\r\r\nc"), uint8(1))
	f.Fuzz(func(t *testing.T, src []byte, pick uint8) {
		all := LineHashes(src)
		want := map[int]bool{int(pick)%(len(all)+2) + 0: true, len(all): true, 1 + int(pick)%len(all): true}
		got := LineHashesAt(src, want)
		for l := range want {
			if l >= 1 && l <= len(all) && got[l] != all[l-1] {
				t.Fatalf("%q line %d: %q, rolled %q", src, l, got[l], all[l-1])
			}
		}
	})
}
