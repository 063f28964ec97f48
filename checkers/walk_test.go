package checkers

import (
	"context"
	"io"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"syscall"
	"testing"
	"testing/iotest"
)

// TestReadAll holds readAll to the whole content whatever the reads
// return: one byte at a time, a size that was stale (the file grew or
// shrank after it was stat'ed), nothing at all.
func TestReadAll(t *testing.T) {
	text := "int f(void);\nint g(void);\n"
	for _, c := range []struct {
		name string
		r    io.Reader
		size int64
	}{
		{"exact", strings.NewReader(text), int64(len(text))},
		{"one byte per read", iotest.OneByteReader(strings.NewReader(text)), int64(len(text))},
		{"half per read", iotest.HalfReader(strings.NewReader(text)), int64(len(text))},
		{"grew", strings.NewReader(text), 5},
		{"shrank", strings.NewReader(text), 100},
	} {
		got, err := readAll(c.r, c.size, 1<<20)
		if err != nil || string(got) != text {
			t.Errorf("%s: %q, %v; want the whole text", c.name, got, err)
		}
	}
	if got, err := readAll(strings.NewReader(""), 0, 1<<20); err != nil || len(got) != 0 {
		t.Errorf("empty: %q, %v", got, err)
	}
	if got, _ := readAll(strings.NewReader(text), 5, 10); len(got) != 11 {
		t.Errorf("past the limit: read %d bytes; want limit+1 = 11, to see it", len(got))
	}
}

