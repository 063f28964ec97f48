package rust

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
	corpusDir   = flag.String("corpus", "", "directory of real Rust code to run the checkers over (TestCorpus)")
	corpusRules = flag.String("rules", "", "only print findings of rules with this ID prefix")
	corpusShow  = flag.Int("show", 20, "findings to print per rule")
)

// TestCorpus is a development aid, skipped unless -corpus is given: it runs
// every Rust checker over real code and prints findings per rule and the
// share of bytes that had to be parsed.
//
//	go test ./checkers/rust -run TestCorpus -corpus /work/corpus/rust-ripgrep-13.0.0 -rules rust.unsafe. -v
func TestCorpus(t *testing.T) {
	if *corpusDir == "" {
		t.Skip("no -corpus")
	}
	a := checkers.NewAnalyzer(Rust(), nil)
	parser := syntax.NewParser(syntax.Rust)
	defer parser.Close()
	byRule := map[string][]string{}
	var total, parsed int
	filepath.WalkDir(*corpusDir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || filepath.Ext(p) != ".rs" {
			return nil
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return nil
		}
		rel, _ := filepath.Rel(*corpusDir, p)
		f := checkers.NewFile(filepath.ToSlash(rel), "rust", src)
		res, err := a.Analyze(context.Background(), f, parser)
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
			test := ""
			if fd.Test {
				test = " [test]"
			}
			byRule[fd.Rule] = append(byRule[fd.Rule], fmt.Sprintf("%s:%d: %s%s [%+.2f] %s\n\t%s", rel, line, fd.Function, test, fd.Adjust, fd.Message,
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
