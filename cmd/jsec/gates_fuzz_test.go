package main

import (
	"strings"
	"testing"
	"time"

	"github.com/jsec/jsec/issue"
)

// refKeep is parseDiff and keep as they were, a set of lines per file,
// for hunks small enough to enumerate: the reference FuzzParseDiff holds
// the ranges to.
func refKeep(diff string, file string, first, last int) (kept, ok bool) {
	lines := map[string]map[int]bool{}
	cur := ""
	for _, line := range strings.Split(strings.ReplaceAll(diff, "\r\n", "\n"), "\n") {
		switch {
		case strings.HasPrefix(line, "+++ "):
			cur = ""
			if name := strings.TrimPrefix(line, "+++ "); name != "/dev/null" {
				cur = strings.TrimPrefix(unquote(name), "b/")
				if lines[cur] == nil {
					lines[cur] = map[int]bool{}
				}
			}
		case strings.HasPrefix(line, "@@ ") && cur != "":
			fields := strings.Fields(line)
			if len(fields) < 3 {
				continue
			}
			start, count := hunkRange(strings.TrimPrefix(fields[2], "+"))
			if count > 1000 || start > 1<<20 {
				return false, false
			}
			for l := start; l < start+count; l++ {
				lines[cur][l] = true
			}
		}
	}
	for l := first; l <= last; l++ {
		if lines[file][l] {
			return true, true
		}
	}
	return false, true
}

// FuzzParseDiff: parseDiff reads git's output, which the scanned tree
// shapes (file names, hunk sizes). On any input it returns at once, and
// an issue is kept exactly when the old per-line set kept it.
func FuzzParseDiff(f *testing.F) {
	f.Add("+++ b/a.c\n@@ -1,2 +3,4 @@\n", "a.c", 5, 0)
	f.Add("+++ b/a.c\n@@ -1 +1 @@\n+++ /dev/null\n@@ -1 +9 @@\n", "a.c", 9, 9)
	f.Add("+++ \"b/sp ace.c\"\n@@ -0,0 +1,3 @@\n", "sp ace.c", 2, 3)
	f.Add("+++ b/a.c\n@@ -1 +1,2000000000 @@\n", "a.c", 1999999999, 0)
	f.Add("+++ b/a.c\r\n@@ -1,0 +7,0 @@\r\n", "a.c", 7, 7)
	f.Fuzz(func(t *testing.T, diff, file string, line, end int) {
		start := time.Now()
		ch := parseDiff([]byte(diff))
		if d := time.Since(start); d > 2*time.Second {
			t.Fatalf("parseDiff took %s on %d bytes", d, len(diff))
		}
		if line < 1 || line > 1<<20 || end > 1<<20 {
			return
		}
		got := ch.keep(&issue.Issue{File: file, Line: line, EndLine: end})
		want, ok := refKeep(diff, file, line, max(line, end))
		if ok && got != want {
			t.Fatalf("keep(%s:%d-%d) = %v, the per-line set says %v", file, line, end, got, want)
		}
	})
}

func TestParseDiffHugeHunk(t *testing.T) {
	ch := parseDiff([]byte("+++ b/a.c\n@@ -1 +5,2000000000 @@\n+++ b/b.c\n@@ -1 +9223372036854775807,5 @@\n"))
	for _, c := range []struct {
		file string
		line int
		want bool
	}{{"a.c", 4, false}, {"a.c", 5, true}, {"a.c", 2000000004, true}, {"a.c", 2000000005, false}, {"b.c", 1, false}} {
		if got := ch.keep(&issue.Issue{File: c.file, Line: c.line}); got != c.want {
			t.Errorf("keep(%s:%d) = %v, want %v", c.file, c.line, got, c.want)
		}
	}
}
