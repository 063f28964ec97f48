package edit

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jsec/jsec/agent/llm"
	"github.com/jsec/jsec/agent/tool"
)

func setup(t *testing.T) (string, *tool.Registry) {
	t.Helper()
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "a.c"), []byte("int f(void) {\n\tstrcpy(buf, s);\n\treturn 0;\n}\nint g(void) {\n\treturn 0;\n}\n"), 0o640)
	outside := t.TempDir()
	os.WriteFile(filepath.Join(outside, "victim.c"), []byte("original"), 0o644)
	os.Symlink(filepath.Join(outside, "victim.c"), filepath.Join(dir, "link.c"))
	t.Cleanup(func() {
		if b, _ := os.ReadFile(filepath.Join(outside, "victim.c")); string(b) != "original" {
			t.Errorf("a file outside the root was modified: %q", b)
		}
	})
	r, err := OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	return dir, tool.NewRegistry(r.Tools()...)
}

func run(t *testing.T, reg *tool.Registry, name string, args any) tool.Result {
	t.Helper()
	b, _ := json.Marshal(args)
	res, err := reg.Execute(context.Background(), llm.ToolCall{Name: name, Arguments: string(b)})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func read(t *testing.T, p string) string {
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestPatchUniqueMatch(t *testing.T) {
	dir, reg := setup(t)
	res := run(t, reg, "patch", PatchArgs{Path: "a.c", Search: "strcpy(buf, s);", Replace: "snprintf(buf, sizeof buf, \"%s\", s);"})
	if res.IsError || !strings.Contains(res.Content, "line 2") {
		t.Fatalf("%+v", res)
	}
	if got := read(t, filepath.Join(dir, "a.c")); !strings.Contains(got, "snprintf(buf, sizeof buf") || strings.Contains(got, "strcpy") {
		t.Fatalf("file: %s", got)
	}
	if info, _ := os.Stat(filepath.Join(dir, "a.c")); info.Mode().Perm() != 0o640 {
		t.Fatalf("mode changed to %v", info.Mode())
	}
	before := read(t, filepath.Join(dir, "a.c"))
	for _, c := range []struct {
		args PatchArgs
		want string
	}{
		{PatchArgs{Path: "a.c", Search: "return 0;", Replace: "return 1;"}, "occurs 2 times"},
		{PatchArgs{Path: "a.c", Search: "nope", Replace: "x"}, "not found"},
		{PatchArgs{Path: "a.c", Replace: "x"}, "give either search"},
		{PatchArgs{Path: "missing.c", Search: "x", Replace: "y"}, "does not exist"},
		{PatchArgs{Path: "../x.c", Search: "x", Replace: "y"}, "not a file inside"},
		{PatchArgs{Path: "/etc/passwd", Search: "root", Replace: "y"}, "absolute"},
		{PatchArgs{Path: "link.c", Search: "original", Replace: "pwned"}, "outside the project root"},
	} {
		res := run(t, reg, "patch", c.args)
		if !res.IsError || !strings.Contains(res.Content, c.want) {
			t.Errorf("%+v: %+v, want %q", c.args, res, c.want)
		}
	}
	if read(t, filepath.Join(dir, "a.c")) != before {
		t.Fatal("a refused patch changed the file")
	}
	// A line window makes an ambiguous search unique.
	res = run(t, reg, "patch", PatchArgs{Path: "a.c", Search: "return 0;", Replace: "return 7;", StartLine: 5, EndLine: 7})
	if res.IsError || !strings.Contains(read(t, filepath.Join(dir, "a.c")), "int g(void) {\n\treturn 7;") {
		t.Fatalf("%+v\n%s", res, read(t, filepath.Join(dir, "a.c")))
	}
}

func TestPatchRange(t *testing.T) {
	dir, reg := setup(t)
	res := run(t, reg, "patch", PatchArgs{Path: "a.c", SearchStart: "int f(void) {", SearchEnd: "}\n", Replace: "x"})
	if !res.IsError || !strings.Contains(res.Content, "search_end (after search_start) text occurs 2 times") {
		t.Fatalf("an ambiguous end marker was accepted: %+v", res)
	}
	res = run(t, reg, "patch", PatchArgs{Path: "a.c", SearchStart: "int f(void) {", SearchEnd: "return 0;\n}\nint g", Replace: "int f(void) { return 2; }\nint g"})
	if res.IsError {
		t.Fatalf("%+v", res)
	}
	if got := read(t, filepath.Join(dir, "a.c")); !strings.HasPrefix(got, "int f(void) { return 2; }\nint g(void) {") {
		t.Fatalf("file: %q", got)
	}
}

func TestRewrite(t *testing.T) {
	dir, reg := setup(t)
	if res := run(t, reg, "rewrite", RewriteArgs{Path: "new/dir/b.c", Content: "int b;\n"}); res.IsError {
		t.Fatalf("%+v", res)
	}
	if read(t, filepath.Join(dir, "new/dir/b.c")) != "int b;\n" {
		t.Fatal("rewrite did not create the file")
	}
	if res := run(t, reg, "rewrite", RewriteArgs{Path: "link.c", Content: "pwned"}); !res.IsError || !strings.Contains(res.Content, "symlink") {
		t.Fatalf("rewrite through a symlink accepted: %+v", res)
	}
	if fi, _ := os.Lstat(filepath.Join(dir, "link.c")); fi.Mode()&os.ModeSymlink == 0 {
		t.Fatal("the symlink was replaced")
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.Contains(e.Name(), "jsec-tmp") {
			t.Fatalf("temporary file left: %s", e.Name())
		}
	}
}

func TestWritingToolsAreNotReadOnly(t *testing.T) {
	_, reg := setup(t)
	ro := tool.NewReadOnlyRegistry()
	for _, n := range reg.Names() {
		tl, _ := reg.Get(n)
		if err := ro.Add(tl); err == nil {
			t.Fatalf("%s entered a read-only registry", n)
		}
	}
}
