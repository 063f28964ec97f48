package c

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/jsec/jsec/checkers"
)

// TestMemoryTriageSound holds each memory checker's Triage to its promise
// on the memory fixtures (and on JSEC_TRIAGE_CORPUS when set): run alone,
// with and without its Triage, the checker reports the same findings. A
// checker runs alone so that no other checker's trigger parses the
// function for it.
func TestMemoryTriageSound(t *testing.T) {
	files := triageFiles(t, filepath.Join("testdata", "memory"))
	if dir := os.Getenv("JSEC_TRIAGE_CORPUS"); dir != "" {
		files = append(files, triageFiles(t, dir)...)
	}
	for _, c := range memoryCheckers {
		if c.Triage == nil {
			continue
		}
		bare := *c
		bare.Triage = nil
		found := 0
		for _, path := range files {
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			cpp := strings.HasSuffix(path, ".cc") || strings.HasSuffix(path, ".cpp") || strings.HasSuffix(path, ".h") && IsCPPHeader(src)
			with := triageRun(t, path, src, cpp, []*checkers.Checker{c})
			without := triageRun(t, path, src, cpp, []*checkers.Checker{&bare})
			found += len(with)
			for _, f := range without {
				if !slices.Contains(with, f) {
					t.Errorf("%s: %s's triage dropped %s", path, c.Name, f)
				}
			}
		}
		if found == 0 {
			t.Errorf("%s: no findings on the fixtures; the test proves nothing for it", c.Name)
		}
	}
}
