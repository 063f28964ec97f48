package anthropic

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/jsec/jsec/agent"
	"github.com/jsec/jsec/agent/llm"
	"github.com/jsec/jsec/agent/tool"
)

const testKey = "sk-ant-test-secret"

// server is an in-process Messages API endpoint that replays scripted
// HTTP replies and records the request bodies and headers.
type server struct {
	t       *testing.T
	mu      sync.Mutex
	replies []func(w http.ResponseWriter, r *http.Request)
	bodies  []map[string]any
	headers []http.Header
}

func (s *server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != "/v1/messages" || r.Method != http.MethodPost {
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

func (s *server) requests() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.bodies)
}

// message replies with a Messages API message made of the given content
// blocks; the stop reason follows from them as the API's does.
func message(blocks ...map[string]any) func(http.ResponseWriter, *http.Request) {
	return messageWithUsage(map[string]any{"input_tokens": 120, "output_tokens": 30}, blocks...)
}

func messageWithUsage(usage map[string]any, blocks ...map[string]any) func(http.ResponseWriter, *http.Request) {
	return func(w http.ResponseWriter, r *http.Request) {
		stop := "end_turn"
		for _, b := range blocks {
			if b["type"] == "tool_use" {
				stop = "tool_use"
			}
		}
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Request-Id", "req_test")
		json.NewEncoder(w).Encode(map[string]any{
			"id": "msg_01", "type": "message", "role": "assistant", "model": "claude-test",
			"content": blocks, "stop_reason": stop, "stop_sequence": nil, "usage": usage,
		})
	}
}

func textBlock(s string) map[string]any { return map[string]any{"type": "text", "text": s} }

func toolUse(id, name string, input any) map[string]any {
	return map[string]any{"type": "tool_use", "id": id, "name": name, "input": input}
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

func apiErr(typ, msg string) string {
	return fmt.Sprintf(`{"type":"error","error":{"type":%q,"message":%q},"request_id":"req_1"}`, typ, msg)
}

func start(t *testing.T, replies ...func(http.ResponseWriter, *http.Request)) (*server, llm.Config) {
	s := &server{t: t, replies: replies}
	ts := httptest.NewServer(s)
	t.Cleanup(ts.Close)
	return s, llm.Config{Provider: "anthropic", BaseURL: ts.URL, Model: "claude-test", APIKey: testKey, HTTPClient: ts.Client()}
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

func hi() *llm.Request {
	return &llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Content: "hi"}}}
}

type readIn struct {
	Path      string `json:"path" desc:"file path"`
	StartLine int    `json:"start_line,omitempty"`
}

func readTool() tool.ReadOnlyTool {
	return tool.NewReadOnly("read_code", "Read code.", func(ctx context.Context, in readIn) (tool.Result, error) {
		return tool.Text(in.Path + "\n1: int main(void) { gets(buf); }"), nil
	})
}

// at walks decoded JSON: strings index objects, ints index arrays.
func at(t *testing.T, v any, path ...any) any {
	t.Helper()
	for _, p := range path {
		switch k := p.(type) {
		case string:
			m, ok := v.(map[string]any)
			if !ok {
				t.Fatalf("at %v: %v is not an object", path, v)
			}
			v = m[k]
		case int:
			a, ok := v.([]any)
			if !ok || k >= len(a) {
				t.Fatalf("at %v: %v has no element %d", path, v, k)
			}
			v = a[k]
		}
	}
	return v
}

func asJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// TestAgentLoopOverTheWire drives a whole agent run against the server:
// the tool goes out with its input_schema, the tool_use block comes back
// in the next request followed by a user turn with the matching
// tool_result, inputs that fail the tool's schema come back as tool_result
// blocks with is_error, and the final text ends the run.
func TestAgentLoopOverTheWire(t *testing.T) {
	s, cfg := start(t,
		message(textBlock("Let me read it."), toolUse("toolu_01", "read_code", map[string]any{"path": "src/a.c", "start_line": 1})),
		message(toolUse("toolu_02", "read_code", map[string]any{"start_line": 3}), toolUse("toolu_03", "read_code", map[string]any{"path": 42})),
		message(textBlock("The gets call on line 1 is exploitable.")),
	)
	a := &agent.Agent{Model: model(t, cfg, nil), System: "You verify findings.", Tools: tool.NewReadOnlyRegistry(readTool()), MaxTokens: 512}
	res, err := a.Run(context.Background(), agent.NewSession("wire"), "Check src/a.c")
	if err != nil {
		t.Fatal(err)
	}
	if res.Final != "The gets call on line 1 is exploitable." || res.Usage.InputTokens != 360 || res.Usage.OutputTokens != 90 || len(res.Steps) != 3 {
		t.Fatalf("result: %+v", res)
	}
	if r := res.Steps[0].Response; r.StopReason != "tool_use" || r.Model != "claude-test" || r.Message.Content != "Let me read it." {
		t.Fatalf("first response: %+v", r)
	}
	for i, h := range s.headers {
		if h.Get("X-Api-Key") != testKey || h.Get("Anthropic-Version") != "2023-06-01" || h.Get("Authorization") != "" {
			t.Fatalf("request %d headers: %v", i, h)
		}
		if !strings.HasPrefix(h.Get("Content-Type"), "application/json") {
			t.Fatalf("content type %q", h.Get("Content-Type"))
		}
	}

	first := s.bodies[0]
	if first["model"] != "claude-test" || first["max_tokens"] != 512.0 || first["temperature"] != nil || first["stream"] != nil {
		t.Fatalf("model/max_tokens/temperature/stream: %v", asJSON(first))
	}
	if sys := asJSON(first["system"]); sys != `[{"text":"You verify findings.","type":"text"}]` {
		t.Fatalf("system: %s", sys)
	}
	if msgs := asJSON(first["messages"]); msgs != `[{"content":[{"text":"Check src/a.c","type":"text"}],"role":"user"}]` {
		t.Fatalf("messages: %s", msgs)
	}
	tl := at(t, first, "tools", 0).(map[string]any)
	if tl["name"] != "read_code" || tl["description"] != "Read code." || len(first["tools"].([]any)) != 1 {
		t.Fatalf("tool: %v", tl)
	}
	schema := tl["input_schema"].(map[string]any)
	if schema["type"] != "object" || asJSON(schema["required"]) != `["path"]` || schema["additionalProperties"] != false {
		t.Fatalf("input_schema: %v", asJSON(schema))
	}
	if asJSON(at(t, schema, "properties", "path")) != `{"description":"file path","type":"string"}` || at(t, schema, "properties", "start_line", "type") != "integer" {
		t.Fatalf("properties: %v", asJSON(schema["properties"]))
	}

	// Second request: the assistant turn carries its text and tool_use
	// block, the user turn the tool_result with the same id.
	msgs := s.bodies[1]["messages"].([]any)
	if len(msgs) != 3 {
		t.Fatalf("second request: %s", asJSON(msgs))
	}
	if got := asJSON(msgs[1]); got != `{"content":[{"text":"Let me read it.","type":"text"},{"id":"toolu_01","input":{"path":"src/a.c","start_line":1},"name":"read_code","type":"tool_use"}],"role":"assistant"}` {
		t.Fatalf("assistant turn: %s", got)
	}
	if got := asJSON(msgs[2]); got != `{"content":[{"content":[{"text":"src/a.c\n1: int main(void) { gets(buf); }","type":"text"}],"tool_use_id":"toolu_01","type":"tool_result"}],"role":"user"}` {
		t.Fatalf("tool_result turn: %s", got)
	}

	// Third request: both bad inputs came back as error results, in one
	// user turn, each with its call's id.
	msgs = s.bodies[2]["messages"].([]any)
	if len(msgs) != 5 || at(t, msgs, 3, "role") != "assistant" || at(t, msgs, 4, "role") != "user" {
		t.Fatalf("third request: %s", asJSON(msgs))
	}
	if got := asJSON(at(t, msgs, 3, "content")); got != `[{"id":"toolu_02","input":{"start_line":3},"name":"read_code","type":"tool_use"},{"id":"toolu_03","input":{"path":42},"name":"read_code","type":"tool_use"}]` {
		t.Fatalf("assistant tool_use blocks: %s", got)
	}
	results := at(t, msgs, 4, "content").([]any)
	for i, want := range []struct{ id, problem string }{{"toolu_02", "missing required path"}, {"toolu_03", "wrong type"}} {
		r := results[i].(map[string]any)
		text, _ := at(t, r, "content", 0, "text").(string)
		if len(results) != 2 || r["type"] != "tool_result" || r["tool_use_id"] != want.id || r["is_error"] != true || !strings.Contains(text, want.problem) {
			t.Fatalf("error result %d: %s", i, asJSON(r))
		}
	}
}

