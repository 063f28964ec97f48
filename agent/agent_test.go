package agent

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/jsec/jsec/agent/llm"
	"github.com/jsec/jsec/agent/tool"
)

// scripted is a Model that replays replies in order and records requests.
type scripted struct {
	mu      sync.Mutex
	replies []func(req *llm.Request) (*llm.Response, error)
	reqs    []*llm.Request
}

func (s *scripted) Name() string { return "scripted" }

func (s *scripted) Generate(ctx context.Context, req *llm.Request) (*llm.Response, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.reqs = append(s.reqs, req)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if len(s.replies) == 0 {
		return &llm.Response{Message: llm.Message{Role: llm.RoleAssistant, Content: "out of script"}}, nil
	}
	r := s.replies[0]
	s.replies = s.replies[1:]
	return r(req)
}

func say(text string) func(*llm.Request) (*llm.Response, error) {
	return func(*llm.Request) (*llm.Response, error) {
		return &llm.Response{Message: llm.Message{Role: llm.RoleAssistant, Content: text}, Usage: llm.Usage{InputTokens: 10, OutputTokens: 5}}, nil
	}
}

func callTool(name, args string) func(*llm.Request) (*llm.Response, error) {
	return func(*llm.Request) (*llm.Response, error) {
		return &llm.Response{Message: llm.Message{Role: llm.RoleAssistant, ToolCalls: []llm.ToolCall{{ID: "c-" + name, Name: name, Arguments: args}}},
			Usage: llm.Usage{InputTokens: 10, OutputTokens: 5}}, nil
	}
}

type echoIn struct {
	Text string `json:"text" desc:"what to echo"`
}

func echoTool() tool.ReadOnlyTool {
	return tool.NewReadOnly("echo", "Echo text.", func(ctx context.Context, in echoIn) (tool.Result, error) {
		return tool.Text("echo: " + in.Text), nil
	})
}

func TestRunToolThenAnswer(t *testing.T) {
	m := &scripted{replies: []func(*llm.Request) (*llm.Response, error){callTool("echo", `{"text":"hi"}`), say("done: hi")}}
	bus := NewBus()
	var kinds []string
	bus.Subscribe("", func(e Event) { kinds = append(kinds, string(e.Kind)) })
	a := &Agent{Name: "t", Model: m, System: "SYS", Tools: tool.NewReadOnlyRegistry(echoTool()), Events: bus}
	s := NewSession("s1")
	res, err := a.Run(context.Background(), s, "say hi")
	if err != nil {
		t.Fatal(err)
	}
	if res.Final != "done: hi" || res.StopReason != ReasonCompleted || len(res.Steps) != 2 || res.Usage.Total() != 30 {
		t.Fatalf("result: %+v", res)
	}
	hist := s.History()
	if len(hist) != 4 || hist[2].Role != llm.RoleTool || hist[2].ToolCallID != "c-echo" || hist[2].Content != "echo: hi" {
		t.Fatalf("history: %+v", hist)
	}
	for _, r := range m.reqs {
		if r.System != "SYS" || len(r.Tools) != 1 || r.Tools[0].Name != "echo" {
			t.Fatalf("request lost the system prompt or tools: %+v", r)
		}
	}
	want := "task_started before_model_call after_model_call before_tool_call after_tool_call before_model_call after_model_call task_completed"
	if strings.Join(kinds, " ") != want {
		t.Fatalf("events:\n got %s\nwant %s", strings.Join(kinds, " "), want)
	}
}

func TestStopConditionsInRun(t *testing.T) {
	loop := func(n int) []func(*llm.Request) (*llm.Response, error) {
		var r []func(*llm.Request) (*llm.Response, error)
		for range n {
			r = append(r, callTool("echo", `{"text":"again"}`))
		}
		return r
	}
	cases := []struct {
		name string
		stop []StopCondition
		want string
	}{
		{"max steps", []StopCondition{MaxSteps(3)}, "max_steps (3)"},
		{"token budget", []StopCondition{TokenBudget(40)}, "token_budget (45 of 40)"},
		{"repeated calls", []StopCondition{RepeatedToolCalls(4)}, "repeated_tool_calls (4 identical steps)"},
		{"terminal tool", []StopCondition{ToolCalled("echo")}, "terminal_tool (echo)"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			a := &Agent{Model: &scripted{replies: loop(10)}, Tools: tool.NewReadOnlyRegistry(echoTool()), StopWhen: c.stop}
			res, err := a.Run(context.Background(), NewSession("x"), "loop")
			if err != nil || res.StopReason != c.want {
				t.Fatalf("stop = %q, %v; want %q", res.StopReason, err, c.want)
			}
		})
	}
}

