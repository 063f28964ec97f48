package main

import (
	"testing"
	"time"
)

// BenchmarkVerifyLatency runs 'jsec scan --verify --jobs 8' through the
// CLI against a verifier server that takes 200 ms per reply, on 64
// findings that each need two replies (read_code, then submit_verdict).
// The ideal is candidates × turns × latency / jobs = 3.2 s; the
// "x-ideal" metric is the measured wall time over it (target < 1.1).
//
//	go test ./cmd/jsec -run '^$' -bench VerifyLatency -benchtime 1x
func BenchmarkVerifyLatency(b *testing.B) {
	const (
		candidates = 64
		turns      = 2
		jobs       = 8
		latency    = 200 * time.Millisecond
	)
	root := flawedProject(b, candidates)
	brain := &verifierBrain{latency: latency}
	srv := newChatServer(b, brain.answer)
	ideal := time.Duration(candidates*turns) * latency / jobs
	var total time.Duration
	for b.Loop() {
		out := b.TempDir()
		start := time.Now()
		code, _, stderr := runCLI(b, "scan", root, "--out", out, "--verify", "--fresh", "--llm-base-url", srv.url, "--llm-model", "m",
			"--jobs", "8", "--fail-on", "never", "-q")
		total += time.Since(start)
		if code != 0 {
			b.Fatalf("exit %d: %s", code, stderr)
		}
	}
	b.ReportMetric(float64(total)/float64(b.N)/float64(ideal), "x-ideal")
	b.ReportMetric(float64(total)/float64(b.N)/1e9, "s/run")
}
