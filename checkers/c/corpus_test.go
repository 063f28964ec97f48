package c

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/jsec/jsec/checkers"
	"github.com/jsec/jsec/checkers/syntax"
)

var (
	corpusDir   = flag.String("corpus", "", "directory of real C/C++ code to run the checkers over (TestCorpus)")
	corpusRules = flag.String("rules", "", "only print findings of rules with this ID prefix")
	corpusShow  = flag.Int("show", 20, "findings to print per rule")
	triageSet   = flag.String("triage", "", "checker name prefixes, comma-separated, for TestTriageSound (default all)")
)

// TestCorpus is a development aid, skipped unless -corpus is given: it runs
// every C/C++ checker over real code and prints findings per rule and the
// share of bytes that had to be parsed.
//
//	go test ./checkers/c -run TestCorpus -corpus /work/corpus/curl-7.88.1 -rules c.memory. -v
func TestCorpus(t *testing.T) {
	if *corpusDir == "" {
		t.Skip("no -corpus")
	}
	langs := map[string]*checkers.Analyzer{"c": checkers.NewAnalyzer(C(), nil), "cpp": checkers.NewAnalyzer(CPP(), nil)}
	parsers := map[string]*syntax.Parser{"c": syntax.NewParser(syntax.C), "cpp": syntax.NewParser(syntax.CPP)}
	byRule := map[string][]string{}
	var total, parsed int
	filepath.WalkDir(*corpusDir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		lang := ""
		switch filepath.Ext(p) {
		case ".c":
			lang = "c"
		case ".h":
			lang = "c"
		case ".cc", ".cpp", ".cxx", ".hpp", ".hh":
			lang = "cpp"
		default:
			return nil
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return nil
		}
		if filepath.Ext(p) == ".h" && IsCPPHeader(src) {
			lang = "cpp"
		}
		rel, _ := filepath.Rel(*corpusDir, p)
		f := checkers.NewFile(filepath.ToSlash(rel), lang, src)
		res, err := langs[lang].Analyze(context.Background(), f, parsers[lang])
		if err != nil {
			t.Fatal(err)
		}
		total += len(src)
		parsed += res.Parsed
		for _, pr := range res.Problems {
			t.Errorf("%s: %s", rel, pr)
		}
		for _, fd := range res.Findings {
			if !strings.HasPrefix(fd.Rule, *corpusRules) {
				continue
			}
			line := f.Lines().Line(fd.Span.Start)
			byRule[fd.Rule] = append(byRule[fd.Rule], fmt.Sprintf("%s:%d: %s [%+.2f] %s\n\t%s", rel, line, fd.Function, fd.Adjust, fd.Message,
				strings.TrimSpace(f.Lines().Text(src, line))))
		}
		return nil
	})
	var ids []string
	for id := range byRule {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		fs := byRule[id]
		t.Logf("== %s: %d findings", id, len(fs))
		for i, s := range fs {
			if i >= *corpusShow {
				break
			}
			t.Log(s)
		}
	}
	t.Logf("parsed %.1f%% of %.1f MB", 100*float64(parsed)/float64(max(total, 1)), float64(total)/1e6)
}
