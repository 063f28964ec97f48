package code

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/jsec/jsec/agent/llm"
	"github.com/jsec/jsec/agent/tool"
)

const secret = "TOP-SECRET-CONTENT"

func fixture(t *testing.T) (*Root, *tool.Registry) {
	t.Helper()
	outside := t.TempDir()
	os.WriteFile(filepath.Join(outside, "passwd"), []byte(secret+"\n"), 0o644)
	dir := t.TempDir()
	files := map[string]string{
		"src/main.c":     "#include <stdio.h>\nint main(void) {\n\tchar b[8];\n\tgets(b);\n\treturn 0;\n}\n",
		"src/util.h":     "int util(void);\n",
		"src/deep/x.c":   "void x(void) { strcpy(a, b); }\n",
		"README.md":      "gets is mentioned here too\n",
		"big.c":          strings.Repeat("int v;\n", 1000),
		".git/config":    "gets\n",
		"bin.c":          "gets\x00\x01",
		"crlf.c":         "a\r\nb\r\n",
		"empty.c":        "",
		"src/in/ok.link": "",
	}
	for name, content := range files {
		p := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte(content), 0o644)
	}
	os.Remove(filepath.Join(dir, "src/in/ok.link"))
	os.Symlink(filepath.Join(outside, "passwd"), filepath.Join(dir, "escape.txt"))
	os.Symlink(outside, filepath.Join(dir, "escape_dir"))
	os.Symlink("../main.c", filepath.Join(dir, "src/in/ok.link"))
	syscall.Mkfifo(filepath.Join(dir, "fifo.c"), 0o644)
	r, err := OpenRoot(dir, Limits{MaxLines: 50, MaxMatches: 5})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	return r, tool.NewReadOnlyRegistry(r.Tools()...)
}

