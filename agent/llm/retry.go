package llm

import (
	"context"
	"errors"
	"math/rand/v2"
	"net/http"
	"strconv"
	"time"
)

// RetryPolicy bounds retries of retryable failures.
type RetryPolicy struct {
	// MaxAttempts counts the first try (default 5).
	MaxAttempts int
	// BaseDelay is the first backoff (default 1s); it doubles each
	// attempt up to MaxDelay (default 30s), with full jitter.
	BaseDelay, MaxDelay time.Duration
	// MaxRetryAfter caps a server's Retry-After (default 60s): a server
	// asking for longer gets the error instead of a hung run.
	MaxRetryAfter time.Duration
	// Timeout bounds each attempt (0: none beyond ctx). An attempt that
	// times out is retried; the caller's own deadline is not.
	Timeout time.Duration
	// Sleep waits between attempts; tests replace it. It must return
	// early with ctx's error when ctx ends.
	Sleep func(ctx context.Context, d time.Duration) error
	// OnRetry, when set, is told about each retry (for progress output).
	OnRetry func(attempt int, delay time.Duration, err error)
}

func (p RetryPolicy) withDefaults() RetryPolicy {
	if p.MaxAttempts <= 0 {
		p.MaxAttempts = 5
	}
	if p.BaseDelay <= 0 {
		p.BaseDelay = time.Second
	}
	if p.MaxDelay <= 0 {
		p.MaxDelay = 30 * time.Second
	}
	if p.MaxRetryAfter <= 0 {
		p.MaxRetryAfter = 60 * time.Second
	}
	if p.Sleep == nil {
		p.Sleep = sleepCtx
	}
	return p
}

func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Retry wraps m so that retryable failures are retried with exponential
// backoff and full jitter, honouring Retry-After, within the policy's
// bounds; each attempt may have its own timeout.
func Retry(m Model, p RetryPolicy) Model { return &retrying{m: m, p: p.withDefaults()} }

type retrying struct {
	m Model
	p RetryPolicy
}

func (r *retrying) Name() string { return r.m.Name() }

func (r *retrying) Generate(ctx context.Context, req *Request) (*Response, error) {
	var err error
	for attempt := 1; ; attempt++ {
		var resp *Response
		resp, err = r.attempt(ctx, req)
		if err == nil {
			return resp, nil
		}
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if !IsRetryable(err) || attempt >= r.p.MaxAttempts {
			return nil, err
		}
		delay := r.delay(attempt, err)
		if delay < 0 {
			return nil, err // the server asked for longer than we wait
		}
		if r.p.OnRetry != nil {
			r.p.OnRetry(attempt, delay, err)
		}
		if serr := r.p.Sleep(ctx, delay); serr != nil {
			return nil, serr
		}
	}
}

func (r *retrying) attempt(ctx context.Context, req *Request) (*Response, error) {
	if r.p.Timeout <= 0 {
		return r.m.Generate(ctx, req)
	}
	actx, cancel := context.WithTimeout(ctx, r.p.Timeout)
	defer cancel()
	resp, err := r.m.Generate(actx, req)
	if err != nil && ctx.Err() == nil && (errors.Is(err, context.DeadlineExceeded) || actx.Err() != nil) {
		return nil, &ProviderError{Provider: r.m.Name(), Kind: KindRetryable, Message: "request timed out after " + r.p.Timeout.String(), Err: err}
	}
	return resp, err
}

// delay returns the wait before the next attempt, or -1 when the server's
// Retry-After exceeds MaxRetryAfter.
func (r *retrying) delay(attempt int, err error) time.Duration {
	var pe *ProviderError
	if errors.As(err, &pe) && pe.RetryAfter > 0 {
		if pe.RetryAfter > r.p.MaxRetryAfter {
			return -1
		}
		return pe.RetryAfter
	}
	backoff := r.p.BaseDelay << (attempt - 1)
	if backoff > r.p.MaxDelay || backoff <= 0 {
		backoff = r.p.MaxDelay
	}
	return time.Duration(rand.Int64N(int64(backoff)) + 1) // full jitter
}

// ParseRetryAfter reads a Retry-After (seconds or HTTP date) or the
// retry-after-ms header some OpenAI-compatible servers send.
func ParseRetryAfter(h http.Header, now time.Time) time.Duration {
	if ms := h.Get("Retry-After-Ms"); ms != "" {
		if v, err := strconv.ParseFloat(ms, 64); err == nil && v >= 0 {
			return time.Duration(v * float64(time.Millisecond))
		}
	}
	v := h.Get("Retry-After")
	if v == "" {
		return 0
	}
	if secs, err := strconv.ParseFloat(v, 64); err == nil && secs >= 0 {
		return time.Duration(secs * float64(time.Second))
	}
	if t, err := http.ParseTime(v); err == nil {
		if d := t.Sub(now); d > 0 {
			return d
		}
	}
	return 0
}