func TestStopConditionFunctions(t *testing.T) {
	step := func(content string, calls ...llm.ToolCall) Step {
		s := Step{Response: &llm.Response{Message: llm.Message{Content: content}, Usage: llm.Usage{InputTokens: 3, OutputTokens: 2}}, Calls: calls}
		for range calls {
			s.Results = append(s.Results, tool.Text("ok"))
		}
		return s
	}
	a := llm.ToolCall{Name: "read", Arguments: `{"p": 1}`}
	b := llm.ToolCall{Name: "read", Arguments: `{"p":1}`} // same call, other spacing
	c := llm.ToolCall{Name: "read", Arguments: `{"p":2}`}
	if stop, _ := RepeatedToolCalls(2)([]Step{step("", a), step("", b)}); !stop {
		t.Error("identical calls not detected")
	}
	if stop, _ := RepeatedToolCalls(2)([]Step{step("", a), step("", c)}); stop {
		t.Error("different calls taken as repeated")
	}
	if stop, _ := RepeatedToolCalls(2)([]Step{step("x"), step("x")}); stop {
		t.Error("steps without calls taken as repeated")
	}
	if stop, _ := CompletionMarker(DefaultCompletionMarker)([]Step{step("all done <!!!COMPLETE!!!>")}); !stop {
		t.Error("marker missed")
	}
	errStep := step("", llm.ToolCall{Name: "submit"})
	errStep.Results[0].IsError = true
	if stop, _ := ToolCalled("submit")([]Step{errStep}); stop {
		t.Error("a failed terminal call stopped the run")
	}
	if stop, _ := TokenBudget(10)([]Step{step(""), step("")}); !stop {
		t.Error("budget of 10 not reached by 2x5 tokens")
	}
	if stop, _ := MaxSteps(3)([]Step{step(""), step("")}); stop {
		t.Error("max steps too early")
	}
}

func TestNudgeUntilTerminalTool(t *testing.T) {
	m := &scripted{replies: []func(*llm.Request) (*llm.Response, error){say("I think it is fine."), callTool("echo", `{"text":"verdict"}`)}}
	nudges := 0
	a := &Agent{Model: m, Tools: tool.NewReadOnlyRegistry(echoTool()), StopWhen: []StopCondition{ToolCalled("echo")},
		Nudge: func([]Step) string { nudges++; return "Call echo to finish." }}
	res, err := a.Run(context.Background(), NewSession("n"), "task")
	if err != nil || res.StopReason != "terminal_tool (echo)" || nudges != 1 {
		t.Fatalf("%+v %v nudges=%d", res, err, nudges)
	}
	if last := m.reqs[1].Messages; last[len(last)-1].Content != "Call echo to finish." {
		t.Fatalf("nudge not sent: %+v", last)
	}
}

func TestCompactionKeepsSystemPrompt(t *testing.T) {
	big := strings.Repeat("x", 4000)
	m := &scripted{replies: []func(*llm.Request) (*llm.Response, error){
		callTool("echo", `{"text":"`+big+`"}`),
		say("SUMMARY: echoed a lot"),
		say("final"),
	}}
	bus := NewBus()
	var kinds []string
	bus.Subscribe("", func(e Event) {
		if strings.Contains(string(e.Kind), "summary") || strings.Contains(string(e.Kind), "history") {
			kinds = append(kinds, string(e.Kind))
		}
	})
	a := &Agent{Model: m, System: "RULES", Tools: tool.NewReadOnlyRegistry(echoTool()), Events: bus, Compaction: Compaction{Threshold: 500}}
	s := NewSession("c")
	res, err := a.Run(context.Background(), s, "the task")
	if err != nil || res.Final != "final" {
		t.Fatalf("%+v %v", res, err)
	}
	if strings.Join(kinds, " ") != "before_summary after_summary before_history_clear after_history_clear" {
		t.Fatalf("events: %v", kinds)
	}
	last := m.reqs[len(m.reqs)-1]
	if last.System != "RULES" {
		t.Fatal("system prompt lost after compaction")
	}
	if len(last.Messages) != 1 || !strings.Contains(last.Messages[0].Content, "the task") || !strings.Contains(last.Messages[0].Content, "SUMMARY: echoed a lot") {
		t.Fatalf("history after compaction: %+v", last.Messages)
	}
	if s.Summaries != 1 {
		t.Fatalf("summaries = %d", s.Summaries)
	}
}