func call(t *testing.T, reg *tool.Registry, name string, args any) tool.Result {
	t.Helper()
	b, _ := json.Marshal(args)
	res, err := reg.Execute(context.Background(), llm.ToolCall{Name: name, Arguments: string(b)})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func TestConfinement(t *testing.T) {
	_, reg := fixture(t)
	attempts := []struct {
		tool string
		args any
	}{
		{"read_code", ReadCodeArgs{Path: "../../../../../../etc/passwd"}},
		{"read_code", ReadCodeArgs{Path: "/etc/passwd"}},
		{"read_code", ReadCodeArgs{Path: "src/../../passwd"}},
		{"read_code", ReadCodeArgs{Path: "escape.txt"}},
		{"read_code", ReadCodeArgs{Path: "escape_dir/passwd"}},
		{"list_files", ListFilesArgs{Path: "escape_dir"}},
		{"list_files", ListFilesArgs{Path: ".."}},
		{"list_files", ListFilesArgs{Path: "/"}},
		{"search_code", SearchCodeArgs{Pattern: "SECRET"}},
		{"search_code", SearchCodeArgs{Pattern: "SECRET", PathGlob: "escape*"}},
	}
	for _, a := range attempts {
		res := call(t, reg, a.tool, a.args)
		if strings.Contains(res.Content, secret) {
			t.Fatalf("%s %+v leaked the outside file: %s", a.tool, a.args, res.Content)
		}
		if a.tool != "search_code" && !res.IsError {
			t.Errorf("%s %+v: want an error result, got %q", a.tool, a.args, res.Content)
		}
	}
	// A symlink that stays inside the root is fine.
	if res := call(t, reg, "read_code", ReadCodeArgs{Path: "src/in/ok.link"}); res.IsError || !strings.Contains(res.Content, "gets(b)") {
		t.Fatalf("inside symlink: %+v", res)
	}
}

func TestReadCode(t *testing.T) {
	_, reg := fixture(t)
	res := call(t, reg, "read_code", ReadCodeArgs{Path: "src/main.c", StartLine: 3, EndLine: 4})
	if res.IsError || !strings.Contains(res.Content, "3: \tchar b[8];") || !strings.Contains(res.Content, "4: \tgets(b);") || strings.Contains(res.Content, "return") {
		t.Fatalf("range: %q", res.Content)
	}
	res = call(t, reg, "read_code", ReadCodeArgs{Path: "src/main.c", StartLine: 5, EndLine: -1})
	if !strings.Contains(res.Content, "6: }") || !strings.Contains(res.Content, "lines 5-6 of 6") {
		t.Fatalf("negative end: %q", res.Content)
	}
	res = call(t, reg, "read_code", ReadCodeArgs{Path: "big.c"})
	if !strings.Contains(res.Content, "lines 1-50 of 1000") || !strings.Contains(res.Content, "continue with start_line=51") {
		t.Fatalf("cap: %q", res.Content[:100])
	}
	res = call(t, reg, "read_code", ReadCodeArgs{Path: "crlf.c"})
	if strings.Contains(res.Content, "\r") {
		t.Fatal("CR leaked")
	}
	for path, want := range map[string]string{
		"nope.c": "does not exist", "src": "is a directory", "bin.c": "binary", "fifo.c": "not a regular file",
	} {
		if res := call(t, reg, "read_code", ReadCodeArgs{Path: path}); !res.IsError || !strings.Contains(res.Content, want) {
			t.Errorf("%s: %+v, want %q", path, res, want)
		}
	}
	if res := call(t, reg, "read_code", ReadCodeArgs{Path: "src/main.c", StartLine: 99}); !res.IsError {
		t.Error("start past the end accepted")
	}
	if res := call(t, reg, "read_code", ReadCodeArgs{Path: "empty.c"}); res.IsError || !strings.Contains(res.Content, "empty") {
		t.Errorf("empty: %+v", res)
	}
}

func TestSearchCode(t *testing.T) {
	_, reg := fixture(t)
	res := call(t, reg, "search_code", SearchCodeArgs{Pattern: `\bgets\(`})
	if res.IsError || !strings.Contains(res.Content, "src/main.c:4: \tgets(b);") {
		t.Fatalf("search: %q", res.Content)
	}
	if strings.Contains(res.Content, ".git/") || strings.Contains(res.Content, "bin.c") {
		t.Fatalf("searched .git or a binary: %q", res.Content)
	}
	res = call(t, reg, "search_code", SearchCodeArgs{Pattern: `gets|strcpy`, PathGlob: "src/**/*.c"})
	if !strings.Contains(res.Content, "src/deep/x.c:1:") || strings.Contains(res.Content, "README") {
		t.Fatalf("glob: %q", res.Content)
	}
	res = call(t, reg, "search_code", SearchCodeArgs{Pattern: `gets`, PathGlob: "*.md"})
	if !strings.Contains(res.Content, "README.md:1:") || strings.Contains(res.Content, "main.c") {
		t.Fatalf("basename glob: %q", res.Content)
	}
	res = call(t, reg, "search_code", SearchCodeArgs{Pattern: `int v`})
	if !strings.Contains(res.Content, "stopped after 5 matches") {
		t.Fatalf("cap: %q", res.Content)
	}
	if res := call(t, reg, "search_code", SearchCodeArgs{Pattern: `(unclosed`}); !res.IsError {
		t.Fatal("bad regexp accepted")
	}
	if res := call(t, reg, "search_code", SearchCodeArgs{Pattern: `zzzz`}); res.IsError || !strings.Contains(res.Content, "no matches") {
		t.Fatalf("no match: %+v", res)
	}
}

func TestListFiles(t *testing.T) {
	_, reg := fixture(t)
	res := call(t, reg, "list_files", ListFilesArgs{})
	for _, want := range []string{"src/\n", "big.c 7000\n", "escape.txt (symlink)"} {
		if !strings.Contains(res.Content, want) {
			t.Errorf("root listing lacks %q:\n%s", want, res.Content)
		}
	}
	if res := call(t, reg, "list_files", ListFilesArgs{Path: "src/main.c"}); !res.IsError {
		t.Fatal("listing a file accepted")
	}
}
