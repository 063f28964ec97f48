package checkers_test

import (
	"context"
	"testing"

	"github.com/jsec/jsec/checkers"
	"github.com/jsec/jsec/issue"
	"github.com/jsec/jsec/rules"
	"github.com/jsec/jsec/rules/grep"
)

func TestCustomRulesSkipCommentsAndStrings(t *testing.T) {
	root := t.TempDir()
	write(t, root, "a.c", []byte("void f(char *d, const char *s) {\n\tlegacy_copy(d, s);\n\t/* legacy_copy(d, s); */\n\tputs(\"legacy_copy(d, s)\");\n}\n#if 0\nlegacy_copy(a, b);\n#endif\n"))
	write(t, root, "b.rs", []byte("fn f() { legacy_copy(); }\n"))
	pat, err := grep.Compile(`\blegacy_copy\s*\(`)
	if err != nil {
		t.Fatal(err)
	}
	row := &rules.Rule{ID: "custom.acme.legacy-copy", Title: "Legacy copy", CWE: 676, Category: rules.CatDangerousAPI,
		Severity: issue.SeverityMedium, Confidence: 0.6, Languages: []string{"c", "cpp"}, Description: "legacy_copy is unbounded", Suggestion: "use safe_copy"}
	lookup := func(id string) *rules.Rule {
		if id == row.ID {
			return row
		}
		return rules.Lookup(id)
	}
	res, err := checkers.Scan(context.Background(), root, checkers.Options{
		Languages: languages(),
		Custom:    []checkers.CustomRule{{ID: row.ID, Languages: row.Languages, Pattern: pat}},
		Lookup:    lookup,
		Severity: func(rule string, def issue.Severity) issue.Severity {
			if rule == row.ID {
				return issue.SeverityHigh
			}
			return def
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	var got []issue.Issue
	for _, is := range res.Issues {
		if is.Rule == row.ID {
			got = append(got, is)
		}
	}
	if len(got) != 1 || got[0].File != "a.c" || got[0].Line != 2 || got[0].Column != 2 || got[0].Severity != issue.SeverityHigh || got[0].Title != "Legacy copy" {
		t.Fatalf("custom findings: %+v", got)
	}
	if got[0].ID == "" || got[0].Evidence != "legacy_copy(d, s);" {
		t.Fatalf("issue: %+v", got[0])
	}
}
