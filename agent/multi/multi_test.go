package multi

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/jsec/jsec/agent"
	"github.com/jsec/jsec/agent/llm"
	"github.com/jsec/jsec/agent/tool"
)

// brain is a scripted model: it answers from the conversation so far.
type brain struct {
	name string
	mu   sync.Mutex
	fn   func(req *llm.Request) *llm.Response
	reqs []*llm.Request
}

func (b *brain) Name() string { return b.name }

func (b *brain) Generate(ctx context.Context, req *llm.Request) (*llm.Response, error) {
	b.mu.Lock()
	b.reqs = append(b.reqs, req)
	b.mu.Unlock()
	r := b.fn(req)
	r.Usage = llm.Usage{InputTokens: 1, OutputTokens: 1}
	return r, nil
}

func text(s string) *llm.Response {
	return &llm.Response{Message: llm.Message{Role: llm.RoleAssistant, Content: s}}
}

func calls(cs ...llm.ToolCall) *llm.Response {
	return &llm.Response{Message: llm.Message{Role: llm.RoleAssistant, ToolCalls: cs}}
}

func send(to, content string) llm.ToolCall {
	return llm.ToolCall{ID: "s-" + to, Name: "send_message", Arguments: `{"to":"` + to + `","content":"` + content + `"}`}
}

func last(req *llm.Request) llm.Message { return req.Messages[len(req.Messages)-1] }

func TestTeamRoutesWithSummaryAndClear(t *testing.T) {
	lead := &brain{name: "lead", fn: func(req *llm.Request) *llm.Response {
		switch {
		case strings.Contains(last(req).Content, "hand-off") || strings.Contains(last(req).Content, "handing the work"):
			return text("I found strcpy at a.c:3.")
		case len(req.Messages) == 1:
			return calls(send("nobody", "x"))
		case strings.Contains(last(req).Content, "valid names: lead, reviewer"):
			return calls(send("reviewer", "Please confirm a.c:3"), send("reviewer", "second"))
		}
		return text("lead confused")
	}}
	reviewer := &brain{name: "reviewer", fn: func(req *llm.Request) *llm.Response {
		return text("confirmed: " + last(req).Content)
	}}
	team := &Team{Main: "lead", SummaryOnSend: true, ClearAfterSend: true, Agents: map[string]*agent.Agent{
		"lead":     {Model: lead, System: "lead rules"},
		"reviewer": {Model: reviewer, System: "reviewer rules"},
	}}
	res, err := team.Run(context.Background(), "review a.c")
	if err != nil {
		t.Fatal(err)
	}
	if res.Agent != "reviewer" || len(res.Messages) != 1 {
		t.Fatalf("%+v", res)
	}
	m := res.Messages[0]
	if m.From != "lead" || m.To != "reviewer" || m.Content != "Please confirm a.c:3" || m.Summary != "I found strcpy at a.c:3." {
		t.Fatalf("message: %+v", m)
	}
	for _, want := range []string{"from: lead", "summary_of_sender_work: I found strcpy at a.c:3.", "content:\nPlease confirm a.c:3"} {
		if !strings.Contains(res.Final, want) {
			t.Errorf("the recipient did not get %q:\n%s", want, res.Final)
		}
	}
	// The second send in the same reply was refused.
	var refused bool
	for _, r := range lead.reqs {
		for _, msg := range r.Messages {
			if msg.Role == llm.RoleTool && strings.Contains(msg.Content, "only one message per turn") {
				refused = true
			}
		}
	}
	if !refused {
		t.Fatal("a second send_message in the same reply was not refused")
	}
	if len(lead.reqs[len(lead.reqs)-1].Messages) == 0 {
		t.Fatal("the hand-off summary was asked without the sender's history")
	}
	if reviewer.reqs[0].System != "reviewer rules" {
		t.Fatal("the recipient lost its system prompt")
	}
}

