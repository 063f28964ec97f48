package c

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/jsec/jsec/checkers/checktest"
	"github.com/jsec/jsec/rules"
)

// runFamily runs the fixtures of one family: testdata/<family>/*.c with
// the C grammar, *.cc/*.cpp with the C++ one.
func runFamily(t testing.TB, family string) []*checktest.Report {
	dir := filepath.Join("testdata", family)
	var reps []*checktest.Report
	if hasExt(dir, checktest.Extensions["c"]) {
		reps = append(reps, checktest.Run(t, C(), dir))
	}
	if hasExt(dir, checktest.Extensions["cpp"]) {
		reps = append(reps, checktest.Run(t, CPP(), dir))
	}
	return reps
}

func fixtureFamilies(t testing.TB) []string {
	dirs, err := os.ReadDir("testdata")
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, d := range dirs {
		if d.IsDir() && hasExt(filepath.Join("testdata", d.Name()), append(checktest.Extensions["c"], checktest.Extensions["cpp"]...)) {
			out = append(out, d.Name())
		}
	}
	return out
}

// TestFixtures checks every family's line-anchored fixtures; run one with
// go test ./checkers/c -run 'TestFixtures/memory$'.
func TestFixtures(t *testing.T) {
	for _, fam := range fixtureFamilies(t) {
		t.Run(fam, func(t *testing.T) { runFamily(t, fam) })
	}
}

// TestRuleCoverage requires a positive and a safe look-alike fixture for
// every C/C++ rule in the catalogue.
func TestRuleCoverage(t *testing.T) {
	var reps []*checktest.Report
	for _, fam := range fixtureFamilies(t) {
		reps = append(reps, runFamily(t, fam)...)
	}
	checktest.Coverage(t, cRuleIDs(), reps...)
}

func cRuleIDs() []string {
	var ids []string
	for _, r := range rules.All() {
		if r.AppliesTo("c") || r.AppliesTo("cpp") {
			ids = append(ids, r.ID)
		}
	}
	return ids
}

// TestCheckersMatchCatalogue: every rule a checker declares is catalogued
// for C/C++, and every catalogued C/C++ rule has a checker.
func TestCheckersMatchCatalogue(t *testing.T) {
	declared := map[string]bool{}
	names := map[string]bool{}
	for _, c := range allCheckers() {
		if names[c.Name] {
			t.Errorf("checker name %s used twice", c.Name)
		}
		names[c.Name] = true
		if len(c.Triggers) == 0 || c.Check == nil {
			t.Errorf("checker %s has no triggers or no Check", c.Name)
		}
		for _, id := range c.Rules {
			declared[id] = true
			r := rules.Lookup(id)
			if r == nil {
				t.Errorf("checker %s declares unknown rule %s", c.Name, id)
			} else if !r.AppliesTo("c") && !r.AppliesTo("cpp") {
				t.Errorf("checker %s declares non-C rule %s", c.Name, id)
			}
		}
		for _, w := range c.Triggers {
			for i := 0; i < len(w); i++ {
				if !IdentByte(w[i]) {
					t.Errorf("checker %s: trigger %q is not an identifier", c.Name, w)
				}
			}
		}
	}
	for _, id := range cRuleIDs() {
		if !declared[id] {
			t.Errorf("rule %s is catalogued but no checker reports it", id)
		}
	}
}

func hasExt(dir string, exts []string) bool {
	found := false
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && slices.Contains(exts, filepath.Ext(p)) {
			found = true
		}
		return nil
	})
	return found
}
