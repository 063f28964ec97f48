package main

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

// chatServer is an in-process OpenAI-compatible chat-completions server.
// Its brain receives each decoded request body and returns the assistant
// message to send back (content and optional tool calls).
type chatServer struct {
	t     testing.TB
	brain func(req map[string]any) (content string, calls []map[string]any)
	mu    sync.Mutex
	reqs  []map[string]any
	url   string
}

func newChatServer(t testing.TB, brain func(req map[string]any) (string, []map[string]any)) *chatServer {
	s := &chatServer{t: t, brain: brain}
	ts := httptest.NewServer(s)
	t.Cleanup(ts.Close)
	s.url = ts.URL + "/v1"
	return s
}

func (s *chatServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	var req map[string]any
	if err := json.Unmarshal(body, &req); err != nil {
		http.Error(w, "bad json", 400)
		return
	}
	s.mu.Lock()
	s.reqs = append(s.reqs, req)
	s.mu.Unlock()
	content, calls := s.brain(req)
	msg := map[string]any{"role": "assistant", "content": content}
	finish := "stop"
	if len(calls) > 0 {
		msg["tool_calls"] = calls
		finish = "tool_calls"
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(map[string]any{
		"id": "x", "object": "chat.completion", "created": 1, "model": req["model"],
		"choices": []any{map[string]any{"index": 0, "message": msg, "finish_reason": finish}},
		"usage":   map[string]any{"prompt_tokens": 100, "completion_tokens": 20, "total_tokens": 120},
	})
}

func fnCall(id, name string, args any) map[string]any {
	b, _ := json.Marshal(args)
	return map[string]any{"id": id, "type": "function", "function": map[string]any{"name": name, "arguments": string(b)}}
}

// messages returns the request's messages.
func messages(req map[string]any) []map[string]any {
	var out []map[string]any
	for _, m := range req["messages"].([]any) {
		out = append(out, m.(map[string]any))
	}
	return out
}

// toolResults is the text of every tool message the server was sent.
func toolResults(s *chatServer) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var b strings.Builder
	for _, req := range s.reqs {
		for _, m := range messages(req) {
			if m["role"] == "tool" {
				c, _ := m["content"].(string)
				b.WriteString(c)
				b.WriteByte('\n')
			}
		}
	}
	return b.String()
}
