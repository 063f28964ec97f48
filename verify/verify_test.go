package verify_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jsec/jsec/agent/llm"
	"github.com/jsec/jsec/agent/llm/openai"
	"github.com/jsec/jsec/issue"
	"github.com/jsec/jsec/verify"
)

// project writes n C files, each with a flagged gets() on line 4, and
// returns the root and one issue per file.
func project(t *testing.T, n int) (string, []issue.Issue) {
	root := t.TempDir()
	var is []issue.Issue
	for i := range n {
		name := fmt.Sprintf("src/f%02d.c", i)
		os.MkdirAll(filepath.Join(root, "src"), 0o755)
		src := fmt.Sprintf("#include <stdio.h>\nvoid f%d(void) {\n\tchar b[8];\n\tgets(b); /* %d */\n}\n", i, i)
		os.WriteFile(filepath.Join(root, name), []byte(src), 0o644)
		is = append(is, issue.Issue{
			ID: fmt.Sprintf("%x%015d", i%16, i), Rule: "c.buffer.gets", Title: "Use of gets", Language: "c", Category: "buffer_overflow",
			CWE: "CWE-242", File: name, Line: 4, Severity: issue.SeverityCritical, Confidence: 0.95,
			Evidence: fmt.Sprintf("gets(b); /* %d */", i), Description: "gets is unbounded",
		})
	}
	return root, is
}

func model(t *testing.T, url string, timeout time.Duration) llm.Model {
	m, err := openai.New(llm.Config{BaseURL: url, Model: "verifier-test"})
	if err != nil {
		t.Fatal(err)
	}
	return llm.Retry(m, llm.RetryPolicy{MaxAttempts: 3, Timeout: timeout, Sleep: func(ctx context.Context, d time.Duration) error { return ctx.Err() }})
}

func options(t *testing.T, root, url string) verify.Options {
	return verify.Options{Root: root, Journal: filepath.Join(t.TempDir(), "progress.jsonl"), Model: model(t, url, 5*time.Second), Jobs: 6, MaskSecrets: true}
}

func TestEveryCandidateGetsItsOwnVerdict(t *testing.T) {
	root, issues := project(t, 40)
	srv := newVerifierServer(t)
	srv.latency = 15 * time.Millisecond
	o := options(t, root, srv.url)
	stats, err := verify.Run(context.Background(), issues, o)
	if err != nil {
		t.Fatal(err)
	}
	for _, is := range issues {
		v := is.Verification
		if v == nil || string(v.Verdict) != expectedVerdict(is.ID) || !strings.Contains(v.Reason, "candidate "+is.ID+" checked at "+is.File) {
			t.Fatalf("%s got %+v", is.ID, v)
		}
		if v.Turns != 2 || v.Tokens != 480 || v.Model != "verifier-test" {
			t.Fatalf("%s: turns %d tokens %d model %q", is.ID, v.Turns, v.Tokens, v.Model)
		}
		if v.Dismissed != (v.Verdict == issue.VerdictFalsePositive) {
			t.Fatalf("%s: dismissed=%v for %s", is.ID, v.Dismissed, v.Verdict)
		}
	}
	if got := srv.maxInFlight.Load(); got > int64(o.Jobs) || got < 2 {
		t.Fatalf("max concurrent requests %d with --jobs %d", got, o.Jobs)
	}
	if stats.Confirmed+stats.FalsePos != 40 || stats.Errors != 0 || stats.Tokens != 40*480 {
		t.Fatalf("stats %+v", stats)
	}
	// The journal holds one complete record per candidate.
	data, _ := os.ReadFile(o.Journal)
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	if len(lines) != 40 {
		t.Fatalf("journal has %d lines", len(lines))
	}
	var rec verify.Record
	if err := json.Unmarshal([]byte(lines[0]), &rec); err != nil || rec.Fingerprint == "" || rec.Status != "verdict" || rec.Prompt != verify.PromptVersion {
		t.Fatalf("record %+v %v", rec, err)
	}
}