func TestSendMessageValidation(t *testing.T) {
	team := &Team{Main: "a", Agents: map[string]*agent.Agent{"a": {}, "b": {}}}
	box := &outbox{}
	reg := tool.NewReadOnlyRegistry(team.sendTool("a", box))
	exec := func(args string) tool.Result {
		r, err := reg.Execute(context.Background(), llm.ToolCall{Name: "send_message", Arguments: args})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	for args, want := range map[string]string{
		`{"to":"c","content":"x"}`: "there is no agent \"c\"; valid names: a, b",
		`{"to":"a","content":"x"}`: "yourself",
		`{"to":"b","content":" "}`: "needs both",
	} {
		if r := exec(args); !r.IsError || !strings.Contains(r.Content, want) {
			t.Errorf("%s: %+v", args, r)
		}
	}
	if r := exec(`{"to":"b","content":"hello"}`); r.IsError {
		t.Fatal(r.Content)
	}
	if r := exec(`{"to":"b","content":"again"}`); !r.IsError || !strings.Contains(r.Content, "one message per turn") {
		t.Fatalf("second message: %+v", r)
	}
	if m := box.take(); m == nil || m.Content != "hello" || box.take() != nil {
		t.Fatal("outbox")
	}
}

func TestTeamPingPongIsBounded(t *testing.T) {
	ping := &brain{fn: func(req *llm.Request) *llm.Response { return calls(send("pong", "ball")) }}
	pong := &brain{fn: func(req *llm.Request) *llm.Response { return calls(send("ping", "ball")) }}
	team := &Team{Main: "ping", MaxMessages: 5, Agents: map[string]*agent.Agent{"ping": {Model: ping}, "pong": {Model: pong}}}
	res, err := team.Run(context.Background(), "play")
	if !errors.Is(err, ErrTooManyMessages) || len(res.Messages) != 5 {
		t.Fatalf("%v %d", err, len(res.Messages))
	}
	if _, err := (&Team{Main: "x", Agents: map[string]*agent.Agent{"a": {}}}).Run(context.Background(), "t"); err == nil {
		t.Fatal("missing main agent accepted")
	}
}

func TestSubAgentAsTool(t *testing.T) {
	child := &agent.Agent{Name: "scout", Model: &brain{fn: func(req *llm.Request) *llm.Response {
		return text("scout found: " + req.Messages[0].Content)
	}}, Tools: tool.NewReadOnlyRegistry()}
	sub, err := AsReadOnlyTool(child, "scout", "Explore.")
	if err != nil {
		t.Fatal(err)
	}
	parent := &agent.Agent{Name: "lead", Tools: tool.NewReadOnlyRegistry(sub), Model: &brain{fn: func(req *llm.Request) *llm.Response {
		if len(req.Messages) == 1 {
			return calls(llm.ToolCall{ID: "1", Name: "scout", Arguments: `{"task":"find parse()"}`})
		}
		return text("lead: " + last(req).Content)
	}}}
	parentSession := agent.NewSession("root")
	res, err := parent.Run(context.Background(), parentSession, "investigate")
	if err != nil {
		t.Fatal(err)
	}
	if res.Final != "lead: scout found: find parse()" {
		t.Fatalf("%q", res.Final)
	}
	// The child ran in its own session: the parent's history holds only the tool result.
	for _, m := range parentSession.History() {
		if m.Role == llm.RoleUser && strings.Contains(m.Content, "find parse()") {
			t.Fatal("the child's conversation leaked into the parent's session")
		}
	}
	writer := &agent.Agent{Name: "w", Tools: tool.NewRegistry(tool.New("rm", "Remove.", func(ctx context.Context, in struct{}) (tool.Result, error) { return tool.Text(""), nil }))}
	if _, err := AsReadOnlyTool(writer, "w", "x"); err == nil {
		t.Fatal("a writing sub-agent became a read-only tool")
	}
	if AsTool(writer, "w", "x") == nil {
		t.Fatal("AsTool")
	}
}

func TestChildSessionHasParent(t *testing.T) {
	var seen *agent.Session
	probe := tool.NewReadOnly("probe", "p", func(ctx context.Context, in struct{}) (tool.Result, error) {
		seen = agent.SessionFrom(ctx)
		return tool.Text("ok"), nil
	})
	child := &agent.Agent{Name: "kid", Tools: tool.NewReadOnlyRegistry(probe), Model: &brain{fn: func(req *llm.Request) *llm.Response {
		if len(req.Messages) == 1 {
			return calls(llm.ToolCall{ID: "p", Name: "probe", Arguments: `{}`})
		}
		return text("done")
	}}}
	sub, _ := AsReadOnlyTool(child, "kid", "k")
	parent := &agent.Agent{Tools: tool.NewReadOnlyRegistry(sub), Model: &brain{fn: func(req *llm.Request) *llm.Response {
		if len(req.Messages) == 1 {
			return calls(llm.ToolCall{ID: "k", Name: "kid", Arguments: `{"task":"t"}`})
		}
		return text("end")
	}}}
	if _, err := parent.Run(context.Background(), agent.NewSession("P"), "go"); err != nil {
		t.Fatal(err)
	}
	if seen == nil || seen.ParentID != "P" || !strings.HasPrefix(seen.ID, "P/kid-") {
		t.Fatalf("child session: %+v", seen)
	}
}
