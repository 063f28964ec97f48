package main

import (
	"strings"
	"testing"
)

// TestScanTime runs 'jsec scan --time': the phases and the checker that
// found the gets call are printed to standard error, even with -q, and
// nothing of it without the flag.
func TestScanTime(t *testing.T) {
	root := project(t, map[string]string{"main.c": getsC})
	code, stdout, stderr := runCLI(t, "scan", root, "--out", t.TempDir(), "--fail-on", "never", "-q", "--time")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if stdout != "" {
		t.Errorf("stdout %q: -q prints nothing there", stdout)
	}
	for _, want := range []string{"time by phase", "\n  lex ", "1 files", "\n  parse ", "\n  triage ", "\n  checks ", "parsed alone"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
	row := ""
	for _, l := range strings.Split(stderr, "\n") {
		if strings.HasPrefix(l, "c/buffer/gets ") {
			row = l
		}
	}
	// triggers, kept, reported: one gets call, kept, one finding.
	if f := strings.Fields(row); len(f) < 4 || f[1] != "1" || f[2] != "1" || f[3] != "1" {
		t.Errorf("c/buffer/gets row %q: want 1 trigger, 1 kept, 1 reported", row)
	}
	_, _, stderr = runCLI(t, "scan", root, "--out", t.TempDir(), "--fail-on", "never", "-q")
	if strings.Contains(stderr, "time by phase") {
		t.Errorf("without --time: %s", stderr)
	}
}
