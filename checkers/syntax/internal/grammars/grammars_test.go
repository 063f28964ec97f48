package grammars

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

func TestAdvanceMap(t *testing.T) {
	if bad := checkSite(); bad != 0 {
		t.Errorf("ADVANCE_MAP disagrees with the search of its pairs %d times", bad)
	}
	for _, seed := range []uint32{1, 7, 20261127} {
		if bad := checkMaps(seed, 300); bad != 0 {
			t.Errorf("seed %d: the ASCII table disagrees with the search %d times", seed, bad)
		}
	}
	SetLinearMaps(true)
	defer SetLinearMaps(false)
	if bad := checkSite(); bad != 0 {
		t.Errorf("ADVANCE_MAP's search disagrees with itself %d times", bad)
	}
}

// upstreamAdvanceMap is the generator's ADVANCE_MAP, which parser.h
// replaces with its table (between "// jsec: ADVANCE_MAP" and "// jsec: end
// of ADVANCE_MAP").
const upstreamAdvanceMap = `#define ADVANCE_MAP(...)                                              \
  {                                                                   \
    static const uint16_t map[] = { __VA_ARGS__ };                    \
    for (uint32_t i = 0; i < sizeof(map) / sizeof(map[0]); i += 2) {  \
      if (map[i] == lookahead) {                                      \
        state = map[i + 1];                                           \
        goto next_state;                                              \
      }                                                               \
    }                                                                 \
  }
`

const o0Pragma = "#ifdef _MSC_VER\n#pragma optimize(\"\", off)\n#elif defined(__clang__)\n#pragma clang optimize off\n#elif defined(__GNUC__)\n#pragma GCC optimize (\"O0\")\n#endif\n"

// TestVendoredGrammars holds every file to the module's copy
// (github.com/smacker/go-tree-sitter), but for the changes the package
// documents: a grammar update in go.mod without new copies here fails.
func TestVendoredGrammars(t *testing.T) {
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
	parser := func(upstream, name string) string {
		t.Helper()
		if strings.Count(upstream, o0Pragma) != 1 {
			t.Fatalf("the module's %s no longer has the -O0 pragma block the copy removes", name)
		}
		return strings.Replace(upstream, o0Pragma, "", 1)
	}
	prefix := strings.NewReplacer("tree_sitter_c(void)", "jsec_tree_sitter_c(void)", "tree_sitter_cpp", "jsec_tree_sitter_cpp")
	for _, f := range []struct{ ours, want string }{
		{"c_parser.c", prefix.Replace(parser(read(filepath.Join(dir, "c", "parser.c")), "c/parser.c"))},
		{"cpp_parser.c", prefix.Replace(parser(read(filepath.Join(dir, "cpp", "parser.c")), "cpp/parser.c"))},
		{"cpp_scanner.c", prefix.Replace(strings.Replace(read(filepath.Join(dir, "cpp", "scanner.c")), `#include "../alloc.h"`, `#include "alloc.h"`, 1))},
		{"alloc.h", read(filepath.Join(dir, "alloc.h"))},
	} {
		// The build constraint that leaves c_parser.c to scripts/cpgo.sh's
		// archive under the jsec_cpgo tag is jsec's.
		if strings.TrimPrefix(read(f.ours), "//go:build !jsec_cpgo\n\n") != f.want {
			t.Errorf("%s differs from the module's copy beyond the documented changes: copy it again (see the package doc)", f.ours)
		}
	}

	ourH := read("parser.h")
	start, end := strings.Index(ourH, "  // jsec: ASCII"), strings.Index(ourH, "  uint32_t index = 0;")
	if start < 0 || end < start {
		t.Fatal("parser.h lost its set_contains fast path")
	}
	ourH = ourH[:start] + ourH[end:]
	const mapEnd = "// jsec: end of ADVANCE_MAP\n"
	start, end = strings.Index(ourH, "// jsec: ADVANCE_MAP"), strings.Index(ourH, mapEnd)
	if start < 0 || end < start {
		t.Fatal("parser.h lost its ADVANCE_MAP table")
	}
	ourH = ourH[:start] + upstreamAdvanceMap + ourH[end+len(mapEnd):]
	for _, lang := range []string{"c", "cpp"} {
		if ourH != read(filepath.Join(dir, lang, "parser.h")) {
			t.Errorf("parser.h differs from the module's %s/parser.h beyond set_contains' fast path and ADVANCE_MAP's table", lang)
		}
	}
}
