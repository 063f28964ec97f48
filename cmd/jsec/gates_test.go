package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

type gateReport struct {
	Issues []struct {
		ID, Rule, File string
		Line           int
		Baselined      bool
		Suppressed     *struct{ Kind, Justification string }
	}
	Summary map[string]any
	Errors  []struct{ File, Reason, Kind string }
}

func loadGateReport(t *testing.T, dir string) gateReport {
	t.Helper()
	var r gateReport
	data, err := os.ReadFile(filepath.Join(dir, "report.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &r); err != nil {
		t.Fatal(err)
	}
	return r
}

// TestBaselineSurvivesMovedCode: after code moves and a second copy of a
// baselined flaw appears, exactly the new copy is reported as new.
func TestBaselineSurvivesMovedCode(t *testing.T) {
	v1 := "#include <stdio.h>\nvoid read_name(void) {\n\tchar b[8];\n\tgets(b);\n}\nvoid read_host(char *h) {\n\tchar buf[16];\n\tstrcpy(buf, h);\n}\n"
	root := project(t, map[string]string{"src/io.c": v1})
	base := t.TempDir()
	if code, _, _ := runCLI(t, "scan", root, "--out", base, "-q"); code != exitFindings {
		t.Fatalf("baseline scan exit %d", code)
	}
	// Lines added above, functions swapped, and a second gets() in read_name.
	v2 := "#include <stdio.h>\n#include <string.h>\n\n/* A new header comment. */\n\nvoid read_host(char *h)\n{\n    char buf[16];\n    strcpy(buf, h);\n}\n\nvoid read_name(void) {\n\tchar b[8];\n\tgets(b);\n\tgets(b);\n}\n"
	os.WriteFile(filepath.Join(root, "src/io.c"), []byte(v2), 0o644)
	out := t.TempDir()
	code, _, stderr := runCLI(t, "scan", root, "--out", out, "--baseline", filepath.Join(base, "report.json"))
	rep := loadGateReport(t, out)
	var fresh []string
	for _, is := range rep.Issues {
		if !is.Baselined {
			fresh = append(fresh, is.Rule+":"+itoa(is.Line))
		}
	}
	if len(rep.Issues) != 3 || strings.Join(fresh, ",") != "c.buffer.gets:15" {
		t.Fatalf("new findings %v of %d (want only the second gets, on line 15)", fresh, len(rep.Issues))
	}
	if rep.Summary["baselined"].(float64) != 2 {
		t.Fatalf("summary.baselined = %v", rep.Summary["baselined"])
	}
	if code != exitFindings {
		t.Fatalf("the new critical finding must fail the run: exit %d %s", code, stderr)
	}
	// With the new copy baselined too, nothing fails.
	if code, _, _ := runCLI(t, "scan", root, "--out", t.TempDir(), "--baseline", filepath.Join(out, "report.json")); code != exitOK {
		t.Fatalf("fully baselined run: exit %d", code)
	}
	if code, _, _ := runCLI(t, "scan", root, "--out", t.TempDir(), "--baseline", filepath.Join(root, "nope.json")); code != exitUsage {
		t.Fatalf("missing baseline: exit %d", code)
	}
}

func itoa(i int) string { b, _ := json.Marshal(i); return string(b) }

func TestSuppressionsThroughTheCLI(t *testing.T) {
	root := project(t, map[string]string{"a.c": "void f(void) {\n\tchar b[8];\n\tgets(b); // jsec:ignore c.buffer.gets -- fixture input\n\tgets(b); // jsec:ignore c.buffer.gets\n}\n"})
	out := t.TempDir()
	code, _, _ := runCLI(t, "scan", root, "--out", out)
	rep := loadGateReport(t, out)
	if code != exitFindings || len(rep.Issues) != 2 || rep.Issues[0].Suppressed == nil || rep.Issues[1].Suppressed != nil {
		t.Fatalf("exit %d issues %+v", code, rep.Issues)
	}
	if len(rep.Errors) != 1 || rep.Errors[0].Kind != "suppression" || !strings.Contains(rep.Errors[0].Reason, "line 4") {
		t.Fatalf("errors %+v", rep.Errors)
	}
	if rep.Summary["suppressed"].(float64) != 1 {
		t.Fatalf("summary.suppressed %v", rep.Summary["suppressed"])
	}
	// Only the suppressed one: exit 0.
	os.WriteFile(filepath.Join(root, "a.c"), []byte("void f(void) {\n\tchar b[8];\n\tgets(b); // jsec:ignore c.buffer.gets -- fixture input\n}\n"), 0o644)
	if code, _, _ := runCLI(t, "scan", root, "--out", out); code != exitOK {
		t.Fatalf("suppressed finding failed the run: %d", code)
	}
	if code, _, _ := runCLI(t, "scan", root, "--out", out, "--no-suppress"); code != exitFindings {
		t.Fatalf("--no-suppress: %d", code)
	}
}

func gitRun(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir, "-c", "user.email=t@example.com", "-c", "user.name=t", "-c", "commit.gpgsign=false"}, args...)...)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

