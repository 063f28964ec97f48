package c

import (
	"fmt"
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

// TestTriageInLargeClassBody: a class body past memHugeItem is one item,
// but the state walk runs per method, so a small method's finding must
// survive the triage (it used to be dropped with the whole item).
func TestTriageInLargeClassBody(t *testing.T) {
	var b strings.Builder
	b.WriteString("struct Item { int value; };\nclass Big {\npublic:\n")
	for i := 0; b.Len() <= memHugeItem; i++ {
		fmt.Fprintf(&b, "  int filler%d(int a) { int v = a * %d; return v + %d; }\n", i, i, i)
	}
	b.WriteString("  int broken(Item *it) {\n    it = nullptr;\n    return it->value;\n  }\n};\n")
	src := []byte(b.String())
	var null *checkers.Checker
	for _, c := range memoryCheckers {
		if c.Name == "c/null/deref" {
			null = c
		}
	}
	bare := *null
	bare.Triage = nil
	with := triageRun(t, "big.cc", src, true, []*checkers.Checker{null})
	without := triageRun(t, "big.cc", src, true, []*checkers.Checker{&bare})
	if len(without) == 0 {
		t.Fatal("the check finds nothing: the test proves nothing")
	}
	if !slices.Equal(with, without) {
		t.Errorf("with triage %v, without %v", with, without)
	}
}
