package verify_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// verifierServer is an in-process OpenAI-compatible chat-completions
// server that plays a verifier: it reads the candidate block of the first
// user message, calls read_code on the flagged lines, then submits a
// verdict derived from the candidate, quoting the flagged line. Hooks let
// tests inject faults per candidate.
type verifierServer struct {
	t       *testing.T
	url     string
	latency time.Duration

	inFlight, maxInFlight atomic.Int64
	mu                    sync.Mutex
	requests              map[string]int // candidate id -> requests
	bodies                []string
	// fault, when set, may answer a request itself (return true).
	fault func(w http.ResponseWriter, id string, attempt int, msgs []map[string]any) bool
}

var candidateRE = regexp.MustCompile("(?s)```json\n(.*?)\n```")

// expectedVerdict is what the server decides for a candidate id.
func expectedVerdict(id string) string {
	if strings.ContainsAny(id[:1], "01234567") {
		return "confirmed"
	}
	return "false_positive"
}

func newVerifierServer(t *testing.T) *verifierServer {
	s := &verifierServer{t: t, requests: map[string]int{}}
	ts := httptest.NewServer(s)
	t.Cleanup(ts.Close)
	s.url = ts.URL + "/v1"
	return s
}

func (s *verifierServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	n := s.inFlight.Add(1)
	defer s.inFlight.Add(-1)
	for {
		m := s.maxInFlight.Load()
		if n <= m || s.maxInFlight.CompareAndSwap(m, n) {
			break
		}
	}
	body, _ := io.ReadAll(r.Body)
	var req struct {
		Messages []map[string]any `json:"messages"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		http.Error(w, "bad json", 400)
		return
	}
	var cand struct {
		ID, File string
		Line     int
		Evidence string
	}
	if m := candidateRE.FindStringSubmatch(str(req.Messages[1]["content"])); m != nil {
		json.Unmarshal([]byte(m[1]), &cand)
	}
	s.mu.Lock()
	s.requests[cand.ID]++
	attempt := s.requests[cand.ID]
	s.bodies = append(s.bodies, string(body))
	s.mu.Unlock()
	if s.latency > 0 {
		time.Sleep(s.latency)
	}
	if s.fault != nil && s.fault(w, cand.ID, attempt, req.Messages) {
		return
	}
	last := req.Messages[len(req.Messages)-1]
	switch {
	case last["role"] == "user": // the candidate message: look at the code first
		reply(w, "", call("c1", "read_code", map[string]any{"path": cand.File, "start_line": max(1, cand.Line-2), "end_line": cand.Line + 2}))
	case last["role"] == "tool" && last["tool_call_id"] == "c1":
		quote := ""
		for _, l := range strings.Split(str(last["content"]), "\n") {
			if strings.HasPrefix(strings.TrimSpace(l), fmt.Sprintf("%d: ", cand.Line)) {
				quote = strings.TrimSpace(l[strings.Index(l, ": ")+2:])
			}
		}
		reply(w, "", call("c2", "submit_verdict", map[string]any{
			"verdict": expectedVerdict(cand.ID), "confidence": 0.8, "reason": "candidate " + cand.ID + " checked at " + cand.File,
			"evidence": []string{quote},
		}))
	default:
		reply(w, "done", nil)
	}
}

func str(v any) string {
	s, _ := v.(string)
	return s
}

func call(id, name string, args any) map[string]any {
	b, _ := json.Marshal(args)
	return map[string]any{"id": id, "type": "function", "function": map[string]any{"name": name, "arguments": string(b)}}
}

func reply(w http.ResponseWriter, content string, tc map[string]any) {
	msg := map[string]any{"role": "assistant", "content": content}
	finish := "stop"
	if tc != nil {
		msg["tool_calls"] = []any{tc}
		finish = "tool_calls"
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(map[string]any{
		"id": "x", "object": "chat.completion", "created": 1, "model": "verifier-test",
		"choices": []any{map[string]any{"index": 0, "message": msg, "finish_reason": finish}},
		"usage":   map[string]any{"prompt_tokens": 200, "completion_tokens": 40, "total_tokens": 240},
	})
}

func (s *verifierServer) count(id string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.requests[id]
}
