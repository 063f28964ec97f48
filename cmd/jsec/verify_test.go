package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// TestMain lets the test binary act as the jsec binary for the subprocess
// tests (JSEC_TEST_EXEC=1 runs main's run function on the arguments).
func TestMain(m *testing.M) {
	if os.Getenv("JSEC_TEST_EXEC") == "1" {
		os.Exit(run(os.Args[1:], ioStreams()))
	}
	os.Exit(m.Run())
}

var candRE = regexp.MustCompile("(?s)```json\n(.*?)\n```")

// verifierBrain plays a verifier over the chat wire format: read_code on
// the flagged line, then a verdict that depends on the candidate's id.
// It records which candidates it was asked about.
type verifierBrain struct {
	mu      sync.Mutex
	asked   map[string]int
	latency time.Duration
	verdict func(id string) string
}

func (b *verifierBrain) answer(req map[string]any) (string, []map[string]any) {
	msgs := messages(req)
	var c struct {
		ID, File string
		Line     int
	}
	if m := candRE.FindStringSubmatch(msgs[1]["content"].(string)); m != nil {
		json.Unmarshal([]byte(m[1]), &c)
	}
	b.mu.Lock()
	if b.asked == nil {
		b.asked = map[string]int{}
	}
	b.asked[c.ID]++
	b.mu.Unlock()
	if b.latency > 0 {
		time.Sleep(b.latency)
	}
	if last := msgs[len(msgs)-1]; last["role"] == "tool" {
		v := "confirmed"
		if b.verdict != nil {
			v = b.verdict(c.ID)
		}
		return "", []map[string]any{fnCall("v", "submit_verdict", map[string]any{"verdict": v, "confidence": 0.9, "reason": "checked " + c.ID})}
	}
	return "", []map[string]any{fnCall("r", "read_code", map[string]any{"path": c.File, "start_line": c.Line, "end_line": c.Line})}
}

func (b *verifierBrain) count() map[string]int {
	b.mu.Lock()
	defer b.mu.Unlock()
	out := map[string]int{}
	for k, v := range b.asked {
		out[k] = v
	}
	return out
}

func flawedProject(t testing.TB, n int) string {
	files := map[string]string{}
	for i := range n {
		files[fmt.Sprintf("src/f%02d.c", i)] = fmt.Sprintf("#include <stdio.h>\nint f%d(void) {\n\tchar b[8];\n\tgets(b);\n\treturn b[0];\n}\n", i)
	}
	return project(t, files)
}

type verifiedReport struct {
	Issues []struct {
		ID           string
		Verification *struct {
			Verdict   string
			Reason    string
			Dismissed bool
		}
	}
	Summary struct {
		Verification *struct {
			Candidates, Confirmed, Resumed int
			FalsePositive                  int `json:"false_positive"`
		}
	}
}