func TestContextTooLargeCompactsOnce(t *testing.T) {
	tooLarge := func(*llm.Request) (*llm.Response, error) {
		return nil, &llm.ProviderError{Provider: "p", Kind: llm.KindContextTooLarge, Status: 400}
	}
	m := &scripted{replies: []func(*llm.Request) (*llm.Response, error){
		callTool("echo", `{"text":"a"}`), tooLarge, say("summary"), say("answer"),
	}}
	a := &Agent{Model: m, Tools: tool.NewReadOnlyRegistry(echoTool())}
	res, err := a.Run(context.Background(), NewSession("c"), "task")
	if err != nil || res.Final != "answer" {
		t.Fatalf("%+v %v", res, err)
	}
	m2 := &scripted{replies: []func(*llm.Request) (*llm.Response, error){callTool("echo", `{"text":"a"}`), tooLarge, say("summary"), tooLarge}}
	a.Model = m2
	if _, err := a.Run(context.Background(), NewSession("d"), "task"); !llm.IsContextTooLarge(err) {
		t.Fatalf("second overflow: %v", err)
	}
}

func TestCancellationAndModelErrors(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	blocking := tool.NewReadOnly("wait", "Wait.", func(ctx context.Context, in struct{}) (tool.Result, error) {
		cancel()
		<-ctx.Done()
		return tool.Result{}, ctx.Err()
	})
	a := &Agent{Model: &scripted{replies: []func(*llm.Request) (*llm.Response, error){callTool("wait", `{}`), say("never")}}, Tools: tool.NewReadOnlyRegistry(blocking)}
	if _, err := a.Run(ctx, NewSession("x"), "task"); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancel: %v", err)
	}
	auth := &scripted{replies: []func(*llm.Request) (*llm.Response, error){func(*llm.Request) (*llm.Response, error) {
		return nil, &llm.ProviderError{Provider: "p", Kind: llm.KindAuth, Status: 401}
	}}}
	a = &Agent{Model: auth}
	if _, err := a.Run(context.Background(), NewSession("y"), "task"); !llm.IsAuth(err) {
		t.Fatalf("auth error lost: %v", err)
	}
}

func TestBusIsolatesFailingSubscribers(t *testing.T) {
	bus := NewBus()
	got := 0
	bus.Subscribe(TaskStarted, func(Event) { panic("boom") })
	unsub := bus.Subscribe(TaskStarted, func(Event) { got++ })
	var failed error
	bus.OnFailure = func(_ Event, err error) { failed = err }
	a := &Agent{Model: &scripted{replies: []func(*llm.Request) (*llm.Response, error){say("ok")}}, Events: bus}
	if _, err := a.Run(context.Background(), NewSession("b"), "task"); err != nil {
		t.Fatal(err)
	}
	if got != 1 || bus.Failures() != 1 || failed == nil {
		t.Fatalf("got=%d failures=%d failed=%v", got, bus.Failures(), failed)
	}
	unsub()
	bus.Emit(Event{Kind: TaskStarted})
	if got != 1 {
		t.Fatal("unsubscribe did not work")
	}
	var nilBus *Bus
	nilBus.Emit(Event{Kind: TaskStarted}) // must not panic
}

func TestSessionSaveLoad(t *testing.T) {
	s := NewSession("root")
	s.Append(llm.Message{Role: llm.RoleUser, Content: "task"}, llm.Message{Role: llm.RoleAssistant, ToolCalls: []llm.ToolCall{{ID: "1", Name: "echo", Arguments: "{}"}}})
	child := s.Child("kid")
	if child.ParentID != "root" {
		t.Fatal("child has no parent")
	}
	path := filepath.Join(t.TempDir(), "s.json")
	if err := s.Save(path); err != nil {
		t.Fatal(err)
	}
	back, err := LoadSession(path)
	if err != nil || back.ID != "root" || len(back.Messages) != 2 || back.Messages[1].ToolCalls[0].Name != "echo" {
		t.Fatalf("%+v %v", back, err)
	}
	if s.Tokens() <= 0 {
		t.Fatal("no token estimate")
	}
	if _, err := LoadSession(filepath.Join(t.TempDir(), "missing.json")); err == nil {
		t.Fatal("missing file loaded")
	}
}