// TestDiffScan: on a real git history, only findings on lines added or
// changed since the base revision are reported.
func TestDiffScan(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	root := project(t, map[string]string{
		"old.c":   "void old(void) {\n\tchar b[8];\n\tgets(b);\n}\n",
		"mixed.c": "void m(void) {\n\tchar b[8];\n\tgets(b);\n}\n",
	})
	gitRun(t, root, "init", "-q")
	gitRun(t, root, "add", ".")
	gitRun(t, root, "commit", "-q", "-m", "base")
	os.WriteFile(filepath.Join(root, "mixed.c"), []byte("void m(void) {\n\tchar b[8];\n\tgets(b);\n\tchar c[8];\n\tgets(c);\n}\n"), 0o644)
	os.WriteFile(filepath.Join(root, "new.c"), []byte("void n(void) {\n\tchar b[8];\n\tgets(b);\n}\n"), 0o644)
	gitRun(t, root, "add", "mixed.c")
	gitRun(t, root, "commit", "-q", "-m", "change")
	os.WriteFile(filepath.Join(root, "untracked.c"), []byte("void u(void) { char b[2]; gets(b); }\n"), 0o644)
	out := t.TempDir()
	code, _, stderr := runCLI(t, "scan", root, "--out", out, "--diff", "HEAD~1")
	rep := loadGateReport(t, out)
	var got []string
	for _, is := range rep.Issues {
		got = append(got, is.File+":"+itoa(is.Line))
	}
	if strings.Join(got, " ") != "mixed.c:5 new.c:3 untracked.c:1" || code != exitFindings {
		t.Fatalf("exit %d: %v %s", code, got, stderr)
	}
	if rep.Summary["files_scanned"].(float64) != 3 {
		t.Fatalf("scanned %v files; a diff scan reads only the changed ones", rep.Summary["files_scanned"])
	}
	if code, _, stderr := runCLI(t, "scan", root, "--out", out, "--diff", "no-such-rev"); code != exitUsage || strings.Count(stderr, "\n") != 1 {
		t.Fatalf("bad revision: exit %d: %s", code, stderr)
	}
	// Outside a git work tree: one line that says so, not git's usage
	// text (git diff printed 130 lines of it).
	plain := project(t, map[string]string{"a.c": "int a;\n"})
	code, _, stderr = runCLI(t, "scan", plain, "--out", out, "--diff", "HEAD")
	if code != exitUsage || !strings.Contains(stderr, "not in a git work tree") || strings.Count(stderr, "\n") != 1 {
		t.Fatalf("no git work tree: exit %d: %s", code, stderr)
	}
}

// TestShardsMergeToTheFullScan: N sharded scans merged give the same
// issues and summary as one scan of everything.
func TestShardsMergeToTheFullScan(t *testing.T) {
	files := map[string]string{}
	for i := range 30 {
		files["src/m"+itoa(i)+".c"] = "void f" + itoa(i) + "(char *s) {\n\tchar b[8];\n\tstrcpy(b, s);\n\tgets(b);\n}\n"
	}
	files["bin.c"] = "\x00\x01"
	root := project(t, files)
	full := t.TempDir()
	runCLI(t, "scan", root, "--out", full, "-q")
	var dirs []string
	for k := range 3 {
		d := t.TempDir()
		runCLI(t, "scan", root, "--out", d, "-q", "--shard", itoa(k)+"/3")
		dirs = append(dirs, d)
	}
	merged := t.TempDir()
	code, stdout, stderr := runCLI(t, append(append([]string{"merge"}, dirs...), "--out", merged)...)
	if code != exitFindings || !strings.Contains(stdout, "merged 3 reports") {
		t.Fatalf("merge exit %d: %s %s", code, stdout, stderr)
	}
	a, b := loadGateReport(t, full), loadGateReport(t, merged)
	delete(a.Summary, "duration_ms")
	delete(b.Summary, "duration_ms")
	if !reflect.DeepEqual(a.Issues, b.Issues) || !reflect.DeepEqual(a.Summary, b.Summary) || !reflect.DeepEqual(a.Errors, b.Errors) {
		t.Fatalf("merged shards differ from the full scan:\nfull   %v\nmerged %v", a.Summary, b.Summary)
	}
	for _, f := range []string{"report.md", "report.sarif"} {
		if _, err := os.Stat(filepath.Join(merged, f)); err != nil {
			t.Fatal(err)
		}
	}
}

func TestParseShard(t *testing.T) {
	env := func(k string) string { return map[string]string{"JOB_COMPLETION_INDEX": "2"}[k] }
	for in, want := range map[string][2]int{"0/4": {0, 4}, "3/4": {3, 4}, "auto/5": {2, 5}, "": {0, 0}} {
		s, err := parseShard(in, env)
		if err != nil || s.K != want[0] || s.N != want[1] {
			t.Errorf("%q: %+v %v", in, s, err)
		}
	}
	for _, bad := range []string{"4/4", "-1/3", "x/3", "1", "auto/2/2"} {
		if _, err := parseShard(bad, func(string) string { return "" }); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

// TestMergeJournalsLongLine: a record after a line past 16 MB (where a
// bufio.Scanner stopped) survives the merge.
func TestMergeJournalsLongLine(t *testing.T) {
	a, b, out := t.TempDir(), t.TempDir(), filepath.Join(t.TempDir(), "progress.jsonl")
	os.WriteFile(filepath.Join(a, "progress.jsonl"), []byte(`{"fingerprint":"long","reason":"`+strings.Repeat("x", 17<<20)+"\"}\n"+`{"fingerprint":"after"}`+"\n"), 0o644)
	os.WriteFile(filepath.Join(b, "progress.jsonl"), []byte(`{"fingerprint":"b"}`+"\n"), 0o644)
	if err := mergeJournals([]string{a, b}, out); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(out)
	for _, fp := range []string{`"long"`, `"after"`, `"b"`} {
		if !strings.Contains(string(data), fp) {
			t.Errorf("merged journal lost %s", fp)
		}
	}
}
