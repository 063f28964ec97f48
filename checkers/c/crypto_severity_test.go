package c

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/jsec/jsec/checkers"
	"github.com/jsec/jsec/checkers/syntax"
	"github.com/jsec/jsec/issue"
)

// TestCryptoSeverityOverrides checks the per-finding severities that line
// annotations cannot express: predictable seeds are Low unless the file
// uses the generator for a secret, SSL_VERIFY_NONE is Low in server-only
// code, and a weak digest feeding an HMAC is Low.
func TestCryptoSeverityOverrides(t *testing.T) {
	cases := []struct {
		file string
		line int
		rule string
		want issue.Severity // 0: the catalogue's default
	}{
		{"random.c", 17, ruleRandomSeed, 0},
		{"random_seed.c", 12, ruleRandomSeed, issue.SeverityLow},
		{"random_seed.c", 20, ruleRandomSeed, issue.SeverityLow},
		{"tls_server.c", 8, ruleTLSNoVerify, issue.SeverityLow},
		{"tls.c", 21, ruleTLSNoVerify, 0},
		{"weak_hash.c", 40, ruleWeakHash, issue.SeverityLow},
		{"weak_hash.c", 23, ruleWeakHash, 0},
	}
	for _, c := range cases {
		path := filepath.Join("testdata", "crypto", c.file)
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		parser := syntax.NewParser(syntax.C)
		f := checkers.NewFile(path, "c", src)
		res, err := checkers.NewAnalyzer(C(), nil).Analyze(context.Background(), f, parser)
		parser.Close()
		if err != nil {
			t.Fatal(err)
		}
		found := false
		for _, fd := range res.Findings {
			if fd.Rule == c.rule && f.Lines().Line(fd.Span.Start) == c.line {
				found = true
				if fd.Severity != c.want {
					t.Errorf("%s:%d %s: severity %v, want %v (%s)", c.file, c.line, c.rule, fd.Severity, c.want, fd.Message)
				}
			}
		}
		if !found {
			t.Errorf("%s:%d: no %s finding", c.file, c.line, c.rule)
		}
	}
}
