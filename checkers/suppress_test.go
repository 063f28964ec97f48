package checkers_test

import (
	"context"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/jsec/jsec/checkers"
)

func TestInlineSuppressions(t *testing.T) {
	root := t.TempDir()
	src := `#include <stdio.h>
void f(void) {
	char a[8], b[8], c[8], d[8], e[8];
	gets(a); // jsec:ignore c.buffer.gets -- test harness reads a fixed fixture
	/* jsec:ignore c.buffer.* -- reviewed in SEC-123 */
	gets(b);
	gets(c); // jsec:ignore c.buffer.gets
	gets(d); // jsec:ignore c.format.printf -- wrong rule
	// jsec:ignore c.buffer.gets -- nothing below to suppress

	gets(e);
}
`
	os.WriteFile(filepath.Join(root, "a.c"), []byte(src), 0o644)
	scan := func(noSuppress bool) (*checkers.Result, map[int]string) {
		res, err := checkers.Scan(context.Background(), root, checkers.Options{Languages: languages(), NoSuppress: noSuppress})
		if err != nil {
			t.Fatal(err)
		}
		sup := map[int]string{}
		for _, is := range res.Issues {
			if is.Suppressed != nil {
				if is.Suppressed.Kind != "inSource" {
					t.Fatalf("kind %q", is.Suppressed.Kind)
				}
				sup[is.Line] = is.Suppressed.Justification
			}
		}
		return res, sup
	}
	res, sup := scan(false)
	if len(res.Issues) != 5 {
		t.Fatalf("suppressed issues must stay in the report: %d issues", len(res.Issues))
	}
	if sup[4] != "test harness reads a fixed fixture" || sup[6] != "reviewed in SEC-123" || len(sup) != 2 {
		t.Fatalf("suppressed: %v", sup)
	}
	var problems []string
	for _, s := range res.Skips {
		if s.Kind == "suppression" {
			problems = append(problems, s.Reason)
		}
	}
	sort.Strings(problems)
	want := []string{
		"line 7: jsec:ignore c.buffer.gets has no reason and suppresses nothing",
		"line 8: unused jsec:ignore c.format.printf",
		"line 9: unused jsec:ignore c.buffer.gets: no such finding on line 10",
	}
	if len(problems) != len(want) {
		t.Fatalf("problems: %q", problems)
	}
	for i := range want {
		if !strings.HasPrefix(problems[i], want[i]) {
			t.Errorf("problem %q, want prefix %q", problems[i], want[i])
		}
	}
	res, sup = scan(true)
	if len(sup) != 0 {
		t.Fatal("--no-suppress still suppressed")
	}
	for _, s := range res.Skips {
		if s.Kind == "suppression" {
			t.Fatalf("--no-suppress reported %q", s.Reason)
		}
	}
}

func TestShardsPartitionTheFiles(t *testing.T) {
	root := t.TempDir()
	for i := range 40 {
		write(t, root, filepath.Join("d"+string(rune('a'+i%5)), "f"+strings.Repeat("x", i)+".c"), []byte(flaw))
	}
	full, err := checkers.Scan(context.Background(), root, checkers.Options{Languages: languages()})
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]int{}
	for k := range 3 {
		res, err := checkers.Scan(context.Background(), root, checkers.Options{Languages: languages(), Shard: checkers.Shard{K: k, N: 3}})
		if err != nil {
			t.Fatal(err)
		}
		if res.Files == 0 || res.Files == full.Files {
			t.Fatalf("shard %d scanned %d of %d files", k, res.Files, full.Files)
		}
		for _, is := range res.Issues {
			seen[is.ID]++
		}
	}
	if len(seen) != len(full.Issues) {
		t.Fatalf("shards found %d issues, the full scan %d", len(seen), len(full.Issues))
	}
	for id, n := range seen {
		if n != 1 {
			t.Fatalf("issue %s found by %d shards", id, n)
		}
	}
}
