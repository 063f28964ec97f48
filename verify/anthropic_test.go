package verify_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jsec/jsec/agent/llm"
	"github.com/jsec/jsec/agent/llm/anthropic"
	"github.com/jsec/jsec/issue"
	"github.com/jsec/jsec/verify"
)

// anthropicVerifier speaks the Messages API (POST /v1/messages with
// content blocks) and plays the same verifier as verifierServer: read the
// candidate, call read_code, submit a verdict derived from the id.
type anthropicVerifier struct {
	mu                    sync.Mutex
	asked                 map[string]int
	inFlight, maxInFlight atomic.Int64
}

func (s *anthropicVerifier) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	n := s.inFlight.Add(1)
	defer s.inFlight.Add(-1)
	for m := s.maxInFlight.Load(); n > m && !s.maxInFlight.CompareAndSwap(m, n); m = s.maxInFlight.Load() {
	}
	if r.URL.Path != "/v1/messages" || r.Header.Get("x-api-key") != "ak-test" {
		http.Error(w, `{"type":"error","error":{"type":"authentication_error","message":"bad"}}`, 401)
		return
	}
	body, _ := io.ReadAll(r.Body)
	var req struct {
		Messages []struct {
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
		Tools []struct {
			Name string `json:"name"`
		} `json:"tools"`
	}
	json.Unmarshal(body, &req)
	text := func(raw json.RawMessage) string {
		var s string
		if json.Unmarshal(raw, &s) == nil {
			return s
		}
		var blocks []map[string]any
		json.Unmarshal(raw, &blocks)
		var b strings.Builder
		for _, bl := range blocks {
			if t, ok := bl["text"].(string); ok {
				b.WriteString(t)
			}
			if c, ok := bl["content"].(string); ok {
				b.WriteString(c)
			}
			if cs, ok := bl["content"].([]any); ok {
				for _, c := range cs {
					if m, ok := c.(map[string]any); ok {
						b.WriteString(fmt.Sprint(m["text"]))
					}
				}
			}
		}
		return b.String()
	}
	var c struct {
		ID, File string
		Line     int
	}
	if m := candidateRE.FindStringSubmatch(text(req.Messages[0].Content)); m != nil {
		json.Unmarshal([]byte(m[1]), &c)
	}
	s.mu.Lock()
	s.asked[c.ID]++
	s.mu.Unlock()
	time.Sleep(10 * time.Millisecond)
	var block map[string]any
	if len(req.Messages) == 1 {
		block = map[string]any{"type": "tool_use", "id": "tu_read", "name": "read_code", "input": map[string]any{"path": c.File, "start_line": c.Line, "end_line": c.Line}}
	} else {
		last := text(req.Messages[len(req.Messages)-1].Content)
		quote := strings.TrimSpace(last[strings.Index(last, ": ")+2:])
		block = map[string]any{"type": "tool_use", "id": "tu_verdict", "name": "submit_verdict", "input": map[string]any{
			"verdict": expectedVerdict(c.ID), "confidence": 0.7, "reason": "anthropic checked " + c.ID, "evidence": []string{quote}}}
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(map[string]any{
		"id": "msg_1", "type": "message", "role": "assistant", "model": "claude-test",
		"content": []any{block}, "stop_reason": "tool_use",
		"usage": map[string]any{"input_tokens": 300, "output_tokens": 50},
	})
}

func TestVerifyOverTheAnthropicWire(t *testing.T) {
	root, issues := project(t, 12)
	srv := &anthropicVerifier{asked: map[string]int{}}
	ts := httptest.NewServer(srv)
	defer ts.Close()
	m, err := anthropic.New(llm.Config{Provider: "anthropic", BaseURL: ts.URL, Model: "claude-test", APIKey: "ak-test", HTTPClient: ts.Client()})
	if err != nil {
		t.Fatal(err)
	}
	o := options(t, root, ts.URL)
	o.Model = llm.Retry(m, llm.RetryPolicy{MaxAttempts: 2})
	o.Jobs = 4
	stats, err := verify.Run(context.Background(), issues, o)
	if err != nil {
		t.Fatal(err)
	}
	for _, is := range issues {
		v := is.Verification
		if v == nil || string(v.Verdict) != expectedVerdict(is.ID) || !strings.Contains(v.Reason, "anthropic checked "+is.ID) || v.Verdict == issue.VerdictUncertain {
			t.Fatalf("%s: %+v", is.ID, v)
		}
		if srv.asked[is.ID] != 2 {
			t.Fatalf("%s asked %d times", is.ID, srv.asked[is.ID])
		}
	}
	if stats.Tokens != 12*700 || srv.maxInFlight.Load() > 4 {
		t.Fatalf("tokens %d, max in flight %d", stats.Tokens, srv.maxInFlight.Load())
	}
}
