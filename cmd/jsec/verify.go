package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/spf13/pflag"

	"github.com/jsec/jsec/issue"
	"github.com/jsec/jsec/report"
	"github.com/jsec/jsec/rules"
	"github.com/jsec/jsec/verify"
)

// verifyOptions are the --verify flags of 'jsec scan'.
type verifyOptions struct {
	Enabled            bool
	MinSeverity        string
	MaxCandidates      int
	MaxTurns           int
	MaxTokens          int
	CandidateTimeout   time.Duration
	Fresh              bool
	NoMaskSecrets      bool
	AllowPolicyDismiss bool
	LLM                llmOptions
}

func (o *verifyOptions) register(f *pflag.FlagSet) {
	f.BoolVar(&o.Enabled, "verify", false, "verify each finding with an LLM agent (see --llm-* flags); resumes from <out>/progress.jsonl")
	f.StringVar(&o.MinSeverity, "verify-min-severity", "medium", "verify findings of this severity or higher")
	f.IntVar(&o.MaxCandidates, "max-candidates", 500, "verify at most this many findings, most severe and confident first (0: no limit)")
	f.IntVar(&o.MaxTurns, "max-turns", 8, "model calls per finding")
	f.IntVar(&o.MaxTokens, "max-tokens", 0, "token budget of the whole verification; findings left when it runs out are reported unverified (0: no limit)")
	f.DurationVar(&o.CandidateTimeout, "candidate-timeout", 10*time.Minute, "time limit per finding")
	f.BoolVar(&o.Fresh, "fresh", false, "ignore progress.jsonl and verify everything again")
	f.BoolVar(&o.NoMaskSecrets, "no-mask-secrets", false, "send the values found by the secrets rules to the model unmasked")
	f.BoolVar(&o.AllowPolicyDismiss, "allow-policy-dismiss", false, "let the model dismiss findings of policy rules (secrets, weak crypto, insecure randomness)")
	o.LLM.register(f)
}

// runVerify verifies rep's issues in place and records the summary. On
// interruption it returns the context's error with the report holding
// what finished.
func runVerify(ctx context.Context, io streams, o *scanOptions, jobs int, rep *report.Report) error {
	v := &o.Verify
	minSev, err := v.minSeverity()
	if err != nil {
		return err
	}
	if err := os.MkdirAll(o.Out, 0o755); err != nil {
		return fmt.Errorf("create output directory: %w", err)
	}
	bar := newVerifyProgress(io, o.Quiet)
	model, _, err := v.LLM.model(bar.retry)
	if err != nil {
		return err
	}
	proto, err := v.LLM.protocol()
	if err != nil {
		return err
	}
	stats, err := verify.Run(ctx, rep.Issues, verify.Options{
		Root: cmp.Or(sourceDir(o.Root), o.Root), Journal: filepath.Join(o.Out, "progress.jsonl"), Fresh: v.Fresh, Model: model, Protocol: proto,
		Jobs: jobs, MaxTurns: v.MaxTurns, CandidateTimeout: v.CandidateTimeout, MaxTokens: v.MaxTokens,
		MinSeverity: minSev, MaxCandidates: v.MaxCandidates, MaskSecrets: !v.NoMaskSecrets,
		Policy:             func(id string) bool { r := rules.Lookup(id); return r != nil && r.Policy },
		AllowPolicyDismiss: v.AllowPolicyDismiss, Progress: bar.update,
	})
	bar.stop()
	rep.Summary.Verification = &report.VerificationSummary{
		Model: stats.Model, Candidates: stats.Total, Confirmed: stats.Confirmed, FalsePositive: stats.FalsePos,
		Uncertain: stats.Uncertain, Error: stats.Errors, Unverified: stats.Unverified, Resumed: stats.Resumed,
		Tokens: stats.Tokens, DurationMS: stats.Duration.Milliseconds(),
	}
	if stats.BadJournalLines > 0 && !o.Quiet {
		fmt.Fprintf(io.Err, "jsec: %d unreadable lines in progress.jsonl were ignored\n", stats.BadJournalLines)
	}
	if err != nil && !errors.Is(err, context.Canceled) {
		if !strings.HasPrefix(err.Error(), "verify: ") {
			err = fmt.Errorf("verify: %w", err)
		}
		return err
	}
	return err
}

// minSeverity parses --verify-min-severity and checks the numeric flags.
func (v *verifyOptions) minSeverity() (issue.Severity, error) {
	s, err := issue.ParseSeverity(v.MinSeverity)
	switch {
	case err != nil:
		return 0, usagef("--verify-min-severity: %v", err)
	case v.MaxTurns < 1:
		return 0, usagef("--max-turns %d: must be at least 1", v.MaxTurns)
	case v.MaxCandidates < 0:
		return 0, usagef("--max-candidates %d: must be 0 (no limit) or more", v.MaxCandidates)
	case v.MaxTokens < 0:
		return 0, usagef("--max-tokens %d: must be 0 (no limit) or more", v.MaxTokens)
	case v.CandidateTimeout <= 0:
		return 0, usagef("--candidate-timeout %s: must be positive, such as 10m", v.CandidateTimeout)
	}
	return s, nil
}

// check finds the configuration errors of --verify that runVerify would
// meet, before the scan, so that a missing model name or a bad flag fails
// at once rather than after the whole scan. It contacts no server.
func (v *verifyOptions) check() error {
	if _, err := v.minSeverity(); err != nil {
		return err
	}
	if _, _, err := v.LLM.model(nil); err != nil {
		return err
	}
	_, err := v.LLM.protocol()
	return err
}

// verifyProgress draws a progress bar with an ETA on a terminal.
type verifyProgress struct {
	io    streams
	on    bool
	start time.Time
	mu    sync.Mutex
}

func newVerifyProgress(io streams, quiet bool) *verifyProgress {
	return &verifyProgress{io: io, on: io.ErrTTY && !quiet, start: time.Now()}
}

func (p *verifyProgress) update(s verify.Stats) {
	if !p.on {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	total := max(s.Total-s.Unverified, 1)
	const width = 24
	filled := width * s.Done / total
	bar := fmt.Sprintf("[%s%s]", repeat('#', filled), repeat('.', width-filled))
	eta := "--"
	if fresh := s.Done - s.Resumed; fresh > 0 {
		per := time.Since(p.start) / time.Duration(fresh)
		eta = (per * time.Duration(total-s.Done)).Round(time.Second).String()
	}
	fmt.Fprintf(p.io.Err, "\r\033[Kjsec verify %s %d/%d · %d confirmed · %d false positive · %d uncertain · %d error · %d tokens · ETA %s",
		bar, s.Done, total, s.Confirmed, s.FalsePos, s.Uncertain, s.Errors, s.Tokens, eta)
}

func (p *verifyProgress) retry(attempt int, d time.Duration, err error) {
	if !p.on {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	fmt.Fprintf(p.io.Err, "\r\033[Kjsec verify: model call failed (%v); retry %d in %s\n", err, attempt, d.Round(100*time.Millisecond))
}

func (p *verifyProgress) stop() {
	if p.on {
		fmt.Fprint(p.io.Err, "\r\033[K")
	}
}

func repeat(c byte, n int) string {
	b := make([]byte, max(n, 0))
	for i := range b {
		b[i] = c
	}
	return string(b)
}
