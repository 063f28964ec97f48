package plan

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/jsec/jsec/agent"
	"github.com/jsec/jsec/agent/llm"
)

type fn func(req *llm.Request) (*llm.Response, error)

type model struct {
	mu sync.Mutex
	f  fn
	n  int
}

func (m *model) Name() string { return "m" }
func (m *model) Generate(ctx context.Context, req *llm.Request) (*llm.Response, error) {
	m.mu.Lock()
	m.n++
	m.mu.Unlock()
	return m.f(req)
}

func say(s string) (*llm.Response, error) {
	return &llm.Response{Message: llm.Message{Content: s}, Usage: llm.Usage{InputTokens: 1, OutputTokens: 1}}, nil
}

func task(req *llm.Request) string {
	c := req.Messages[0].Content
	if i := strings.Index(c, "Task:\n"); i >= 0 {
		return c[i+6:]
	}
	return c
}

func TestPlanSplitsRecursesAndWritesBack(t *testing.T) {
	planner := &model{f: func(req *llm.Request) (*llm.Response, error) {
		c := req.Messages[0].Content
		switch {
		case strings.Contains(c, "SUB_TASK_RESULTS"):
			return say("summary of: " + strings.Join(strings.Fields(c[strings.Index(c, "<SUB_TASK_RESULTS>"):]), " "))
		case task(req) == "audit the server":
			return say(`<PLAN>["audit parsing", "audit auth"]</PLAN>`)
		case task(req) == "audit parsing":
			return say(`<PLAN>["read parser.c", "read lexer.c"]</PLAN>`)
		}
		return say("<PLAN>[]</PLAN>")
	}}
	workerCalls := map[int][]string{}
	var mu sync.Mutex
	p := &Planner{Model: planner, MaxDepth: 2, Worker: func(depth int) *agent.Agent {
		return &agent.Agent{Model: &model{f: func(req *llm.Request) (*llm.Response, error) {
			t := req.Messages[0].Content
			mu.Lock()
			workerCalls[depth] = append(workerCalls[depth], t)
			mu.Unlock()
			if t == "audit auth" {
				return nil, &llm.ProviderError{Kind: llm.KindBadRequest, Message: "model refused"}
			}
			return say("done " + t)
		}}}
	}}
	s := agent.NewSession("root")
	out, err := p.Run(context.Background(), s, "audit the server", 0)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(out.Plan, "|") != "audit parsing|audit auth" || len(out.Subtasks) != 2 {
		t.Fatalf("plan: %+v", out.Plan)
	}
	parsing := out.Subtasks[0]
	if strings.Join(parsing.Plan, "|") != "read parser.c|read lexer.c" || parsing.Subtasks[0].Result != "done read parser.c" {
		t.Fatalf("nested: %+v", parsing)
	}
	if strings.Join(workerCalls[2], "|") != "read parser.c|read lexer.c" || strings.Join(workerCalls[1], "|") != "audit auth" {
		t.Fatalf("workers ran at depths %v (depth 2 must not split further)", workerCalls)
	}
	if out.Subtasks[1].Err == nil {
		t.Fatal("the failed sub-task lost its error")
	}
	if !strings.Contains(out.Summary, "FAILED") || !strings.Contains(out.Summary, "done read parser.c") {
		t.Fatalf("summary: %s", out.Summary)
	}
	hist := s.History()
	if len(hist) != 2 || !strings.Contains(hist[1].Content, "<PLAN>") || !strings.Contains(hist[1].Content, "<SUB_TASK_RESULTS>") || !strings.Contains(hist[1].Content, "<RESULT_SUMMARY>") {
		t.Fatalf("written back: %+v", hist)
	}
	if out.Usage.Total() == 0 {
		t.Fatal("usage not counted")
	}
}

func TestPlanAtomicAndUnreadable(t *testing.T) {
	for _, answer := range []string{"<PLAN>[]</PLAN>", "I will just do it.", `<PLAN>["only one"]</PLAN>`, "<PLAN>{broken"} {
		p := &Planner{Model: &model{f: func(*llm.Request) (*llm.Response, error) { return say(answer) }},
			Worker: func(int) *agent.Agent {
				return &agent.Agent{Model: &model{f: func(*llm.Request) (*llm.Response, error) { return say("direct") }}}
			}}
		out, err := p.Run(context.Background(), agent.NewSession("x"), "small task", 0)
		if err != nil || out.Result != "direct" || len(out.Subtasks) != 0 {
			t.Errorf("%q: %+v %v", answer, out, err)
		}
	}
	p := &Planner{MaxDepth: 1, Model: &model{f: func(*llm.Request) (*llm.Response, error) { return nil, errors.New("planner down") }}}
	if _, err := p.Run(context.Background(), agent.NewSession("x"), "t", 0); err == nil {
		t.Fatal("planner model failure swallowed")
	}
	p = &Planner{Model: &model{f: func(*llm.Request) (*llm.Response, error) { return say("<PLAN>[]</PLAN>") }}}
	if out, _ := p.Run(context.Background(), agent.NewSession("x"), "t", 0); !errors.Is(out.Err, ErrNoWorker) {
		t.Fatalf("no worker: %v", out.Err)
	}
}
