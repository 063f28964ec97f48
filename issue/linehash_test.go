package issue

import (
	"math/rand"
	"strings"
	"testing"
)

// Expected primaryLocationLineHash values.
//
// Worked by hand from hash() in github/codeql-action src/fingerprints.ts:
// for the file "a\n" the kept units are 'a' (97), '\n' (10) and the EOF
// marker 65535, then the flush pushes zeros. Line 1's value is taken when
// its slot comes round again, 100 units later, so its window is 97, 10,
// 65535 and 97 zeros:
//
//	97·37^99 + 10·37^98 + 65535·37^97  mod 2^64 = 0x243cbaa4685aab12
//
// Line 2 (the empty line after the final newline) starts at the EOF
// marker; its window is 65535 and 99 zeros:
//
//	65535·37^99  mod 2^64 = 0xc129715d7a2bc9a3
//
// Every file ends in that line, so c129715d7a2bc9a3 closes every case
// whose text ends in a newline. The other cases were computed by running
// the original hash() (transcribed to JavaScript, with the `long` package
// it uses) under Node 20 on the same bytes; the same run agreed with
// LineHashes on 300 random files mixing CR/LF, tabs, multi-byte, astral
// and invalid UTF-8, and on five 300 KB files that cross Node's 64 KB read
// chunks.
func TestLineHashesMatchCodeQL(t *testing.T) {
	for name, c := range map[string]struct {
		src  string
		want []string
	}{
		"by hand": {"a\n", []string{"243cbaa4685aab12:1", "c129715d7a2bc9a3:1"}},
		"empty":   {"", []string{"c129715d7a2bc9a3:1"}},
		"C function": {"int main() {\n  char buf[8];\n  gets(buf);\n}\n",
			[]string{"741276ca89139c86:1", "18696008ab46bb5c:1", "3eb32c21ae3de168:1", "32dce9ccfdbc9d3e:1", "c129715d7a2bc9a3:1"}},
		// Indentation, spaces inside the line and CRLF do not count.
		"same function, reformatted": {"int main() {\r\n\tchar  buf[8];\r\n\t\tgets( buf );\r\n}\r\n",
			[]string{"741276ca89139c86:1", "18696008ab46bb5c:1", "3eb32c21ae3de168:1", "32dce9ccfdbc9d3e:1", "c129715d7a2bc9a3:1"}},
		// Lines whose next 100 characters are the same share a hash and
		// are told apart by the occurrence suffix.
		"repeated lines": {strings.Repeat(strings.Repeat("x", 120)+"\n", 3) + "end\n",
			[]string{"52b56201ffb58620:1", "52b56201ffb58620:2", "52b56201ffb58620:3", "fe2be582c6296f40:1", "c129715d7a2bc9a3:1"}},
		// An astral character is two UTF-16 units; invalid UTF-8 becomes
		// U+FFFD the way Node decodes it (E9 80 is one maximal subpart).
		"astral and invalid UTF-8": {"s = \"\U0001F600\";\n\xe9\x80A\n\xff\n",
			[]string{"a87048cc7e7398c0:1", "b1b4def0e520764a:1", "a88b3c201b7e6ebe:1", "c129715d7a2bc9a3:1"}},
		// A lone CR ends a line; CR CR LF is two line ends; no final newline.
		"lone CR": {"a\rb\r\r\nc", []string{"4850bf53658d4e53:1", "b0367d257df6d03c:1", "1c206f60a702cfe8:1", "188ff2f224477a1e:1"}},
	} {
		got := LineHashes([]byte(c.src))
		if strings.Join(got, " ") != strings.Join(c.want, " ") {
			t.Errorf("%s:\n got %v\nwant %v", name, got, c.want)
		}
	}
}

func TestSnippetLineHash(t *testing.T) {
	file := "int main() {\n  char buf[8];\n  gets(buf);\n}\n"
	full := LineHashes([]byte(file))
	lines := strings.Split(strings.TrimSuffix(file, "\n"), "\n")
	// The snippet reaches the end of the file, so every line agrees.
	for n := 1; n <= len(lines); n++ {
		if got := SnippetLineHash(1, lines, n); got != full[n-1] {
			t.Errorf("line %d: snippet %q, file %q", n, got, full[n-1])
		}
	}
	// A snippet that starts later numbers lines from its StartLine.
	if got := SnippetLineHash(2, lines[1:], 3); got != full[2] {
		t.Errorf("offset snippet: %q, want %q", got, full[2])
	}
	if SnippetLineHash(2, lines[1:], 1) != "" || SnippetLineHash(2, lines[1:], 5) != "" {
		t.Error("a line outside the snippet got a hash")
	}
}