// tree creates files under a temp root: name → content ("" for empty).
func tree(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for name, content := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

func walk(t *testing.T, root string, opt WalkOptions) (files []string, skips []Skip) {
	t.Helper()
	var mu sync.Mutex
	skips, err := Walk(context.Background(), root, opt, func(c Candidate) {
		mu.Lock()
		files = append(files, c.Rel+":"+c.Lang)
		mu.Unlock()
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(files)
	return files, skips
}

func TestWalkSelectsAndExcludes(t *testing.T) {
	root := tree(t, map[string]string{
		"main.c":                "",
		"inc/api.h":             "",
		"src/a.cc":              "",
		"src/b.CPP":             "",
		"src/lib.rs":            "",
		"src/notes.txt":         "",
		"src/gen/out.c":         "",
		"src/gen/keep.c":        "",
		"vendor/dep.c":          "",
		"deep/x/build/obj.c":    "",
		"target/debug/build.rs": "",
		"node_modules/m/n.c":    "",
		".git/hooks/x.c":        "",
		"third_party/t.c":       "",
		"tests/t.c":             "",
		".gitignore":            "*.log\nsrc/gen/\n!src/gen/keep.c\n",
		"src/.jsecignore":       "b.CPP\n",
	})
	files, skips := walk(t, root, WalkOptions{Jobs: 4, Exclude: []string{"tests/"}})
	want := []string{"inc/api.h:h", "main.c:c", "src/a.cc:cpp", "src/lib.rs:rust"}
	if strings.Join(files, " ") != strings.Join(want, " ") {
		t.Fatalf("files:\n got %v\nwant %v", files, want)
	}
	if len(skips) != 0 {
		t.Fatalf("unexpected skips: %+v", skips)
	}
	// Without defaults and ignore files everything with a source extension shows up.
	files, _ = walk(t, root, WalkOptions{NoDefaultExcludes: true, NoIgnoreFiles: true})
	if len(files) != 14 {
		t.Fatalf("no excludes: %d files: %v", len(files), files)
	}
}

func TestWalkSymlinksAndSpecialFiles(t *testing.T) {
	root := tree(t, map[string]string{"real.c": "int x;", "sub/inner.c": ""})
	outside := tree(t, map[string]string{"secret.c": ""})
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.Symlink(filepath.Join(root, "real.c"), filepath.Join(root, "alias.c")))
	must(os.Symlink(filepath.Join(outside, "secret.c"), filepath.Join(root, "escape.c")))
	must(os.Symlink(outside, filepath.Join(root, "escape_dir")))
	must(os.Symlink(filepath.Join(root, "sub"), filepath.Join(root, "sub/loop")))
	must(os.Symlink("missing.c", filepath.Join(root, "dangling.c")))
	must(os.Symlink("cycle_b.c", filepath.Join(root, "cycle_a.c")))
	must(os.Symlink("cycle_a.c", filepath.Join(root, "cycle_b.c")))
	must(syscall.Mkfifo(filepath.Join(root, "pipe.c"), 0o644))
	files, skips := walk(t, root, WalkOptions{Jobs: 2})
	if strings.Join(files, " ") != "real.c:c sub/inner.c:c" {
		t.Fatalf("files: %v", files)
	}
	got := map[string]string{}
	for _, s := range skips {
		got[s.Path] = s.Reason
	}
	for path, want := range map[string]string{
		"alias.c":    "symlink to a file inside the root",
		"escape.c":   "outside the scanned root",
		"escape_dir": "outside the scanned root",
		"sub/loop":   "symlink to a directory inside the root",
		"dangling.c": "dangling symlink",
		"cycle_a.c":  "symlink loop",
		"cycle_b.c":  "symlink loop",
		"pipe.c":     "not a regular file",
	} {
		if !strings.Contains(got[path], want) {
			t.Errorf("skip %s: got %q, want it to mention %q", path, got[path], want)
		}
	}
}

func TestWalkSingleFileAndErrors(t *testing.T) {
	root := tree(t, map[string]string{"one.rs": ""})
	files, _ := walk(t, filepath.Join(root, "one.rs"), WalkOptions{})
	if strings.Join(files, " ") != "one.rs:rust" {
		t.Fatalf("single file: %v", files)
	}
	if _, err := Walk(context.Background(), filepath.Join(root, "nope"), WalkOptions{}, func(Candidate) {}); err == nil {
		t.Fatal("missing root accepted")
	}
	txt := filepath.Join(root, "readme.txt")
	os.WriteFile(txt, nil, 0o644)
	if _, err := Walk(context.Background(), txt, WalkOptions{}, func(Candidate) {}); err == nil {
		t.Fatal("non-source single file accepted")
	}
	if _, err := Walk(context.Background(), root, WalkOptions{Exclude: []string{"[bad"}}, func(Candidate) {}); err == nil {
		t.Fatal("bad --exclude pattern accepted")
	}
}

func TestWalkCancelled(t *testing.T) {
	files := map[string]string{}
	for i := range 200 {
		files[filepath.Join("d", strings.Repeat("x", i%7+1), "f"+string(rune('a'+i%26))+".c")] = ""
	}
	root := tree(t, files)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Walk(ctx, root, WalkOptions{Jobs: 4}, func(Candidate) {}); err == nil {
		t.Fatal("cancelled walk returned no error")
	}
}

func TestReadSource(t *testing.T) {
	root := tree(t, map[string]string{"ok.c": "int main(void) { return 0; }\n", "bin.c": "abc\x00def", "big.c": strings.Repeat("x", 100)})
	if src, reason, _ := readSource(filepath.Join(root, "ok.c"), 1<<20); reason != "" || string(src) != "int main(void) { return 0; }\n" {
		t.Fatalf("ok.c: %q %q", reason, src)
	}
	if err := os.Symlink("ok.c", filepath.Join(root, "link.c")); err != nil {
		t.Fatal(err)
	}
	if _, reason, kind := readSource(filepath.Join(root, "link.c"), 1<<20); !strings.Contains(reason, "unreadable") || kind != "error" {
		t.Fatalf("link.c: %q %q (a symlink swapped in after the walk is not followed)", reason, kind)
	}
	if _, reason, kind := readSource(filepath.Join(root, "bin.c"), 1<<20); !strings.Contains(reason, "binary") || kind != "skipped" {
		t.Fatalf("bin.c: %q %q", reason, kind)
	}
	if _, reason, _ := readSource(filepath.Join(root, "big.c"), 50); !strings.Contains(reason, "too large") {
		t.Fatalf("big.c: %q", reason)
	}
	if _, reason, kind := readSource(filepath.Join(root, "gone.c"), 50); !strings.Contains(reason, "unreadable") || kind != "error" {
		t.Fatalf("gone.c: %q %q", reason, kind)
	}
	fifo := filepath.Join(root, "fifo.c")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, reason, _ := readSource(fifo, 50); !strings.Contains(reason, "not a regular file") {
		t.Fatalf("fifo: %q (must never block)", reason)
	}
}

func TestWalkFileList(t *testing.T) {
	root := tree(t, map[string]string{
		"a.c": "", "src/b.c": "", "src/gen/c.c": "", "vendor/d.c": "", "notes.txt": "", "src/.gitignore": "gen/\n",
	})
	files, _ := walk(t, root, WalkOptions{Files: []string{"a.c", "src/b.c", "src/gen/c.c", "vendor/d.c", "notes.txt", "deleted.c", "../escape.c"}})
	if strings.Join(files, " ") != "a.c:c src/b.c:c" {
		t.Fatalf("files: %v", files)
	}
}

// TestJoinNameMatchesJoin holds joinName to path.Join and filepath.Join
// for the clean directories the walk builds and the names ReadDir returns.
func TestJoinNameMatchesJoin(t *testing.T) {
	dirs := []string{"", ".", "/", "a", "a/b", "/a", "/a/b", "..", "../a", "a/.b", "a b/c"}
	names := []string{"x.c", ".h", "..x", "a b.c", "x", "x.", "..."}
	for _, d := range dirs {
		for _, n := range names {
			if got, want := joinName(d, '/', n), path.Join(d, n); got != want {
				t.Errorf("joinName(%q, '/', %q) = %q, path.Join: %q", d, n, got, want)
			}
			if got, want := joinName(filepath.FromSlash(d), filepath.Separator, n), filepath.Join(filepath.FromSlash(d), n); got != want {
				t.Errorf("joinName(%q, %q) = %q, filepath.Join: %q", d, n, got, want)
			}
		}
	}
}