func TestFaultsEndInAVerdictOrAnError(t *testing.T) {
	root, issues := project(t, 12)
	srv := newVerifierServer(t)
	faults := map[int]string{0: "429", 1: "500", 2: "malformed", 3: "hang", 4: "always500", 5: "noverdict", 6: "badverdict"}
	kind := map[string]string{}
	for i, f := range faults {
		kind[issues[i].ID] = f
	}
	var mu sync.Mutex
	hangs := map[string]int{}
	srv.fault = func(w http.ResponseWriter, id string, attempt int, msgs []map[string]any) bool {
		switch kind[id] {
		case "429":
			if attempt == 1 {
				w.Header().Set("Retry-After", "0")
				http.Error(w, `{"error":{"message":"slow down"}}`, 429)
				return true
			}
		case "500":
			if attempt <= 2 {
				http.Error(w, `{"error":{"message":"boom"}}`, 500)
				return true
			}
		case "always500":
			http.Error(w, `{"error":{"message":"down"}}`, 500)
			return true
		case "malformed":
			if last := msgs[len(msgs)-1]; last["tool_call_id"] == "c1" && attempt == 2 {
				reply(w, "", call("c2", "submit_verdict", map[string]any{"verdict": "definitely", "confidence": 7, "reason": ""}))
				return true
			}
		case "hang":
			mu.Lock()
			hangs[id]++
			mu.Unlock()
			time.Sleep(3 * time.Second)
			return false
		case "noverdict":
			reply(w, "I think it is fine.", nil)
			return true
		case "badverdict":
			if last := msgs[len(msgs)-1]; last["role"] == "tool" {
				w.Header().Set("Content-Type", "application/json")
				reply(w, "", map[string]any{"id": fmt.Sprintf("bad%d", attempt), "type": "function", "function": map[string]any{"name": "submit_verdict", "arguments": `{"verdict": "confirmed", "confidence": `}})
				return true
			}
		}
		return false
	}
	o := options(t, root, srv.url)
	o.Model = model(t, srv.url, 500*time.Millisecond)
	o.CandidateTimeout = 2 * time.Second
	o.MaxTurns = 5
	stats, err := verify.Run(context.Background(), issues, o)
	if err != nil {
		t.Fatal(err)
	}
	for i, is := range issues {
		v := is.Verification
		if v == nil || v.Verdict == issue.VerdictUnverified {
			t.Fatalf("%d (%s): no outcome: %+v", i, kind[is.ID], v)
		}
		switch kind[is.ID] {
		case "hang", "always500", "noverdict", "badverdict":
			if v.Verdict != issue.VerdictError || v.Reason == "" {
				t.Errorf("%s: want an error with a reason, got %+v", kind[is.ID], v)
			}
		default:
			if string(v.Verdict) != expectedVerdict(is.ID) {
				t.Errorf("%d (%s): verdict %s reason %s", i, kind[is.ID], v.Verdict, v.Reason)
			}
		}
	}
	if stats.Errors != 4 || stats.Confirmed+stats.FalsePos != 8 {
		t.Fatalf("stats %+v", stats)
	}
	if !strings.Contains(issues[2].Verification.Reason, "checked") {
		t.Fatalf("a malformed verdict was not repaired: %+v", issues[2].Verification)
	}
}

