package checkers_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"unicode/utf8"

	"github.com/jsec/jsec/checkers"
	cchk "github.com/jsec/jsec/checkers/c"
	rustchk "github.com/jsec/jsec/checkers/rust"
	"github.com/jsec/jsec/issue"
)

func languages() map[string]*checkers.Language {
	return map[string]*checkers.Language{"c": cchk.C(), "cpp": cchk.CPP(), "rust": rustchk.Rust()}
}

func write(t *testing.T, root, name string, data []byte) {
	t.Helper()
	p := filepath.Join(root, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

const flaw = "#include <stdio.h>\nvoid f(void) {\n\tchar b[8];\n\tgets(b);\n}\n"

// TestScanSurvivesBadInput puts every kind of hostile file next to real
// flaws: the scan must finish, list each skip with its reason, and still
// report the flaws.
func TestScanSurvivesBadInput(t *testing.T) {
	root := t.TempDir()
	write(t, root, "flaw.c", []byte(flaw))
	write(t, root, "binary.c", append([]byte("int x;\x00\x01\x02"), bytes.Repeat([]byte{0xff}, 100)...))
	write(t, root, "invalid_utf8.c", []byte("/* \xff\xfe caf\xe9 */\nvoid g(void) { char s[4]; gets(s); /* \xc3 */ }\n"))
	write(t, root, "crlf.c", []byte(strings.ReplaceAll(flaw, "\n", "\r\n")))
	write(t, root, "huge.c", bytes.Repeat([]byte("int filler;\n"), 40<<20/12+1))
	deep := strings.Repeat("{", 100000) + strings.Repeat("}", 100000)
	write(t, root, "deep.c", []byte("void d(void) "+deep+"\nvoid e(void) { char b[2]; gets(b); }\nint k = "+strings.Repeat("(", 100000)+"1"+strings.Repeat(")", 100000)+";\n"))
	write(t, root, "unterminated.c", []byte("void u(void) { char b[2]; gets(b); }\nchar *s = \"never closed\n/* never closed\n#if 0\n"))
	write(t, root, "unterminated.rs", []byte("fn f() { let x = unsafe { std::mem::transmute::<u32, f32>(1) }; }\nfn g() { let s = r#\"open\n/* open /* nested"))
	write(t, root, "empty.c", nil)
	write(t, root, "only_comment.rs", []byte("// transmute"))
	if err := syscall.Mkfifo(filepath.Join(root, "pipe.c"), 0o644); err != nil {
		t.Fatal(err)
	}
	os.Symlink("loop_b.c", filepath.Join(root, "loop_a.c"))
	os.Symlink("loop_a.c", filepath.Join(root, "loop_b.c"))
	os.Symlink("nowhere.c", filepath.Join(root, "dangling.c"))

	res, err := checkers.Scan(context.Background(), root, checkers.Options{Languages: languages(), IsCPPHeader: cchk.IsCPPHeader, Jobs: 4})
	if err != nil {
		t.Fatal(err)
	}
	skips := map[string]string{}
	for _, s := range res.Skips {
		skips[s.Path] = s.Reason
		if s.Kind == "error" {
			t.Errorf("unexpected error for %s: %s", s.Path, s.Reason)
		}
	}
	for path, reason := range map[string]string{
		"binary.c": "binary", "huge.c": "too large", "pipe.c": "not a regular file",
		"loop_a.c": "symlink loop", "dangling.c": "dangling",
	} {
		if !strings.Contains(skips[path], reason) {
			t.Errorf("skip %s = %q, want %q", path, skips[path], reason)
		}
	}
	found := map[string]int{}
	for _, is := range res.Issues {
		found[is.File+":"+is.Rule]++
		if !utf8.ValidString(is.Evidence) || !utf8.ValidString(is.Description) {
			t.Errorf("%s: invalid UTF-8 in the issue", is.File)
		}
		if _, err := json.Marshal(is); err != nil {
			t.Errorf("%s: %v", is.File, err)
		}
		if is.File == "crlf.c" && (is.Line != 4 || strings.HasSuffix(is.Evidence, "\r")) {
			t.Errorf("crlf.c: line %d evidence %q; want line 4 without CR", is.Line, is.Evidence)
		}
	}
	for _, want := range []string{"flaw.c:c.buffer.gets", "invalid_utf8.c:c.buffer.gets", "crlf.c:c.buffer.gets",
		"deep.c:c.buffer.gets", "unterminated.c:c.buffer.gets", "unterminated.rs:rust.unsafe.transmute"} {
		if found[want] != 1 {
			t.Errorf("%s reported %d times, want once", want, found[want])
		}
	}
	if found["only_comment.rs:rust.unsafe.transmute"] != 0 {
		t.Error("a comment was reported")
	}
}

// TestScanLargeFile scans a 40 MB file when the size limit allows it.
func TestScanLargeFile(t *testing.T) {
	if testing.Short() {
		t.Skip("40 MB file")
	}
	root := t.TempDir()
	var b bytes.Buffer
	for b.Len() < 40<<20 {
		b.WriteString("static int add(int a, int b) {\n\treturn a + b;\n}\n")
	}
	b.WriteString(flaw)
	write(t, root, "big.c", b.Bytes())
	res, err := checkers.Scan(context.Background(), root, checkers.Options{Languages: languages(), MaxFileSize: 64 << 20})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Issues) != 1 || res.Issues[0].Rule != "c.buffer.gets" || res.Files != 1 {
		t.Fatalf("issues %v, files %d", res.Issues, res.Files)
	}
}

func TestScanDeterministicAndCancellable(t *testing.T) {
	root := t.TempDir()
	for i := range 50 {
		write(t, root, filepath.Join("d", string(rune('a'+i%26)), "f"+strings.Repeat("x", i)+".c"), []byte(flaw))
	}
	var first []byte
	for range 3 {
		res, err := checkers.Scan(context.Background(), root, checkers.Options{Languages: languages(), Jobs: 8})
		if err != nil {
			t.Fatal(err)
		}
		got, _ := json.Marshal(res.Issues)
		if first == nil {
			first = got
		} else if !bytes.Equal(first, got) {
			t.Fatal("two scans of the same tree differ")
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := checkers.Scan(ctx, root, checkers.Options{Languages: languages()}); err == nil {
		t.Fatal("cancelled scan succeeded")
	}
}

func TestScanIDsSurviveMovingCode(t *testing.T) {
	scan := func(src string) map[string]bool {
		root := t.TempDir()
		write(t, root, "a.c", []byte(src))
		res, err := checkers.Scan(context.Background(), root, checkers.Options{Languages: languages()})
		if err != nil {
			t.Fatal(err)
		}
		ids := map[string]bool{}
		for _, is := range res.Issues {
			ids[is.ID] = true
		}
		return ids
	}
	before := scan("void f(void) {\n\tchar b[8];\n\tgets(b);\n\tgets(b);\n}\n")
	after := scan("/* new header */\n\nint unrelated(void) { return 1; }\n\nvoid f(void)\n{\n    char b[8];\n    gets( b );\n    gets(b);\n}\n")
	if len(before) != 2 || len(after) != 2 {
		t.Fatalf("want two distinct ids per scan: %v %v", before, after)
	}
	for id := range before {
		if !after[id] {
			t.Fatalf("id %s changed when code moved", id)
		}
	}
}

// TestHeaderClassification: a .h file is C or C++ by content, and a C
// header analysed with the tokens ClassifyHeader lexed reports what it
// reports when the analyzer lexes it itself.
func TestHeaderClassification(t *testing.T) {
	root := t.TempDir()
	write(t, root, "c_util.h", []byte("static inline void copy_name(char *dst, const char *src)\n{\n\tstrcpy(dst, src);\n}\n"))
	write(t, root, "cpp_util.h", []byte("namespace util {\ninline void copy_name(char *dst, const char *src)\n{\n\tstrcpy(dst, src);\n}\n}\n"))
	scan := func(opt checkers.Options) map[string]string {
		opt.Languages = languages()
		res, err := checkers.Scan(context.Background(), root, opt)
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]string{}
		for _, is := range res.Issues {
			got[fmt.Sprintf("%s:%d:%s", is.File, is.Line, is.Rule)] = is.Language
		}
		return got
	}
	reused := scan(checkers.Options{ClassifyHeader: cchk.ClassifyHeader})
	relexed := scan(checkers.Options{IsCPPHeader: cchk.IsCPPHeader})
	want := map[string]string{"c_util.h:3:c.buffer.strcpy": "c", "cpp_util.h:4:c.buffer.strcpy": "cpp"}
	for k, lang := range want {
		if reused[k] != lang || relexed[k] != lang {
			t.Errorf("%s: language %q with ClassifyHeader, %q with IsCPPHeader, want %q", k, reused[k], relexed[k], lang)
		}
	}
	if len(reused) != len(relexed) {
		t.Errorf("ClassifyHeader found %v, IsCPPHeader %v", reused, relexed)
	}
}

// TestScanFillsLineHashes: the scan hands the SARIF writer each issue's
// primaryLocationLineHash, computed from the file as GitHub does.
func TestScanFillsLineHashes(t *testing.T) {
	root := t.TempDir()
	src := "#include <string.h>\n\nvoid a(char *d, const char *s) { strcpy(d, s); }\n\nvoid b(char *d, const char *s)\n{\n\tstrcpy(d, s);\n}\n"
	write(t, root, "two.c", []byte(src))
	res, err := checkers.Scan(context.Background(), root, checkers.Options{Languages: languages()})
	if err != nil {
		t.Fatal(err)
	}
	want := issue.LineHashes([]byte(src))
	n := 0
	for _, is := range res.Issues {
		if is.Rule != "c.buffer.strcpy" {
			continue
		}
		n++
		if is.LineHash == "" || is.LineHash != want[is.Line-1] {
			t.Errorf("line %d: LineHash %q, want %q", is.Line, is.LineHash, want[is.Line-1])
		}
	}
	if n != 2 {
		t.Fatalf("found %d strcpy issues, want 2", n)
	}
}
