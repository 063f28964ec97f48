package checkers_test

import (
	"context"
	"testing"

	"github.com/jsec/jsec/checkers"
	cchk "github.com/jsec/jsec/checkers/c"
)

// profSrc has three functions: the first needs the tree for "alpha"
// alone, the second for "alpha" and "beta", and in the third the triage
// of "beta" (kept only when called) drops it.
const profSrc = `void f1(void) { alpha(1); }
void f2(void) { beta(2); alpha(3); }
void f3(void) { int beta = 0; (void)beta; }
`

// TestProfileCounts checks every figure --time prints against a scan
// whose answers are known: triggers, what triage kept, findings reported,
// the bytes parsed for one checker alone, and the totals.
func TestProfileCounts(t *testing.T) {
	lang := *cchk.C()
	lang.Checkers = []*checkers.Checker{
		{
			Name: "t/alpha", Rules: []string{"c.buffer.gets"}, Triggers: []string{"alpha"},
			Check: func(p *checkers.Pass, h checkers.Hit) {
				p.Report(checkers.Finding{Rule: "c.buffer.gets", Span: checkers.NodeSpan(h.Node)})
			},
		},
		{
			Name: "t/beta", Rules: []string{"c.buffer.strcpy"}, Triggers: []string{"beta"},
			Triage: func(lx *checkers.Lexed, tok int) bool { return lx.Is(tok+1, "(") },
			Check:  func(*checkers.Pass, checkers.Hit) {},
		},
	}
	root := t.TempDir()
	write(t, root, "a.c", []byte(profSrc))
	prof := checkers.NewProfile()
	res, err := checkers.Scan(context.Background(), root, checkers.Options{
		Languages: map[string]*checkers.Language{"c": &lang}, Profile: prof,
	})
	if err != nil {
		t.Fatal(err)
	}
	lx := lang.Lex([]byte(profSrc))
	if len(lx.Items) != 3 {
		t.Fatalf("%d items, want 3 (one per function)", len(lx.Items))
	}
	f1 := int64(lx.Items[0].End - lx.Items[0].Start)
	got := map[string]checkers.CheckerTime{}
	for _, c := range prof.Checkers() {
		got[c.Checker] = c
	}
	want := map[string]checkers.CheckerTime{
		"t/alpha": {Checker: "t/alpha", Triggers: 2, Kept: 2, Reported: 2, AloneBytes: f1},
		"t/beta":  {Checker: "t/beta", Triggers: 3, Kept: 1, Reported: 0, AloneBytes: 0},
	}
	for name, w := range want {
		g := got[name]
		g.Triage, g.Check = 0, 0
		if g != w {
			t.Errorf("%s: got %+v, want %+v", name, g, w)
		}
	}
	tot := prof.Totals()
	if tot.Files != 1 || tot.Parses != 1 || tot.ParsedBytes != res.ParsedBytes || res.ParsedBytes == 0 {
		t.Errorf("totals %+v, result parsed %d: want one file, one parse, the result's parsed bytes", tot, res.ParsedBytes)
	}
	if tot.Lex <= 0 || tot.Parse <= 0 || tot.Check <= 0 {
		t.Errorf("totals %+v: lex, parse and check times should be positive", tot)
	}
	if len(res.Issues) != 2 {
		t.Errorf("%d issues, want the 2 alpha findings", len(res.Issues))
	}
}

// TestProfileOffChangesNothing scans with and without a profile: the
// same issues.
func TestProfileOffChangesNothing(t *testing.T) {
	root := t.TempDir()
	write(t, root, "a.c", []byte(flaw))
	write(t, root, "b.h", []byte("#include <string.h>\nvoid g(char *s) { char d[4]; strcpy(d, s); }\n"))
	opt := checkers.Options{Languages: languages(), ClassifyHeader: cchk.ClassifyHeader}
	plain, err := checkers.Scan(context.Background(), root, opt)
	if err != nil {
		t.Fatal(err)
	}
	opt.Profile = checkers.NewProfile()
	prof, err := checkers.Scan(context.Background(), root, opt)
	if err != nil {
		t.Fatal(err)
	}
	if len(plain.Issues) < 2 || len(plain.Issues) != len(prof.Issues) {
		t.Fatalf("issues: %d without a profile, %d with (want the same, at least 2)", len(plain.Issues), len(prof.Issues))
	}
	for i := range plain.Issues {
		if plain.Issues[i].ID != prof.Issues[i].ID {
			t.Errorf("issue %d: %s without a profile, %s with", i, plain.Issues[i].ID, prof.Issues[i].ID)
		}
	}
	if tot := opt.Profile.Totals(); tot.Files != 2 {
		t.Errorf("profile counted %d files, want 2", tot.Files)
	}
}
