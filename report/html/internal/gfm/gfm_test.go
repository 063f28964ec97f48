package gfm

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
)

// TestCopiesMatchModule fails when a copied file differs from the
// module's beyond the package clause (see the package doc).
func TestCopiesMatchModule(t *testing.T) {
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "github.com/yuin/goldmark").Output()
	dir := strings.TrimSpace(string(out))
	if err != nil || dir == "" {
		t.Skipf("module directory not found (go list -m: %v)", err)
	}
	for _, name := range []string{"table.go", "strikethrough.go", "tasklist.go", "../LICENSE"} {
		want, err := os.ReadFile(filepath.Join(dir, "extension", name))
		if err != nil {
			t.Fatal(err)
		}
		ours, err := os.ReadFile(filepath.Base(name))
		if err != nil {
			t.Fatal(err)
		}
		want = bytes.Replace(want, []byte("\npackage extension\n"), []byte("\npackage gfm\n"), 1)
		if name != "../LICENSE" && bytes.HasPrefix(want, []byte("package extension\n")) {
			want = append([]byte("package gfm\n"), want[len("package extension\n"):]...)
		}
		if !bytes.Equal(ours, want) {
			t.Errorf("%s differs from the module's copy beyond the package clause: copy it again (see the package doc)", filepath.Base(name))
		}
	}
}

// renderCases are Markdown documents that exercise the three extensions
// and their edges; the e2e golden report is added to them.
var renderCases = []string{
	"| a | b |\n|---|---|\n| 1 | 2 |\n",
	"| left | center | right | none |\n|:---|:---:|---:|---|\n| l | c | r | n |\n| `a|b` | a \\| b | **x** | |\n",
	"|x|\n|-|\n|one|\n|two|three|\n",
	"a | b\n--|--\nc | d\n\nnot | a table\n",
	"| only header |\n|---|\n",
	"|a|b|\n|-|-|\n|c\n",
	"~~struck~~ and ~single~ and ~~~three~~~ and ~~ spaced ~~ and a~~mid~~word\n",
	"- [ ] open\n- [x] done\n- [X] Done\n  - [ ] nested\n- not a task\n1. [x] ordered\n",
	"* [ ]\n* [x]text\n* [ ] ~~struck~~ task\n",
	"| task | state |\n|---|---|\n| ~~old~~ | [x] |\n",
	"> | quoted | table |\n> |---|---|\n> | q | t |\n",
	"",
	"|",
	"| a |\n| - |\n| \\|\\| |\n",
}

// TestRendersAsModule holds the copies to the module's extensions: the
// same HTML for each case.
func TestRendersAsModule(t *testing.T) {
	theirs := goldmark.New(goldmark.WithExtensions(extension.Table, extension.Strikethrough, extension.TaskList))
	ours := goldmark.New(goldmark.WithExtensions(Table, Strikethrough, TaskList))
	cases := renderCases
	if b, err := os.ReadFile("../../../../testdata/e2e/golden/report.md"); err == nil {
		cases = append(cases, string(b))
	} else {
		t.Errorf("the e2e golden report is missing: %v", err)
	}
	for i, src := range cases {
		var want, got bytes.Buffer
		if err := theirs.Convert([]byte(src), &want); err != nil {
			t.Fatal(err)
		}
		if err := ours.Convert([]byte(src), &got); err != nil {
			t.Fatal(err)
		}
		if got.String() != want.String() {
			t.Errorf("case %d: HTML differs from goldmark's extensions\nsource: %q\ngot:  %q\nwant: %q", i, src, got.String(), want.String())
		}
		if i < len(renderCases)-3 && !strings.Contains(got.String(), "<") {
			t.Errorf("case %d rendered no markup: %q", i, got.String())
		}
	}
}

// FuzzRendersAsModule compares the two on any input.
func FuzzRendersAsModule(f *testing.F) {
	for _, c := range renderCases {
		f.Add(c)
	}
	theirs := goldmark.New(goldmark.WithExtensions(extension.Table, extension.Strikethrough, extension.TaskList))
	ours := goldmark.New(goldmark.WithExtensions(Table, Strikethrough, TaskList))
	f.Fuzz(func(t *testing.T, src string) {
		var want, got bytes.Buffer
		errW := theirs.Convert([]byte(src), &want)
		errG := ours.Convert([]byte(src), &got)
		if (errW == nil) != (errG == nil) || got.String() != want.String() {
			t.Fatalf("source %q: got %q (%v), want %q (%v)", src, got.String(), errG, want.String(), errW)
		}
	})
}
