package rules

import (
	"io/fs"
	"regexp"
	"slices"
	"strings"
	"testing"
)

var idRE = regexp.MustCompile(`^(c|cpp|rust)\.[a-z0-9]+\.[a-z0-9]+(-[a-z0-9]+)*$`)

func TestCatalogueRows(t *testing.T) {
	all := All()
	if len(all) == 0 {
		t.Fatal("empty catalogue")
	}
	seen := map[string]bool{}
	for _, r := range all {
		if !idRE.MatchString(r.ID) {
			t.Errorf("%s: id does not match %s", r.ID, idRE)
		}
		if seen[r.ID] {
			t.Errorf("%s: duplicate id", r.ID)
		}
		seen[r.ID] = true
		if slices.Contains(retired, r.ID) {
			t.Errorf("%s: reuses a retired id", r.ID)
		}
		if r.Title == "" || r.Description == "" || r.Suggestion == "" {
			t.Errorf("%s: title, description and suggestion are required", r.ID)
		}
		if r.CWE <= 0 {
			t.Errorf("%s: no CWE", r.ID)
		}
		if !slices.Contains(Categories, r.Category) {
			t.Errorf("%s: unknown category %q", r.ID, r.Category)
		}
		if r.Severity < 1 || r.Severity > 4 {
			t.Errorf("%s: bad severity %d", r.ID, r.Severity)
		}
		if r.Confidence <= 0 || r.Confidence > 1 {
			t.Errorf("%s: confidence %v out of (0,1]", r.ID, r.Confidence)
		}
		if len(r.Languages) == 0 {
			t.Errorf("%s: no languages", r.ID)
		}
		for _, l := range r.Languages {
			if l != "c" && l != "cpp" && l != "rust" {
				t.Errorf("%s: unknown language %q", r.ID, l)
			}
		}
		prefix := strings.SplitN(r.ID, ".", 2)[0]
		if prefix == "rust" && !r.AppliesTo("rust") || prefix != "rust" && r.AppliesTo("rust") {
			t.Errorf("%s: id prefix and languages disagree", r.ID)
		}
		if len(r.Doc) < 80 {
			t.Errorf("%s: missing or too short docs/%s.md", r.ID, r.ID)
		}
		if Lookup(r.ID) != r {
			t.Errorf("%s: Lookup does not find it", r.ID)
		}
	}
	if Lookup("no.such.rule") != nil {
		t.Error("Lookup invented a rule")
	}
}

func TestNoOrphanDocs(t *testing.T) {
	entries, err := fs.ReadDir(docsFS, "docs")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		id := strings.TrimSuffix(e.Name(), ".md")
		if Lookup(id) == nil {
			t.Errorf("docs/%s documents no rule", e.Name())
		}
	}
}

func TestMarshalJSON(t *testing.T) {
	b, err := Lookup("c.buffer.gets").MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"id":"c.buffer.gets"`, `"cwe":"CWE-242"`, `"severity":"critical"`, `"languages":["c","cpp"]`} {
		if !strings.Contains(string(b), want) {
			t.Errorf("json %s lacks %s", b, want)
		}
	}
}