// TestRequestShape checks the conversion of a history the loop can
// produce on its own terms: several tool results grouped in one user
// turn (with a follow-up text after them), malformed arguments kept as a
// call with an empty object, empty texts left out, the default max_tokens
// and the temperature.
func TestRequestShape(t *testing.T) {
	s, cfg := start(t, message(textBlock("ok")))
	temp := 0.2
	req := &llm.Request{
		Temperature: &temp,
		Messages: []llm.Message{
			{Role: llm.RoleUser, Content: "Check src/a.c"},
			{Role: llm.RoleAssistant, ToolCalls: []llm.ToolCall{
				{ID: "toolu_a", Name: "read_code", Arguments: `{"path": "a.c"}`},
				{ID: "toolu_b", Name: "read_code", Arguments: `{"path": "b.c", "start_line": `},
				{ID: "toolu_c", Name: "list_files", Arguments: `["not", "an", "object"]`},
				{ID: "toolu_d", Name: "list_files", Arguments: ``},
			}},
			{Role: llm.RoleTool, ToolCallID: "toolu_a", Name: "read_code", Content: "int a;"},
			{Role: llm.RoleTool, ToolCallID: "toolu_b", Name: "read_code", Content: "invalid arguments", IsError: true},
			{Role: llm.RoleTool, ToolCallID: "toolu_c", Name: "list_files", Content: "invalid arguments", IsError: true},
			{Role: llm.RoleTool, ToolCallID: "toolu_d", Name: "list_files", Content: ""},
			{Role: llm.RoleUser, Content: "Now submit your verdict."},
			{Role: llm.RoleAssistant, Content: ""},
			{Role: llm.RoleUser, Content: "Please call submit_verdict."},
		},
	}
	resp, err := model(t, cfg, nil).Generate(context.Background(), req)
	if err != nil || resp.Message.Content != "ok" {
		t.Fatalf("%v %v", resp, err)
	}
	body := s.bodies[0]
	if body["max_tokens"] != float64(DefaultMaxTokens) || body["temperature"] != 0.2 || body["system"] != nil || body["tools"] != nil {
		t.Fatalf("params: %s", asJSON(body))
	}
	want := `[{"content":[{"text":"Check src/a.c","type":"text"}],"role":"user"},` +
		`{"content":[{"id":"toolu_a","input":{"path":"a.c"},"name":"read_code","type":"tool_use"},` +
		`{"id":"toolu_b","input":{},"name":"read_code","type":"tool_use"},` +
		`{"id":"toolu_c","input":{},"name":"list_files","type":"tool_use"},` +
		`{"id":"toolu_d","input":{},"name":"list_files","type":"tool_use"}],"role":"assistant"},` +
		`{"content":[{"content":[{"text":"int a;","type":"text"}],"tool_use_id":"toolu_a","type":"tool_result"},` +
		`{"content":[{"text":"invalid arguments","type":"text"}],"is_error":true,"tool_use_id":"toolu_b","type":"tool_result"},` +
		`{"content":[{"text":"invalid arguments","type":"text"}],"is_error":true,"tool_use_id":"toolu_c","type":"tool_result"},` +
		`{"tool_use_id":"toolu_d","type":"tool_result"},` +
		`{"text":"Now submit your verdict.","type":"text"},{"text":"Please call submit_verdict.","type":"text"}],"role":"user"}]`
	if got := asJSON(body["messages"]); got != want {
		t.Fatalf("messages:\n got %s\nwant %s", got, want)
	}
}

