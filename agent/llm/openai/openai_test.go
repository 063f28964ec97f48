package openai

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jsec/jsec/agent"
	"github.com/jsec/jsec/agent/llm"
	"github.com/jsec/jsec/agent/tool"
)

// server is an in-process OpenAI chat-completions endpoint that replays
// scripted HTTP replies and records the request bodies.
type server struct {
	t       *testing.T
	mu      sync.Mutex
	replies []func(w http.ResponseWriter, r *http.Request)
	bodies  []map[string]any
	headers []http.Header
}

func (s *server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != "/v1/chat/completions" || r.Method != http.MethodPost {
		s.t.Errorf("unexpected %s %s", r.Method, r.URL.Path)
		http.NotFound(w, r)
		return
	}
	body, _ := io.ReadAll(r.Body)
	var m map[string]any
	if err := json.Unmarshal(body, &m); err != nil {
		s.t.Errorf("request body is not JSON: %v", err)
	}
	s.mu.Lock()
	s.bodies = append(s.bodies, m)
	s.headers = append(s.headers, r.Header.Clone())
	var reply func(http.ResponseWriter, *http.Request)
	if len(s.replies) > 0 {
		reply, s.replies = s.replies[0], s.replies[1:]
	}
	s.mu.Unlock()
	if reply == nil {
		s.t.Error("more requests than scripted replies")
		http.Error(w, "no script", 500)
		return
	}
	reply(w, r)
}

func completion(content string, calls ...map[string]any) func(http.ResponseWriter, *http.Request) {
	return func(w http.ResponseWriter, r *http.Request) {
		msg := map[string]any{"role": "assistant", "content": content}
		finish := "stop"
		if len(calls) > 0 {
			msg["tool_calls"] = calls
			finish = "tool_calls"
			if content == "" {
				msg["content"] = nil
			}
		}
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]any{
			"id": "chatcmpl-1", "object": "chat.completion", "created": 1, "model": "test-model",
			"choices": []any{map[string]any{"index": 0, "message": msg, "finish_reason": finish}},
			"usage":   map[string]any{"prompt_tokens": 120, "completion_tokens": 30, "total_tokens": 150},
		})
	}
}

func toolCall(id, name, args string) map[string]any {
	return map[string]any{"id": id, "type": "function", "function": map[string]any{"name": name, "arguments": args}}
}

func status(code int, body string, header ...string) func(http.ResponseWriter, *http.Request) {
	return func(w http.ResponseWriter, r *http.Request) {
		for i := 0; i+1 < len(header); i += 2 {
			w.Header().Set(header[i], header[i+1])
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(code)
		io.WriteString(w, body)
	}
}

func start(t *testing.T, replies ...func(http.ResponseWriter, *http.Request)) (*server, llm.Config) {
	s := &server{t: t, replies: replies}
	ts := httptest.NewServer(s)
	t.Cleanup(ts.Close)
	return s, llm.Config{Provider: "openai", BaseURL: ts.URL + "/v1", Model: "test-model", APIKey: "sk-test-secret", HTTPClient: ts.Client()}
}

func model(t *testing.T, c llm.Config, slept *[]time.Duration) llm.Model {
	m, err := New(c)
	if err != nil {
		t.Fatal(err)
	}
	return llm.Retry(m, llm.RetryPolicy{MaxAttempts: 4, Timeout: c.Timeout, Sleep: func(ctx context.Context, d time.Duration) error {
		if slept != nil {
			*slept = append(*slept, d)
		}
		return nil
	}})
}

type readIn struct {
	Path      string `json:"path" desc:"file path"`
	StartLine int    `json:"start_line,omitempty"`
}

func readTool() tool.ReadOnlyTool {
	return tool.NewReadOnly("read_code", "Read code.", func(ctx context.Context, in readIn) (tool.Result, error) {
		return tool.Text("1: int main(void) { gets(buf); }"), nil
	})
}

// TestAgentLoopOverTheWire drives a whole agent run against the server:
// the tool call goes out with its schema, the tool result comes back as a
// "tool" message with the call's id, malformed arguments are returned to
// the model as an error result, and the final answer ends the run.
func TestAgentLoopOverTheWire(t *testing.T) {
	s, cfg := start(t,
		completion("", toolCall("call_1", "read_code", `{"path": "src/a.c", "start_line": 1}`)),
		completion("", toolCall("call_2", "read_code", `{"path": "src/a.c", "start_line": `)),
		completion("The gets call on line 1 is exploitable."),
	)
	a := &agent.Agent{Model: model(t, cfg, nil), System: "You verify findings.", Tools: tool.NewReadOnlyRegistry(readTool()), MaxTokens: 512}
	res, err := a.Run(context.Background(), agent.NewSession("wire"), "Check src/a.c")
	if err != nil {
		t.Fatal(err)
	}
	if res.Final != "The gets call on line 1 is exploitable." || res.Usage.InputTokens != 360 || res.Usage.OutputTokens != 90 {
		t.Fatalf("result: %+v", res)
	}
	first := s.bodies[0]
	if first["model"] != "test-model" || first["max_tokens"].(float64) != 512 {
		t.Fatalf("model/max_tokens: %v", first)
	}
	msgs := first["messages"].([]any)
	if m0 := msgs[0].(map[string]any); m0["role"] != "system" || m0["content"] != "You verify findings." {
		t.Fatalf("system message: %v", m0)
	}
	if m1 := msgs[1].(map[string]any); m1["role"] != "user" || m1["content"] != "Check src/a.c" {
		t.Fatalf("user message: %v", m1)
	}
	fn := first["tools"].([]any)[0].(map[string]any)["function"].(map[string]any)
	if fn["name"] != "read_code" || fn["description"] != "Read code." {
		t.Fatalf("tool: %v", fn)
	}
	params := fn["parameters"].(map[string]any)
	if req := params["required"].([]any); len(req) != 1 || req[0] != "path" {
		t.Fatalf("schema: %v", params)
	}
	// Second request: assistant tool call echoed, tool result with its id.
	msgs = s.bodies[1]["messages"].([]any)
	asst := msgs[2].(map[string]any)
	tc := asst["tool_calls"].([]any)[0].(map[string]any)
	if asst["role"] != "assistant" || tc["id"] != "call_1" || tc["function"].(map[string]any)["name"] != "read_code" {
		t.Fatalf("assistant echo: %v", asst)
	}
	if tm := msgs[3].(map[string]any); tm["role"] != "tool" || tm["tool_call_id"] != "call_1" || !strings.Contains(tm["content"].(string), "gets(buf)") {
		t.Fatalf("tool message: %v", tm)
	}
	// Third request: the malformed arguments came back as an error result.
	msgs = s.bodies[2]["messages"].([]any)
	errMsg := msgs[len(msgs)-1].(map[string]any)
	if errMsg["tool_call_id"] != "call_2" || !strings.Contains(errMsg["content"].(string), "ERROR") || !strings.Contains(errMsg["content"].(string), "not a JSON object") {
		t.Fatalf("malformed arguments not reported to the model: %v", errMsg)
	}
	if got := s.headers[0].Get("Authorization"); got != "Bearer sk-test-secret" {
		t.Fatalf("authorization header %q", got)
	}
}

func TestRetriesOn429And500(t *testing.T) {
	s, cfg := start(t,
		status(429, `{"error":{"message":"Rate limit reached","type":"requests","code":"rate_limit_exceeded"}}`, "Retry-After", "7"),
		status(500, `{"error":{"message":"upstream failure"}}`),
		status(503, `oops not json`),
		completion("ok"),
	)
	var slept []time.Duration
	resp, err := model(t, cfg, &slept).Generate(context.Background(), &llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Content: "hi"}}})
	if err != nil || resp.Message.Content != "ok" {
		t.Fatalf("%v %v", resp, err)
	}
	if len(s.bodies) != 4 || len(slept) != 3 || slept[0] != 7*time.Second {
		t.Fatalf("requests %d, sleeps %v (the first must honour Retry-After: 7)", len(s.bodies), slept)
	}
}