func readReport(t *testing.T, out string) verifiedReport {
	t.Helper()
	var r verifiedReport
	data, err := os.ReadFile(filepath.Join(out, "report.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &r); err != nil {
		t.Fatal(err)
	}
	return r
}

func TestScanVerifyThroughTheCLI(t *testing.T) {
	root := flawedProject(t, 6)
	brain := &verifierBrain{verdict: func(id string) string {
		if id[0] < '8' {
			return "confirmed"
		}
		return "false_positive"
	}}
	srv := newChatServer(t, brain.answer)
	out := t.TempDir()
	code, stdout, stderr := runCLI(t, "scan", root, "--out", out, "--verify", "--llm-base-url", srv.url, "--llm-model", "m", "--jobs", "4")
	rep := readReport(t, out)
	confirmed := 0
	for _, is := range rep.Issues {
		v := is.Verification
		if v == nil || !strings.Contains(v.Reason, "checked "+is.ID) {
			t.Fatalf("issue %s: %+v", is.ID, v)
		}
		if v.Verdict == "confirmed" {
			confirmed++
		} else if !v.Dismissed {
			t.Fatalf("false positive not dismissed: %+v", v)
		}
	}
	if len(rep.Issues) != 6 || rep.Summary.Verification == nil || rep.Summary.Verification.Confirmed != confirmed {
		t.Fatalf("report: %+v / %s", rep.Summary.Verification, stdout)
	}
	wantCode := exitOK
	if confirmed > 0 {
		wantCode = exitFindings
	}
	if code != wantCode {
		t.Fatalf("exit %d, want %d (only gating findings count): %s", code, wantCode, stderr)
	}
	if !strings.Contains(stdout, "verified 6 findings") {
		t.Fatalf("stdout: %s", stdout)
	}
	// A second run reuses every verdict and asks nothing.
	before := len(srv.reqs)
	runCLI(t, "scan", root, "--out", out, "--verify", "--llm-base-url", srv.url, "--llm-model", "m")
	if len(srv.reqs) != before || readReport(t, out).Summary.Verification.Resumed != 6 {
		t.Fatalf("the second run asked the model %d more times", len(srv.reqs)-before)
	}
}

// TestScanVerifyOneFile: a scan of one file (not a directory) verifies
// too, its agents reading that file; the tool root was the file itself
// once, and every such run ended in exit 3 ("open tool root: not a
// directory"). The SARIF log has GitHub's line hashes for it as well.
func TestScanVerifyOneFile(t *testing.T) {
	root := flawedProject(t, 2)
	file := filepath.Join(root, "src", "f01.c")
	brain := &verifierBrain{}
	srv := newChatServer(t, brain.answer)
	out := t.TempDir()
	code, _, stderr := runCLI(t, "scan", file, "--out", out, "--verify", "--llm-base-url", srv.url, "--llm-model", "m")
	if code != exitFindings {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	rep := readReport(t, out)
	if len(rep.Issues) != 1 || rep.Issues[0].Verification == nil || rep.Issues[0].Verification.Verdict != "confirmed" {
		t.Fatalf("issues: %+v", rep.Issues)
	}
	// The agent's read_code of the flagged line found it.
	if got := toolResults(srv); !strings.Contains(got, "gets(b)") {
		t.Fatalf("the agent did not read the file: %s", got)
	}
	sarifLog, _ := os.ReadFile(filepath.Join(out, "report.sarif"))
	if !strings.Contains(string(sarifLog), "primaryLocationLineHash") {
		t.Fatal("report.sarif has no line hash for a one-file scan")
	}
}

// TestKillAndResume runs the real binary as a subprocess, kills it with
// SIGKILL while candidates are in flight, and runs it again: no candidate
// that finished before the kill is asked again, and the final report is
// complete.
func TestKillAndResume(t *testing.T) {
	if testing.Short() {
		t.Skip("subprocess test")
	}
	root := flawedProject(t, 16)
	brain := &verifierBrain{latency: 40 * time.Millisecond}
	srv := newChatServer(t, brain.answer)
	out := t.TempDir()
	args := []string{"scan", root, "--out", out, "--verify", "--llm-base-url", srv.url, "--llm-model", "m", "--jobs", "2", "--fail-on", "never", "-q"}
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), "JSEC_TEST_EXEC=1")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	journal := filepath.Join(out, "progress.jsonl")
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) && countLines(journal) < 5 {
		time.Sleep(5 * time.Millisecond)
	}
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
	finished := journalIDs(t, journal)
	if len(finished) < 5 || len(finished) >= 16 {
		t.Fatalf("%d candidates finished before the kill; want some but not all", len(finished))
	}
	before := brain.count()
	code, _, stderr := runCLI(t, args...)
	if code != 0 {
		t.Fatalf("rerun: exit %d %s", code, stderr)
	}
	after := brain.count()
	for id := range finished {
		if after[id] != before[id] {
			t.Errorf("candidate %s finished before the kill and was asked again", id)
		}
	}
	rep := readReport(t, out)
	for _, is := range rep.Issues {
		if is.Verification == nil || is.Verification.Verdict != "confirmed" {
			t.Fatalf("incomplete report: %s %+v", is.ID, is.Verification)
		}
	}
	if rep.Summary.Verification.Resumed != len(finished) || len(rep.Issues) != 16 {
		t.Fatalf("resumed %d of %d", rep.Summary.Verification.Resumed, len(finished))
	}
}

func countLines(path string) int {
	data, _ := os.ReadFile(path)
	return strings.Count(string(data), "\n")
}

func journalIDs(t *testing.T, path string) map[string]bool {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	ids := map[string]bool{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var r struct{ ID, Status string }
		if json.Unmarshal(sc.Bytes(), &r) == nil && r.Status == "verdict" {
			ids[r.ID] = true
		}
	}
	return ids
}

func TestVerifyConfigurationErrors(t *testing.T) {
	t.Setenv("JSEC_LLM_MODEL", "")
	t.Setenv("JSEC_LLM_BASE_URL", "")
	root := flawedProject(t, 1)
	scan := []string{"scan", root, "--verify", "--out", t.TempDir()}
	for _, c := range []struct {
		args []string
		want string // in the message
	}{
		{scan, "--llm-model"},
		{append(scan, "--llm-model", "m", "--verify-min-severity", "huge"), "--verify-min-severity"},
		{append(scan, "--llm-model", "m", "--max-turns", "0"), "--max-turns"},
		{append(scan, "--llm-model", "m", "--max-candidates", "-1"), "--max-candidates"},
		{append(scan, "--llm-model", "m", "--max-tokens", "-5"), "--max-tokens"},
		{append(scan, "--llm-model", "m", "--candidate-timeout", "0"), "--candidate-timeout"},
		{append(scan, "--llm-model", "m", "--llm-base-url", "ftp://models.example/v1"), "--llm-base-url"},
		{append(scan, "--llm-model", "m", "--llm-base-url", "localhost:11434"), "--llm-base-url"},
		{[]string{"ask", "--root", root, "--llm-model", "m", "--llm-base-url", "localhost:11434", "why?"}, "--llm-base-url"},
	} {
		if code, _, stderr := runCLI(t, c.args...); code != exitUsage || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d: %s", c.args, code, stderr)
		}
	}
}