func TestResumeSkipsFinishedCandidates(t *testing.T) {
	root, issues := project(t, 10)
	srv := newVerifierServer(t)
	o := options(t, root, srv.url)
	o.Jobs = 2
	ctx, cancel := context.WithCancel(context.Background())
	done := 0
	o.Progress = func(s verify.Stats) {
		if done = s.Done; done == 4 {
			cancel()
		}
	}
	if _, err := verify.Run(ctx, issues, o); err == nil {
		t.Fatal("cancelled run returned no error")
	}
	data, _ := os.ReadFile(o.Journal)
	finished := strings.Count(string(data), "\n")
	if finished < 4 {
		t.Fatalf("journal holds %d records", finished)
	}
	// A crash mid-write leaves a torn line: it must be ignored, not fatal.
	f, _ := os.OpenFile(o.Journal, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(`{"id":"torn","fingerprint":"abc","sta`)
	f.Close()
	before := map[string]int{}
	for _, is := range issues {
		before[is.ID] = srv.count(is.ID)
	}
	fresh, _ := project(t, 0)
	_ = fresh
	for i := range issues {
		issues[i].Verification = nil
	}
	o.Progress = nil
	stats, err := verify.Run(context.Background(), issues, o)
	if err != nil {
		t.Fatal(err)
	}
	if stats.Resumed != finished || stats.Done != 10 {
		t.Fatalf("resumed %d of %d finished; stats %+v", stats.Resumed, finished, stats)
	}
	asked := 0
	for _, is := range issues {
		if srv.count(is.ID) > before[is.ID] {
			asked++
		}
		if is.Verification == nil || string(is.Verification.Verdict) != expectedVerdict(is.ID) {
			t.Fatalf("%s: %+v", is.ID, is.Verification)
		}
	}
	if asked != 10-finished {
		t.Fatalf("%d candidates asked again, want %d", asked, 10-finished)
	}
	data, _ = os.ReadFile(o.Journal)
	if strings.Contains(string(data), "torn") || strings.Count(string(data), "\n") != 10 {
		t.Fatalf("journal after resume:\n%s", data)
	}
	// A changed file invalidates its verdict; --fresh asks everything again.
	os.WriteFile(filepath.Join(root, issues[0].File), []byte("#include <stdio.h>\nvoid g(void) {\n\tchar b[8];\n\tgets(b); /* changed */\n}\n"), 0o644)
	stats, _ = verify.Run(context.Background(), issues, o)
	if stats.Resumed != 9 {
		t.Fatalf("after a file change: resumed %d, want 9", stats.Resumed)
	}
	o.Fresh = true
	if stats, _ = verify.Run(context.Background(), issues, o); stats.Resumed != 0 {
		t.Fatalf("--fresh resumed %d", stats.Resumed)
	}
}

func TestReadsNeverLeaveTheRoot(t *testing.T) {
	root, issues := project(t, 3)
	outside := t.TempDir()
	secret := "ROOT-PASSWORD-HASH-XYZZY"
	os.WriteFile(filepath.Join(outside, "passwd"), []byte(secret+"\n"), 0o644)
	os.Symlink(filepath.Join(outside, "passwd"), filepath.Join(root, "src", "link.c"))
	srv := newVerifierServer(t)
	paths := []string{"../../../../../../etc/passwd", "/etc/passwd", "src/link.c", "src/../../" + filepath.Base(outside) + "/passwd"}
	srv.fault = func(w http.ResponseWriter, id string, attempt int, msgs []map[string]any) bool {
		if attempt <= len(paths) {
			reply(w, "", call(fmt.Sprintf("x%d", attempt), "read_code", map[string]any{"path": paths[attempt-1]}))
			return true
		}
		if attempt == len(paths)+1 {
			reply(w, "", call("c1", "list_files", map[string]any{"path": "../.."}))
			return true
		}
		reply(w, "", call("c2", "submit_verdict", map[string]any{"verdict": "uncertain", "confidence": 0.1, "reason": "could not read"}))
		return true
	}
	if _, err := verify.Run(context.Background(), issues, options(t, root, srv.url)); err != nil {
		t.Fatal(err)
	}
	for _, b := range srv.bodies {
		if strings.Contains(b, secret) || strings.Contains(b, "root:x:0:0") {
			t.Fatal("a byte from outside the root reached the model")
		}
	}
	if !strings.Contains(strings.Join(srv.bodies, ""), "absolute") || !strings.Contains(strings.Join(srv.bodies, ""), "leaves the project root") {
		t.Fatal("the refusals were not explained to the model")
	}
}

func TestEvidencePolicyAndMasking(t *testing.T) {
	root := t.TempDir()
	os.WriteFile(filepath.Join(root, "cfg.c"), []byte("#include <string.h>\nstatic const char *db_password = \"hunter2-prod-2026\";\nint check(const char *p) { return strcmp(p, db_password); }\n"), 0o644)
	issues := []issue.Issue{
		{ID: "aaaa000000000001", Rule: "c.secrets.hardcoded", Category: "secrets", File: "cfg.c", Line: 2, Severity: issue.SeverityHigh,
			Evidence: `static const char *db_password = "hunter2-prod-2026";`, Language: "c"},
		{ID: "bbbb000000000002", Rule: "c.buffer.strcpy", Category: "buffer_overflow", File: "cfg.c", Line: 3, Severity: issue.SeverityHigh,
			Evidence: `int check(const char *p) { return strcmp(p, db_password); }`, Language: "c"},
	}
	srv := newVerifierServer(t)
	srv.fault = func(w http.ResponseWriter, id string, attempt int, msgs []map[string]any) bool {
		last := msgs[len(msgs)-1]
		if last["role"] != "tool" {
			return false
		}
		args := map[string]any{"verdict": "false_positive", "confidence": 0.9, "reason": "not a real credential"}
		if id == "bbbb000000000002" {
			args["evidence"] = []string{"memcpy(dst, src, 4096);"} // not in the code
			args["verdict"] = "confirmed"
		}
		reply(w, "", call("c2", "submit_verdict", args))
		return true
	}
	o := options(t, root, srv.url)
	o.Policy = func(rule string) bool { return strings.HasPrefix(rule, "c.secrets.") }
	if _, err := verify.Run(context.Background(), issues, o); err != nil {
		t.Fatal(err)
	}
	sec, other := issues[0].Verification, issues[1].Verification
	if sec.Verdict != issue.VerdictFalsePositive || !sec.PolicyKept || sec.Dismissed || !issues[0].Gating() {
		t.Fatalf("policy rule: %+v", sec)
	}
	if other.Verdict != issue.VerdictUncertain || !strings.Contains(other.Reason, "not found verbatim") {
		t.Fatalf("unquoted evidence: %+v", other)
	}
	for _, b := range srv.bodies {
		if strings.Contains(b, "hunter2-prod-2026") {
			t.Fatal("the secret reached the model")
		}
	}
	if !strings.Contains(strings.Join(srv.bodies, ""), "«masked secret»") {
		t.Fatal("no masking marker seen")
	}
}

func TestTokenBudgetLeavesTheRestUnverified(t *testing.T) {
	root, issues := project(t, 8)
	srv := newVerifierServer(t)
	o := options(t, root, srv.url)
	o.Jobs = 1
	// Each candidate takes two calls of 240 tokens: two finish (960), the
	// third is cut off after its first call (1200), the rest never start.
	o.MaxTokens = 1000
	stats, err := verify.Run(context.Background(), issues, o)
	if err != nil {
		t.Fatal(err)
	}
	if stats.Done != 2 || stats.Errors != 0 || stats.Unverified != 6 || stats.Tokens != 1200 {
		t.Fatalf("stats %+v, want 2 done, 0 errors, 6 unverified, 1200 tokens", stats)
	}
	asked := 0
	for _, is := range issues {
		if srv.count(is.ID) > 0 {
			asked++
		}
		if is.Verification.Verdict == issue.VerdictUnverified && !strings.Contains(is.Verification.Reason, "--max-tokens") {
			t.Fatalf("unverified without the reason: %+v", is.Verification)
		}
	}
	if asked != 3 {
		t.Fatalf("%d candidates reached the server, want 3 (the third cut off by the budget)", asked)
	}
	// The candidate cut off is not journaled: a run with a larger budget
	// asks it and the five never started, and nothing else.
	before := map[string]int{}
	for i := range issues {
		before[issues[i].ID] = srv.count(issues[i].ID)
		issues[i].Verification = nil
	}
	o.MaxTokens = 0
	stats, err = verify.Run(context.Background(), issues, o)
	if err != nil {
		t.Fatal(err)
	}
	if stats.Resumed != 2 || stats.Done != 8 || stats.Unverified != 0 || stats.Errors != 0 {
		t.Fatalf("second run: stats %+v", stats)
	}
	again := 0
	for _, is := range issues {
		if srv.count(is.ID) > before[is.ID] {
			again++
		}
	}
	if again != 6 {
		t.Fatalf("second run asked %d candidates, want 6", again)
	}
}

func TestSelection(t *testing.T) {
	root, issues := project(t, 6)
	issues[0].Severity = issue.SeverityLow
	issues[1].Suppressed = &issue.Suppression{Kind: "inSource", Justification: "bounded by caller"}
	issues[2].Baselined = true
	srv := newVerifierServer(t)
	o := options(t, root, srv.url)
	o.MinSeverity = issue.SeverityMedium
	o.MaxCandidates = 2
	stats, err := verify.Run(context.Background(), issues, o)
	if err != nil {
		t.Fatal(err)
	}
	if issues[0].Verification != nil || issues[1].Verification != nil || issues[2].Verification != nil {
		t.Fatal("low, suppressed or baselined issues were verified")
	}
	if stats.Total != 3 || stats.Done != 2 || stats.Unverified != 1 {
		t.Fatalf("stats %+v", stats)
	}
}