// TestResponseShape: text blocks are joined, blocks outside the neutral
// vocabulary are dropped, cached prompt tokens count as input, and a
// tool_use block without input becomes a call with {}.
func TestResponseShape(t *testing.T) {
	usage := map[string]any{"input_tokens": 10, "cache_read_input_tokens": 1000, "cache_creation_input_tokens": 200, "output_tokens": 7}
	_, cfg := start(t, messageWithUsage(usage,
		map[string]any{"type": "thinking", "thinking": "hmm", "signature": "sig"},
		textBlock("The call "), textBlock("is safe."),
		map[string]any{"type": "tool_use", "id": "toolu_x", "name": "list_files"},
		toolUse("toolu_y", "read_code", map[string]any{"path": "a.c"}),
	))
	resp, err := model(t, cfg, nil).Generate(context.Background(), hi())
	if err != nil {
		t.Fatal(err)
	}
	want := &llm.Response{
		Message: llm.Message{Role: llm.RoleAssistant, Content: "The call is safe.", ToolCalls: []llm.ToolCall{
			{ID: "toolu_x", Name: "list_files", Arguments: "{}"},
			{ID: "toolu_y", Name: "read_code", Arguments: `{"path":"a.c"}`},
		}},
		Usage:      llm.Usage{InputTokens: 1210, OutputTokens: 7},
		StopReason: "tool_use",
		Model:      "claude-test",
	}
	if !reflect.DeepEqual(resp, want) {
		t.Fatalf("got  %+v\nwant %+v", resp, want)
	}
}

func TestRetriesOn429And529And500(t *testing.T) {
	s, cfg := start(t,
		status(429, apiErr("rate_limit_error", "Number of request tokens has exceeded your per-minute rate limit"), "Retry-After", "7"),
		status(529, apiErr("overloaded_error", "Overloaded")),
		status(500, apiErr("api_error", "Internal server error")),
		status(503, `upstream connect error`),
		message(textBlock("ok")),
	)
	var slept []time.Duration
	m, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	var kinds []string
	r := llm.Retry(m, llm.RetryPolicy{MaxAttempts: 5, BaseDelay: time.Millisecond,
		Sleep:   func(ctx context.Context, d time.Duration) error { slept = append(slept, d); return nil },
		OnRetry: func(attempt int, delay time.Duration, err error) { kinds = append(kinds, err.Error()) },
	})
	resp, err := r.Generate(context.Background(), hi())
	if err != nil || resp.Message.Content != "ok" {
		t.Fatalf("%v %v", resp, err)
	}
	if s.requests() != 5 || len(slept) != 4 || slept[0] != 7*time.Second {
		t.Fatalf("requests %d, sleeps %v (the first must honour Retry-After: 7)", s.requests(), slept)
	}
	for i, want := range []string{"HTTP 429", "HTTP 529", "HTTP 500", "HTTP 503"} {
		if !strings.Contains(kinds[i], want) || !strings.Contains(kinds[i], "retryable") {
			t.Fatalf("retry %d: %s", i, kinds[i])
		}
	}
	if !strings.Contains(kinds[1], "Overloaded (overloaded_error)") {
		t.Fatalf("the API's message and type should be kept: %s", kinds[1])
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
	s, cfg := start(t, hang, message(textBlock("after the hang")))
	cfg.Timeout = 100 * time.Millisecond
	begin := time.Now()
	resp, err := model(t, cfg, nil).Generate(context.Background(), hi())
	if err != nil || resp.Message.Content != "after the hang" || s.requests() != 2 {
		t.Fatalf("%v %v requests=%d", resp, err, s.requests())
	}
	if d := time.Since(begin); d > 5*time.Second {
		t.Fatalf("the hung attempt was not cut at the timeout: %v", d)
	}
}

func TestErrorClassification(t *testing.T) {
	cases := []struct {
		name  string
		reply func(http.ResponseWriter, *http.Request)
		kind  llm.ErrorKind
	}{
		{"401", status(401, apiErr("authentication_error", "invalid x-api-key "+testKey)), llm.KindAuth},
		{"403", status(403, apiErr("permission_error", "Your API key does not have permission to use the specified resource.")), llm.KindAuth},
		{"prompt too long", status(400, apiErr("invalid_request_error", "prompt is too long: 210344 tokens > 200000 maximum")), llm.KindContextTooLarge},
		{"input plus max_tokens", status(400, apiErr("invalid_request_error", "input length and `max_tokens` exceed context limit: 188240 + 21333 > 200000, decrease input length or `max_tokens` and try again")), llm.KindContextTooLarge},
		{"413", status(413, apiErr("request_too_large", "Request exceeds the maximum allowed number of bytes.")), llm.KindContextTooLarge},
		{"bad request", status(400, apiErr("invalid_request_error", "messages.1.content.0.tool_use.input: Input should be a valid dictionary")), llm.KindBadRequest},
		{"404", status(404, apiErr("not_found_error", "model: claude-nope")), llm.KindBadRequest},
		{"rate limit without 429", status(400, apiErr("rate_limit_error", "slow down")), llm.KindRetryable},
		{"x-should-retry false", status(500, apiErr("internal", "do not retry"), "X-Should-Retry", "false"), llm.KindOther},
		{"x-should-retry true", status(409, `conflict`, "X-Should-Retry", "true"), llm.KindRetryable},
		{"x-should-retry on 401", status(401, `{}`, "X-Should-Retry", "true"), llm.KindAuth},
		{"proxy page", status(502, "<html>"+strings.Repeat("Bad gateway é ", 100)+"</html>"), llm.KindRetryable},
		{"long message with the key", status(400, apiErr("invalid_request_error", strings.Repeat("x", 490)+testKey)), llm.KindBadRequest},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s, cfg := start(t, c.reply)
			// One attempt: the kind alone decides what llm.Retry does.
			m, err := New(cfg)
			if err != nil {
				t.Fatal(err)
			}
			_, err = m.Generate(context.Background(), hi())
			var pe *llm.ProviderError
			if !errors.As(err, &pe) || pe.Kind != c.kind || pe.Provider != "anthropic" || s.requests() != 1 {
				t.Fatalf("kind %v, want %v (err %v, requests %d)", llm.KindOf(err), c.kind, err, s.requests())
			}
			if len(pe.Message) > 520 || !utf8.ValidString(pe.Message) {
				t.Fatalf("message not cut cleanly: %q", pe.Message)
			}
			var chain []string
			for e := error(pe); e != nil; e = errors.Unwrap(e) {
				chain = append(chain, e.Error())
			}
			if text := strings.Join(chain, " | ") + fmt.Sprintf("%v %+v", pe, pe); strings.Contains(text, testKey) {
				t.Fatalf("the API key leaked into an error: %s", text)
			}
		})
	}
}

