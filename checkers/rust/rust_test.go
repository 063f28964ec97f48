package rust

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/jsec/jsec/checkers/checktest"
	"github.com/jsec/jsec/rules"
)

func fixtureFamilies(t testing.TB) []string {
	dirs, err := os.ReadDir("testdata")
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, d := range dirs {
		if d.IsDir() {
			if m, _ := filepath.Glob(filepath.Join("testdata", d.Name(), "*.rs")); len(m) > 0 {
				out = append(out, d.Name())
			}
		}
	}
	return out
}

// TestFixtures checks every family's fixtures; run one with
// go test ./checkers/rust -run 'TestFixtures/unsafe$'.
func TestFixtures(t *testing.T) {
	for _, fam := range fixtureFamilies(t) {
		t.Run(fam, func(t *testing.T) { checktest.Run(t, Rust(), filepath.Join("testdata", fam)) })
	}
}

// TestRuleCoverage requires a positive and a safe fixture for every Rust
// rule in the catalogue.
func TestRuleCoverage(t *testing.T) {
	var reps []*checktest.Report
	for _, fam := range fixtureFamilies(t) {
		reps = append(reps, checktest.Run(t, Rust(), filepath.Join("testdata", fam)))
	}
	checktest.Coverage(t, rustRuleIDs(), reps...)
}

func rustRuleIDs() []string {
	var ids []string
	for _, r := range rules.All() {
		if r.AppliesTo("rust") {
			ids = append(ids, r.ID)
		}
	}
	return ids
}

// TestCheckersMatchCatalogue: every declared rule is a catalogued Rust
// rule and every catalogued Rust rule has a checker.
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
			if r := rules.Lookup(id); r == nil || !r.AppliesTo("rust") {
				t.Errorf("checker %s declares %s, which is not a catalogued Rust rule", c.Name, id)
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
	for _, id := range rustRuleIDs() {
		if !declared[id] {
			t.Errorf("rule %s is catalogued but no checker reports it", id)
		}
	}
}
