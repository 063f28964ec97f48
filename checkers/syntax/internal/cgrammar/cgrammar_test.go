package cgrammar

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func TestSetContains(t *testing.T) {
	for _, seed := range []uint32{1, 7, 20261126} {
		if bad := checkSets(seed, 100); bad != 0 {
			t.Errorf("seed %d: set_contains disagrees with the binary search %d times", seed, bad)
		}
	}
}

// TestVendoredGrammar holds parser.c and parser.h to the module's copies
// (github.com/smacker/go-tree-sitter/c), but for the changes the package
// documents: a grammar update in go.mod without a new copy here fails.
func TestVendoredGrammar(t *testing.T) {
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "github.com/smacker/go-tree-sitter").Output()
	dir := strings.TrimSpace(string(out))
	if err != nil || dir == "" {
		t.Skipf("module directory not found (go list -m: %v)", err)
	}
	read := func(path string) string {
		t.Helper()
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	upC, upH := read(filepath.Join(dir, "c", "parser.c")), read(filepath.Join(dir, "c", "parser.h"))
	ourC, ourH := read("parser.c"), read("parser.h")

	const pragma = "#ifdef _MSC_VER\n#pragma optimize(\"\", off)\n#elif defined(__clang__)\n#pragma clang optimize off\n#elif defined(__GNUC__)\n#pragma GCC optimize (\"O0\")\n#endif\n"
	if strings.Count(upC, pragma) != 1 {
		t.Fatal("the module's parser.c no longer has the -O0 pragma block this copy removes")
	}
	wantC := strings.Replace(upC, pragma, "", 1)
	wantC = strings.Replace(wantC, "const TSLanguage *tree_sitter_c(void) {", "const TSLanguage *jsec_tree_sitter_c(void) {", 1)
	if ourC != wantC {
		t.Error("parser.c differs from the module's beyond the pragma and the entry point's name: copy it again (see the package doc)")
	}

	start := strings.Index(ourH, "  // jsec: ASCII")
	end := strings.Index(ourH, "  uint32_t index = 0;")
	if start < 0 || end < start {
		t.Fatal("parser.h lost its set_contains fast path")
	}
	if ourH[:start]+ourH[end:] != upH {
		t.Error("parser.h differs from the module's beyond set_contains' fast path")
	}
}