func TestAuthIsNotRetried(t *testing.T) {
	s, cfg := start(t, status(401, apiErr("authentication_error", "invalid x-api-key")), message(textBlock("never")))
	_, err := model(t, cfg, nil).Generate(context.Background(), hi())
	if !llm.IsAuth(err) || s.requests() != 1 || !strings.Contains(err.Error(), "invalid x-api-key (authentication_error)") {
		t.Fatalf("err %v after %d requests", err, s.requests())
	}
}

func TestGivesUpAfterMaxAttempts(t *testing.T) {
	overloaded := status(529, apiErr("overloaded_error", "Overloaded"))
	s, cfg := start(t, overloaded, overloaded, overloaded, overloaded, overloaded)
	_, err := model(t, cfg, nil).Generate(context.Background(), hi())
	if !llm.IsRetryable(err) || s.requests() != 4 {
		t.Fatalf("err %v after %d requests", err, s.requests())
	}
}

func TestConnectionRefusedIsRetryable(t *testing.T) {
	ts := httptest.NewServer(http.NotFoundHandler())
	url := ts.URL
	ts.Close()
	m, err := New(llm.Config{BaseURL: url, Model: "m", APIKey: testKey})
	if err != nil {
		t.Fatal(err)
	}
	_, err = m.Generate(context.Background(), hi())
	var pe *llm.ProviderError
	if !errors.As(err, &pe) || pe.Kind != llm.KindRetryable || pe.Status != 0 || strings.Contains(err.Error(), testKey) {
		t.Fatalf("%v", err)
	}
}

func TestCancelledContext(t *testing.T) {
	_, cfg := start(t, func(w http.ResponseWriter, r *http.Request) { <-r.Context().Done() })
	ctx, cancel := context.WithCancel(context.Background())
	go func() { time.Sleep(20 * time.Millisecond); cancel() }()
	m, _ := New(cfg)
	if _, err := m.Generate(ctx, hi()); !errors.Is(err, context.Canceled) {
		t.Fatalf("%v", err)
	}
}

