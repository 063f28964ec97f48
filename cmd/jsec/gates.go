package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/jsec/jsec/checkers"
	"github.com/jsec/jsec/issue"
	"github.com/jsec/jsec/report"
)

// loadBaseline reads the --baseline report. It runs before the scan, so
// that a mistyped path fails at once instead of after the whole scan.
func loadBaseline(path string) (*report.Report, error) {
	base, err := report.ReadJSON(path)
	if err != nil {
		return nil, usagef("--baseline %s: %v (pass a report.json written by 'jsec scan')", path, errorText(err))
	}
	return base, nil
}

// applyBaseline marks the issues whose id appears in the baseline report.
// Matching counts copies: a baseline with one copy of an id absorbs one
// current issue with it; a second copy is new. Ids do not contain line
// numbers, so code that moved still matches.
func applyBaseline(base *report.Report, issues []issue.Issue) int {
	left := map[string]int{}
	for _, is := range base.Issues {
		left[is.ID]++
	}
	n := 0
	for i := range issues {
		if left[issues[i].ID] > 0 {
			left[issues[i].ID]--
			issues[i].Baselined = true
			n++
		}
	}
	return n
}

// changes are the lines added or changed since a git revision, by
// root-relative path.
type changes map[string]*fileChange

// fileChange is one file's changed lines: all of them (a new file), or
// the new-side ranges of its hunks. Ranges, not a set of lines: a hunk's
// count comes from outside (git's diff of the tree), and "+1,2000000000"
// made two billion map entries.
type fileChange struct {
	whole  bool
	ranges [][2]int // [first, last] line, inclusive
}

// gitChanges asks git which lines under root changed since base: the
// diff of the working tree against base, plus untracked files.
func gitChanges(ctx context.Context, root, base string) (changes, error) {
	if _, err := exec.LookPath("git"); err != nil {
		return nil, usagef("--diff needs git on PATH")
	}
	dir := root
	if info, err := os.Stat(root); err == nil && !info.IsDir() {
		dir = filepath.Dir(root)
	}
	if _, err := git(ctx, dir, "rev-parse", "--is-inside-work-tree"); err != nil {
		return nil, usagef("--diff %s: %s is not in a git work tree, which --diff needs (scan without --diff, or scan a clone)", base, root)
	}
	diff, err := git(ctx, dir, "diff", "--relative", "--unified=0", "--no-color", "--no-ext-diff", "--no-renames", base, "--")
	if err != nil {
		return nil, usagef("--diff %s: %v", base, err)
	}
	ch := parseDiff(diff)
	untracked, err := git(ctx, dir, "ls-files", "--others", "--exclude-standard")
	if err != nil {
		return nil, fmt.Errorf("--diff: %w", err)
	}
	for _, f := range strings.Split(strings.TrimSpace(string(untracked)), "\n") {
		if f != "" {
			ch[f] = &fileChange{whole: true}
		}
	}
	return ch, nil
}

func git(ctx context.Context, dir string, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, "git", append([]string{"-C", dir}, args...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		// git's first line says what went wrong; a usage text may follow.
		msg, _, _ := strings.Cut(strings.TrimSpace(stderr.String()), "\n")
		if msg == "" {
			msg = err.Error()
		}
		return nil, fmt.Errorf("git %s: %s", args[0], msg)
	}
	return out, nil
}

// parseDiff reads the new-side line ranges of a unified diff with zero
// context.
func parseDiff(diff []byte) changes {
	ch := changes{}
	var file string
	sc := bufio.NewScanner(bytes.NewReader(diff))
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "+++ "):
			file = ""
			if name := strings.TrimPrefix(line, "+++ "); name != "/dev/null" {
				file = strings.TrimPrefix(unquote(name), "b/")
				if ch[file] == nil {
					ch[file] = &fileChange{}
				}
			}
		case strings.HasPrefix(line, "@@ ") && file != "":
			// @@ -a,b +c,d @@
			fields := strings.Fields(line)
			if len(fields) < 3 {
				continue
			}
			if start, count := hunkRange(strings.TrimPrefix(fields[2], "+")); count > 0 {
				last := math.MaxInt
				if start <= 0 || count-1 <= math.MaxInt-start {
					last = start + count - 1
				}
				ch[file].ranges = append(ch[file].ranges, [2]int{start, last})
			}
		}
	}
	return ch
}

func hunkRange(s string) (start, count int) {
	a, b, found := strings.Cut(s, ",")
	start, _ = strconv.Atoi(a)
	count = 1
	if found {
		count, _ = strconv.Atoi(b)
	}
	return start, count
}

func unquote(s string) string {
	if u, err := strconv.Unquote(s); err == nil {
		return u
	}
	return s
}

// files lists the changed paths.
func (c changes) files() []string {
	out := []string{}
	for f := range c {
		out = append(out, f)
	}
	return out
}

// keep reports whether an issue lies on an added or changed line.
func (c changes) keep(is *issue.Issue) bool {
	fc, ok := c[is.File]
	if !ok {
		return false
	}
	if fc.whole {
		return true
	}
	first, last := is.Line, max(is.Line, is.EndLine)
	for _, r := range fc.ranges {
		if r[0] <= last && first <= r[1] {
			return true
		}
	}
	return false
}

// parseShard reads --shard K/N; K may be "auto" to take Kubernetes'
// JOB_COMPLETION_INDEX.
func parseShard(s string, getenv func(string) string) (checkers.Shard, error) {
	if s == "" {
		return checkers.Shard{}, nil
	}
	k, n, ok := strings.Cut(s, "/")
	if !ok {
		return checkers.Shard{}, usagef("--shard %q: want K/N, e.g. 0/4 (K from 0 to N-1) or auto/4", s)
	}
	if k == "auto" {
		k = getenv("JOB_COMPLETION_INDEX")
		if k == "" {
			return checkers.Shard{}, usagef("--shard auto/%s: JOB_COMPLETION_INDEX is not set", n)
		}
	}
	ki, err1 := strconv.Atoi(k)
	ni, err2 := strconv.Atoi(n)
	if err1 != nil || err2 != nil || ni < 1 || ki < 0 || ki >= ni {
		return checkers.Shard{}, usagef("--shard %q: want K/N with 0 <= K < N", s)
	}
	return checkers.Shard{K: ki, N: ni}, nil
}
