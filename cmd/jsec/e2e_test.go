package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden reports in testdata/e2e")

// normalize removes what legitimately differs between runs: the duration
// and the binary's version.
func normalize(b []byte) []byte {
	b = regexp.MustCompile(`"duration_ms": \d+`).ReplaceAll(b, []byte(`"duration_ms": 0`))
	b = regexp.MustCompile(`in \d+\.\d s\.`).ReplaceAll(b, []byte(`in 0.0 s.`))
	return b
}

// TestEndToEndGolden scans testdata/e2e/project (C, C++ and Rust files, a
// vendored directory, a build directory, a binary file, test code) through
// the real CLI and compares report.json and report.md with the goldens.
// Regenerate them with: go test ./cmd/jsec -run TestEndToEndGolden -update
func TestEndToEndGolden(t *testing.T) {
	t.Chdir("../../testdata/e2e")
	out := t.TempDir()
	var stdout, stderr bytes.Buffer
	code := run([]string{"scan", "project", "--out", out, "--fail-on", "never", "--jobs", "3"}, streams{Out: &stdout, Err: &stderr})
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	for _, name := range []string{"report.json", "report.md"} {
		got, err := os.ReadFile(filepath.Join(out, name))
		if err != nil {
			t.Fatal(err)
		}
		got = normalize(got)
		golden := filepath.Join("golden", name)
		if *update {
			os.MkdirAll("golden", 0o755)
			if err := os.WriteFile(golden, got, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(golden)
		if err != nil {
			t.Fatalf("%v (run with -update to create it)", err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s differs from %s (run with -update after checking the diff):\n%s", name, golden, firstDiff(want, got))
		}
	}
}

func firstDiff(a, b []byte) string {
	la, lb := bytes.Split(a, []byte("\n")), bytes.Split(b, []byte("\n"))
	for i := 0; i < len(la) || i < len(lb); i++ {
		var x, y []byte
		if i < len(la) {
			x = la[i]
		}
		if i < len(lb) {
			y = lb[i]
		}
		if !bytes.Equal(x, y) {
			return fmt.Sprintf("line %d:\n- %s\n+ %s", i+1, x, y)
		}
	}
	return ""
}