// TestConfiguration: llm.Config is the one source of configuration (the
// SDK's environment defaults are off), a base URL ending in /v1 is
// tolerated, a missing key is a configuration error against Anthropic
// itself, and the key never shows in the model's printed form.
func TestConfiguration(t *testing.T) {
	t.Setenv("ANTHROPIC_API_KEY", "sk-ant-from-env")
	t.Setenv("ANTHROPIC_AUTH_TOKEN", "token-from-env")
	t.Setenv("ANTHROPIC_BASE_URL", "http://127.0.0.1:1")
	t.Setenv("ANTHROPIC_CUSTOM_HEADERS", "X-From-Env: yes")
	s, cfg := start(t, message(textBlock("one")), message(textBlock("two")))
	cfg.BaseURL += "/v1/"
	m, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := m.Generate(context.Background(), hi()); err != nil {
		t.Fatal(err)
	}
	h := s.headers[0]
	if h.Get("X-Api-Key") != testKey || h.Get("Authorization") != "" || h.Get("X-From-Env") != "" {
		t.Fatalf("the environment leaked into the request: %v", h)
	}
	if m.Name() != "claude-test" {
		t.Fatal(m.Name())
	}
	if text := fmt.Sprintf("%v %+v %#v %s", m, m, m, m); strings.Contains(text, testKey) {
		t.Fatalf("the key shows in the model's printed form: %s", text)
	}

	// No key at all against a gateway: the request goes out without one.
	cfg.APIKey = ""
	m, err = New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := m.Generate(context.Background(), hi()); err != nil || s.headers[1].Get("X-Api-Key") != "" {
		t.Fatalf("%v %v", err, s.headers[1])
	}

	_, err = New(llm.Config{Provider: "anthropic", Model: "claude-test"})
	if err == nil || !strings.Contains(err.Error(), "ANTHROPIC_API_KEY") {
		t.Fatalf("no key: %v", err)
	}
	r := llm.NewRegistry()
	r.Register("anthropic", New)
	if _, err := r.New(llm.Config{Provider: "anthropic", Model: "claude-test"}); !errors.Is(err, llm.ErrConfig) {
		t.Fatalf("registry: %v", err)
	}
}

func TestInvalidToolSchema(t *testing.T) {
	s, cfg := start(t)
	m, _ := New(cfg)
	for _, schema := range []string{`{"type": "object", "properties": `, `{"type": "string"}`} {
		req := hi()
		req.Tools = []llm.ToolSpec{{Name: "broken", Parameters: json.RawMessage(schema)}}
		_, err := m.Generate(context.Background(), req)
		if err == nil || !strings.Contains(err.Error(), "tool broken: invalid schema") || llm.IsRetryable(err) {
			t.Fatalf("%s: %v", schema, err)
		}
	}
	if s.requests() != 0 {
		t.Fatal("an invalid schema must fail before the request")
	}
}

func TestToolWithoutParameters(t *testing.T) {
	s, cfg := start(t, message(textBlock("ok")))
	req := hi()
	req.Tools = []llm.ToolSpec{{Name: "list_roots"}, {Name: "now", Parameters: json.RawMessage(`{"type":"object"}`)}, {Name: "search", Description: "Search.", Parameters: json.RawMessage(
		`{"type":"object","properties":{"pattern":{"type":"string"}},"required":["pattern"],"$defs":{"x":{"type":"integer"}}}`)}}
	if _, err := model(t, cfg, nil).Generate(context.Background(), req); err != nil {
		t.Fatal(err)
	}
	tools := asJSON(s.bodies[0]["tools"])
	want := `[{"input_schema":{"properties":{},"type":"object"},"name":"list_roots"},` +
		`{"input_schema":{"properties":{},"type":"object"},"name":"now"},` +
		`{"description":"Search.","input_schema":{"$defs":{"x":{"type":"integer"}},"properties":{"pattern":{"type":"string"}},"required":["pattern"],"type":"object"},"name":"search"}]`
	if tools != want {
		t.Fatalf("tools:\n got %s\nwant %s", tools, want)
	}
}

// TestLargeMaxTokens: the SDK refuses a non-streaming request whose
// max_tokens it expects to take over ten minutes unless it is given a
// request timeout; the provider always gives one.
func TestLargeMaxTokens(t *testing.T) {
	s, cfg := start(t, message(textBlock("ok")))
	req := hi()
	req.MaxTokens = 64000
	if _, err := model(t, cfg, nil).Generate(context.Background(), req); err != nil {
		t.Fatal(err)
	}
	if s.bodies[0]["max_tokens"] != 64000.0 {
		t.Fatal(asJSON(s.bodies[0]))
	}
}