func TestTextProtocol(t *testing.T) {
	p := Text{}
	req := &llm.Request{System: "base"}
	p.Prepare(req, []llm.ToolSpec{{Name: "read_code", Description: "Read code.", Parameters: []byte(`{"type":"object"}`)}})
	if req.Tools != nil || !strings.Contains(req.System, "read_code") || !strings.HasPrefix(req.System, "base") {
		t.Fatalf("prepare: %q", req.System)
	}
	extract := func(text string) ([]llm.ToolCall, string) {
		return p.Extract(&llm.Response{Message: llm.Message{Content: text}})
	}
	cases := []struct {
		name, text, wantName, wantArgs, problem string
	}{
		{"plain", "Let me look.\n<TOOL_CALL>\n{\"name\": \"read_code\", \"arguments\": {\"path\": \"a.c\"}}\n</TOOL_CALL>", "read_code", `{"path": "a.c"}`, ""},
		{"missing end tag", "<TOOL_CALL>\n{\"name\": \"read_code\", \"arguments\": {\"path\": \"a.c\"}}", "read_code", `{"path": "a.c"}`, ""},
		{"fenced, trailing comma", "<TOOL_CALL>\n```json\n{\"name\": \"list_files\", \"arguments\": {\"path\": \".\",},}\n```\n</TOOL_CALL>", "list_files", `{"path": "."}`, ""},
		{"string arguments", `<TOOL_CALL>{"name": "x", "arguments": "{\"a\":1}"}</TOOL_CALL>`, "x", `{"a":1}`, ""},
		{"no arguments", `<TOOL_CALL>{"name": "x"}</TOOL_CALL>`, "x", `{}`, ""},
		{"comma in a string", `<TOOL_CALL>{"name": "search_code", "arguments": {"pattern": "memcpy\\(d, s, }"}}</TOOL_CALL>`, "search_code", `{"pattern": "memcpy\\(d, s, }"}`, ""},
		{"trailing comma and a comma in a string", `<TOOL_CALL>{"name": "search_code", "arguments": {"pattern": "f(a, ]",},}</TOOL_CALL>`, "search_code", `{"pattern": "f(a, ]"}`, ""},
		{"two calls", "<TOOL_CALL>{\"name\":\"a\"}</TOOL_CALL><TOOL_CALL>{\"name\":\"b\"}</TOOL_CALL>", "", "", "only one call"},
		{"broken json", "<TOOL_CALL>{name: a}</TOOL_CALL>", "", "", "could not be read"},
		{"no call", "The answer is 42.", "", "", ""},
	}
	for _, c := range cases {
		calls, problem := extract(c.text)
		if c.problem != "" {
			if len(calls) != 0 || !strings.Contains(problem, c.problem) {
				t.Errorf("%s: calls %v problem %q", c.name, calls, problem)
			}
			continue
		}
		if problem != "" {
			t.Errorf("%s: problem %q", c.name, problem)
			continue
		}
		if c.wantName == "" {
			if len(calls) != 0 {
				t.Errorf("%s: unexpected calls %v", c.name, calls)
			}
			continue
		}
		if len(calls) != 1 || calls[0].Name != c.wantName || calls[0].Arguments != c.wantArgs {
			t.Errorf("%s: %+v", c.name, calls)
		}
	}
	msgs := p.Results([]llm.ToolCall{{Name: "read_code"}}, []tool.Result{{Content: "1: int x;", IsError: true}})
	if len(msgs) != 1 || msgs[0].Role != llm.RoleUser || !strings.Contains(msgs[0].Content, `status="error"`) {
		t.Fatalf("results: %+v", msgs)
	}
}

func TestRunWithTextProtocol(t *testing.T) {
	m := &scripted{replies: []func(*llm.Request) (*llm.Response, error){
		say("<TOOL_CALL>\n{\"name\": \"echo\", \"arguments\": {\"text\": \"t\"}}"),
		say("<TOOL_CALL>{\"name\": \"a\"}</TOOL_CALL> <TOOL_CALL>{\"name\": \"b\"}</TOOL_CALL>"),
		say("finished <!!!COMPLETE!!!>"),
	}}
	a := &Agent{Model: m, Tools: tool.NewReadOnlyRegistry(echoTool()), Protocol: Text{}, StopWhen: []StopCondition{CompletionMarker(DefaultCompletionMarker)}}
	res, err := a.Run(context.Background(), NewSession("t"), "task")
	if err != nil || res.StopReason != "completion_marker" {
		t.Fatalf("%+v %v", res, err)
	}
	if len(m.reqs[1].Tools) != 0 || !strings.Contains(m.reqs[1].Messages[2].Content, "echo: t") {
		t.Fatalf("text result not fed back: %+v", m.reqs[1].Messages)
	}
	if !strings.Contains(m.reqs[2].Messages[len(m.reqs[2].Messages)-1].Content, "only one call per reply") {
		t.Fatalf("multi-call refusal not sent: %+v", m.reqs[2].Messages)
	}
}