func TestTimeoutIsRetried(t *testing.T) {
	release := make(chan struct{})
	t.Cleanup(func() { close(release) })
	hang := func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}
	s, cfg := start(t, hang, completion("after the hang"))
	cfg.Timeout = 100 * time.Millisecond
	resp, err := model(t, cfg, nil).Generate(context.Background(), &llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Content: "hi"}}})
	if err != nil || resp.Message.Content != "after the hang" || len(s.bodies) != 2 {
		t.Fatalf("%v %v requests=%d", resp, err, len(s.bodies))
	}
}

func TestErrorClassification(t *testing.T) {
	cases := []struct {
		reply func(http.ResponseWriter, *http.Request)
		kind  llm.ErrorKind
		calls int
	}{
		{status(401, `{"error":{"message":"Incorrect API key provided: sk-test-***"}}`), llm.KindAuth, 1},
		{status(400, `{"error":{"message":"This model's maximum context length is 8192 tokens. However, your messages resulted in 9000 tokens.","code":"context_length_exceeded"}}`), llm.KindContextTooLarge, 1},
		{status(400, `{"error":"prompt too long; exceeded max context length by 12 tokens"}`), llm.KindContextTooLarge, 1}, // llama.cpp/Ollama style
		{status(404, `{"error":{"message":"model 'nope' not found"}}`), llm.KindBadRequest, 1},
	}
	for _, c := range cases {
		s, cfg := start(t, c.reply)
		_, err := model(t, cfg, nil).Generate(context.Background(), &llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Content: "hi"}}})
		var pe *llm.ProviderError
		if !errors.As(err, &pe) || pe.Kind != c.kind || len(s.bodies) != c.calls {
			t.Errorf("kind %v, want %v (err %v, calls %d)", llm.KindOf(err), c.kind, err, len(s.bodies))
		}
		if strings.Contains(err.Error(), "sk-test-secret") {
			t.Errorf("the API key leaked into an error: %v", err)
		}
	}
}

func TestGivesUpAfterMaxAttempts(t *testing.T) {
	s, cfg := start(t, status(500, `{}`), status(500, `{}`), status(500, `{}`), status(500, `{}`))
	_, err := model(t, cfg, nil).Generate(context.Background(), &llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Content: "hi"}}})
	if !llm.IsRetryable(err) || len(s.bodies) != 4 {
		t.Fatalf("err %v after %d requests", err, len(s.bodies))
	}
}

func TestConnectionRefusedIsRetryable(t *testing.T) {
	ts := httptest.NewServer(http.NotFoundHandler())
	url := ts.URL
	ts.Close()
	m, _ := New(llm.Config{BaseURL: url + "/v1", Model: "m"})
	_, err := m.Generate(context.Background(), &llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Content: "hi"}}})
	if !llm.IsRetryable(err) {
		t.Fatalf("%v", err)
	}
}
