package llm

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

type flaky struct {
	mu    sync.Mutex
	errs  []error
	calls int
	hang  bool
}

func (f *flaky) Name() string { return "flaky" }

func (f *flaky) Generate(ctx context.Context, req *Request) (*Response, error) {
	f.mu.Lock()
	f.calls++
	var err error
	if len(f.errs) > 0 {
		err, f.errs = f.errs[0], f.errs[1:]
	}
	hang := f.hang && err == nil && f.calls == 1
	f.mu.Unlock()
	if hang {
		<-ctx.Done()
		return nil, ctx.Err()
	}
	if err != nil {
		return nil, err
	}
	return &Response{Message: Message{Role: RoleAssistant, Content: "ok"}, Usage: Usage{3, 4}}, nil
}

func retryable(after time.Duration) error {
	return &ProviderError{Provider: "p", Kind: KindRetryable, Status: 429, RetryAfter: after}
}

func TestRetryBackoffAndRetryAfter(t *testing.T) {
	var slept []time.Duration
	sleep := func(ctx context.Context, d time.Duration) error { slept = append(slept, d); return ctx.Err() }
	f := &flaky{errs: []error{retryable(3 * time.Second), retryable(0), &ProviderError{Kind: KindRetryable, Status: 503}}}
	m := Retry(f, RetryPolicy{MaxAttempts: 5, BaseDelay: 100 * time.Millisecond, MaxDelay: time.Second, Sleep: sleep})
	resp, err := m.Generate(context.Background(), &Request{})
	if err != nil || resp.Message.Content != "ok" || f.calls != 4 {
		t.Fatalf("resp %v err %v calls %d", resp, err, f.calls)
	}
	if len(slept) != 3 || slept[0] != 3*time.Second {
		t.Fatalf("slept %v; the first wait must honour Retry-After", slept)
	}
	if slept[1] <= 0 || slept[1] > 200*time.Millisecond || slept[2] <= 0 || slept[2] > 400*time.Millisecond {
		t.Fatalf("backoff out of bounds: %v", slept)
	}
}

func TestRetryGivesUp(t *testing.T) {
	noSleep := func(ctx context.Context, d time.Duration) error { return nil }
	f := &flaky{errs: []error{retryable(0), retryable(0), retryable(0), retryable(0)}}
	_, err := Retry(f, RetryPolicy{MaxAttempts: 3, Sleep: noSleep}).Generate(context.Background(), &Request{})
	if !IsRetryable(err) || f.calls != 3 {
		t.Fatalf("err %v calls %d", err, f.calls)
	}
	f = &flaky{errs: []error{&ProviderError{Kind: KindAuth, Status: 401}}}
	_, err = Retry(f, RetryPolicy{Sleep: noSleep}).Generate(context.Background(), &Request{})
	if !IsAuth(err) || f.calls != 1 {
		t.Fatalf("auth retried: %v %d", err, f.calls)
	}
	f = &flaky{errs: []error{retryable(10 * time.Minute)}}
	_, err = Retry(f, RetryPolicy{Sleep: noSleep}).Generate(context.Background(), &Request{})
	if !IsRetryable(err) || f.calls != 1 {
		t.Fatalf("a 10-minute Retry-After must fail fast: %v %d", err, f.calls)
	}
}

func TestRetryTimeoutAndCancel(t *testing.T) {
	noSleep := func(ctx context.Context, d time.Duration) error { return nil }
	f := &flaky{hang: true}
	resp, err := Retry(f, RetryPolicy{Timeout: 20 * time.Millisecond, Sleep: noSleep}).Generate(context.Background(), &Request{})
	if err != nil || resp == nil || f.calls != 2 {
		t.Fatalf("a hung attempt must time out and be retried: %v calls=%d", err, f.calls)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	f = &flaky{errs: []error{retryable(0)}}
	if _, err := Retry(f, RetryPolicy{}).Generate(ctx, &Request{}); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancel: %v", err)
	}
	// Cancellation during the backoff sleep ends the call.
	ctx, cancel = context.WithCancel(context.Background())
	f = &flaky{errs: []error{retryable(time.Second)}}
	go func() { time.Sleep(10 * time.Millisecond); cancel() }()
	start := time.Now()
	if _, err := Retry(f, RetryPolicy{}).Generate(ctx, &Request{}); !errors.Is(err, context.Canceled) || time.Since(start) > 500*time.Millisecond {
		t.Fatalf("sleep not cancelled: %v after %v", err, time.Since(start))
	}
}

