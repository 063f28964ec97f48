package config

import (
	"os"
	"strings"
	"testing"

	"github.com/jsec/jsec/issue"
)

// FuzzLoad feeds arbitrary bytes to the parser Load uses: it must never
// panic, and it returns either a usable Config or problems that each name
// the file and a line.
func FuzzLoad(f *testing.F) {
	example, err := os.ReadFile("example.jsec.yml")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(example)
	f.Add([]byte(customRule("")))
	f.Add([]byte("version: 1\nrules:\n  severity:\n    c.*: low\n  enable: [c.buffer.*]\n"))
	f.Add([]byte("version: 1\nexclude: &x [*x]\ncustom_rules: &c [*c]\n"))
	for _, tc := range brokenCases {
		f.Add([]byte(tc.src))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := Parse("f.yml", data)
		if err != nil {
			if c != nil {
				t.Fatal("both a Config and an error")
			}
			for _, l := range strings.Split(err.Error(), "\n") {
				if !lineFormat.MatchString(l) {
					t.Fatalf("problem %q is not <file>:<line>: <problem>; <fix>", l)
				}
			}
			return
		}
		if c.Version != Version {
			t.Fatalf("accepted version %d", c.Version)
		}
		for _, cr := range c.Custom {
			if cr.Pattern == nil || !customIDRE().MatchString(cr.Rule.ID) || cr.Rule.Severity < issue.SeverityLow {
				t.Fatalf("accepted a broken custom rule %+v", cr.Rule)
			}
			_ = cr.Pattern.MatchString("strcpy(a, b);")
		}
		for _, id := range []string{"c.buffer.gets", "rust.panic.unwrap"} {
			c.RuleEnabled(id)
			c.SeverityFor(id, issue.SeverityHigh)
		}
		c.Included("src/a/b.c")
		c.CustomRules()
	})
}