func TestUTF16Units(t *testing.T) {
	for in, want := range map[string][]uint16{
		"a\u00e9\u4e2d":    {'a', 0xE9, 0x4E2D},
		"\U0001F600":       {0xD83D, 0xDE00},
		"\xef\xbb\xbfx":    {0xFEFF, 'x'}, // the BOM is kept, as Node keeps it
		"\xe1\x80A":        {0xFFFD, 'A'}, // one U+FFFD for a truncated sequence
		"\xed\xa0\x80":     {0xFFFD, 0xFFFD, 0xFFFD},
		"\xc0\xaf":         {0xFFFD, 0xFFFD},
		"\xf4\x90\x80\x80": {0xFFFD, 0xFFFD, 0xFFFD, 0xFFFD},
		"\xf0\x9f":         {0xFFFD},
	} {
		var got []uint16
		utf16Units([]byte(in), func(u uint16) { got = append(got, u) })
		if len(got) != len(want) {
			t.Errorf("%q: %x, want %x", in, got, want)
			continue
		}
		for i := range got {
			if got[i] != want[i] {
				t.Errorf("%q: %x, want %x", in, got, want)
				break
			}
		}
	}
}

// TestHashLinesFastPath: the byte loop of HashLines, which rolls the hash
// itself for printable ASCII inside a line, agrees with feeding every
// UTF-16 unit to lineHasher.char.
func TestHashLinesFastPath(t *testing.T) {
	alphabet := []byte("ab ;\t\r\n\n\x00\x0c{}\xc3\xa9\xff\xf0\x9f\x98\x80")
	r := rand.New(rand.NewSource(1))
	for n := range 300 {
		src := make([]byte, r.Intn(40*n+1))
		for i := range src {
			src[i] = alphabet[r.Intn(len(alphabet))]
		}
		var fast, slow []string
		HashLines(src, func(line int, hash uint64, occ int) bool {
			fast = append(fast, FormatLineHash(hash, occ))
			return true
		})
		h := &lineHasher{lineStart: true, counts: map[uint64]int{}, emit: func(line int, hash uint64, occ int) bool {
			slow = append(slow, FormatLineHash(hash, occ))
			return true
		}}
		utf16Units(src, h.char)
		h.finish()
		if strings.Join(fast, " ") != strings.Join(slow, " ") {
			t.Fatalf("%q:\nfast %v\nslow %v", src, fast, slow)
		}
	}
}

// TestLineHashesAtMatchesLineHashes holds the per-line lookup, which
// counts occurrences on the hashes it kept, to the full computation,
// including lines whose hash repeats and lines past the end.
func TestLineHashesAtMatchesLineHashes(t *testing.T) {
	defer func(v int) { lineCountScanMax = v }(lineCountScanMax)
	for _, limit := range []int{1 << 40, 0} { // a pass per line, one pass
		lineCountScanMax = limit
		lineHashesAtMatch(t)
	}
}

func lineHashesAtMatch(t *testing.T) {
	t.Helper()
	srcs := []string{
		"",
		"a\n",
		"x = 1;\n}\n}\n}\nfree(p);\n}\n",
		strings.Repeat("\tfree(p);\n\treturn 0;\n}\n\n", 40) + "end",
		"one\r\ntwo\rthree\n\n\n",
	}
	for _, src := range srcs {
		all := LineHashes([]byte(src))
		want := map[int]bool{}
		for l := 0; l <= len(all)+2; l++ {
			want[l] = true
		}
		got := LineHashesAt([]byte(src), want)
		for l := range want {
			if l >= 1 && l <= len(all) {
				if got[l] != all[l-1] {
					t.Errorf("%q line %d: %q, LineHashes says %q", src, l, got[l], all[l-1])
				}
			} else if _, ok := got[l]; ok {
				t.Errorf("%q: line %d is past the end but got %q", src, l, got[l])
			}
		}
		// One line alone, as the scanner asks.
		for l := 1; l <= len(all); l++ {
			if one := LineHashesAt([]byte(src), map[int]bool{l: true}); one[l] != all[l-1] {
				t.Errorf("%q line %d alone: %q, want %q", src, l, one[l], all[l-1])
			}
		}
	}
}