func TestParseRetryAfter(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	h := http.Header{}
	if ParseRetryAfter(h, now) != 0 {
		t.Fatal("empty header")
	}
	h.Set("Retry-After", "2")
	if ParseRetryAfter(h, now) != 2*time.Second {
		t.Fatal("seconds")
	}
	h.Set("Retry-After", now.Add(90*time.Second).Format(http.TimeFormat))
	if d := ParseRetryAfter(h, now); d != 90*time.Second {
		t.Fatalf("date: %v", d)
	}
	h.Set("Retry-After-Ms", "250")
	if ParseRetryAfter(h, now) != 250*time.Millisecond {
		t.Fatal("ms header")
	}
}

func TestClassifyStatus(t *testing.T) {
	for _, c := range []struct {
		status int
		msg    string
		want   ErrorKind
	}{
		{429, "", KindRetryable}, {500, "", KindRetryable}, {503, "", KindRetryable}, {401, "", KindAuth}, {403, "", KindAuth},
		{400, "This model's maximum context length is 8192 tokens", KindContextTooLarge},
		{400, `{"error":{"code":"context_length_exceeded"}}`, KindContextTooLarge},
		{413, "", KindContextTooLarge}, {400, "prompt is too long: 210000 tokens", KindContextTooLarge},
		{400, "bad field", KindBadRequest}, {404, "model not found", KindBadRequest}, {302, "", KindOther},
	} {
		if got := ClassifyStatus(c.status, c.msg); got != c.want {
			t.Errorf("%d %q: %v, want %v", c.status, c.msg, got, c.want)
		}
	}
	err := &ProviderError{Provider: "openai", Kind: KindAuth, Status: 401, Message: "bad key"}
	if !strings.Contains(err.Error(), "HTTP 401") || !strings.Contains(err.Error(), "bad key") {
		t.Fatal(err.Error())
	}
}

func TestConfigFromEnvAndRegistry(t *testing.T) {
	env := map[string]string{"JSEC_LLM_BASE_URL": "http://localhost:11434/v1", "JSEC_LLM_MODEL": "qwen", "OPENAI_API_KEY": "sk-secret"}
	c := ConfigFromEnv(Config{}, func(k string) string { return env[k] })
	if c.Provider != "openai" || c.BaseURL != env["JSEC_LLM_BASE_URL"] || c.Model != "qwen" || c.APIKey != "sk-secret" {
		t.Fatalf("%+v", c)
	}
	if strings.Contains(c.String(), "sk-secret") || fmtV(c) == "" {
		t.Fatal("the key leaks through String")
	}
	env["JSEC_LLM_API_KEY"] = "jsec-key"
	if c := ConfigFromEnv(Config{}, func(k string) string { return env[k] }); c.APIKey != "jsec-key" {
		t.Fatal("JSEC_LLM_API_KEY must win")
	}
	if c := ConfigFromEnv(Config{Provider: "anthropic"}, func(k string) string {
		return map[string]string{"ANTHROPIC_API_KEY": "ak", "OPENAI_API_KEY": "ok"}[k]
	}); c.APIKey != "ak" {
		t.Fatal("anthropic key")
	}
	r := NewRegistry()
	r.Register("openai", func(c Config) (Model, error) { return &flaky{}, nil })
	if _, err := r.New(Config{Provider: "nope", Model: "m"}); !errors.Is(err, ErrConfig) || !strings.Contains(err.Error(), "openai") {
		t.Fatalf("unknown provider: %v", err)
	}
	if _, err := r.New(Config{Provider: "openai"}); !errors.Is(err, ErrConfig) {
		t.Fatalf("missing model: %v", err)
	}
	if m, err := r.New(Config{Provider: "openai", Model: "m"}); err != nil || m.Name() != "flaky" {
		t.Fatalf("%v %v", m, err)
	}
}

func fmtV(c Config) string { return c.String() }

func TestMeter(t *testing.T) {
	m := NewMeter(&flaky{})
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() { defer wg.Done(); m.Generate(context.Background(), &Request{}) }()
	}
	wg.Wait()
	calls, u := m.Totals()
	if calls != 8 || u.InputTokens != 24 || u.OutputTokens != 32 || u.Total() != 56 {
		t.Fatalf("calls %d usage %+v", calls, u)
	}
}
