package agent

import (
	"context"
	"fmt"

	"github.com/jsec/jsec/agent/llm"
	"github.com/jsec/jsec/agent/tool"
)

// Agent is a model with a system prompt and tools.
type Agent struct {
	Name   string
	Model  llm.Model
	System string
	Tools  *tool.Registry
	// Protocol carries tool calls; nil means native function calling.
	Protocol Protocol
	// StopWhen ends the run early; a run also ends when the model replies
	// without calling a tool (unless Nudge keeps it going).
	StopWhen []StopCondition
	// Nudge, when set, is asked what to tell a model that replied without
	// a tool call; an empty answer ends the run as completed. The verifier
	// uses it to insist on submit_verdict.
	Nudge func(steps []Step) string
	// Events receives the run's events (nil: none).
	Events     *Bus
	Compaction Compaction
	// MaxTokens bounds each reply (0: provider default).
	MaxTokens int
}

// Step is one model call and the tool calls it made.
type Step struct {
	Response *llm.Response
	Calls    []llm.ToolCall
	Results  []tool.Result
}

// Result is a finished run.
type Result struct {
	// Final is the model's last text.
	Final      string
	Steps      []Step
	Usage      llm.Usage
	StopReason string
}

// Run executes task in session s until a stop condition holds, the model
// answers without a tool call, ctx ends, or a model call fails for good.
// On error the partial Result is returned too.
func (a *Agent) Run(ctx context.Context, s *Session, task string) (*Result, error) {
	proto := a.Protocol
	if proto == nil {
		proto = Native{}
	}
	res := &Result{}
	a.Events.Emit(Event{Kind: TaskStarted, Agent: a.Name})
	s.Append(llm.Message{Role: llm.RoleUser, Content: task})
	ctx = WithSession(ctx, s)
	for step := 1; ; step++ {
		resp, err := a.call(ctx, s, proto, step)
		if err != nil {
			return res, err
		}
		res.Usage = res.Usage.Add(resp.Usage)
		res.Final = resp.Message.Content
		calls, problem := proto.Extract(resp)
		s.Append(proto.Assistant(resp, calls))
		st := Step{Response: resp, Calls: calls}
		for i := range calls {
			r, err := a.execute(ctx, &calls[i], step)
			if err != nil {
				return res, err
			}
			st.Results = append(st.Results, r)
		}
		res.Steps = append(res.Steps, st)
		s.Append(proto.Results(calls, st.Results)...)
		if stop, why := a.shouldStop(res.Steps); stop {
			res.StopReason = why
			break
		}
		if problem != "" {
			s.Append(llm.Message{Role: llm.RoleUser, Content: problem})
			continue
		}
		if len(calls) == 0 {
			if a.Nudge != nil {
				if msg := a.Nudge(res.Steps); msg != "" {
					s.Append(llm.Message{Role: llm.RoleUser, Content: msg})
					continue
				}
			}
			res.StopReason = ReasonCompleted
			break
		}
	}
	a.Events.Emit(Event{Kind: TaskCompleted, Agent: a.Name, Step: len(res.Steps), Summary: res.StopReason})
	return res, nil
}

// call makes one model call, compacting the history first when it is over
// the threshold, and once more if the provider says the prompt is too long.
func (a *Agent) call(ctx context.Context, s *Session, proto Protocol, step int) (*llm.Response, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if t := a.Compaction.Threshold; t > 0 && s.Tokens() > t {
		if err := a.compact(ctx, s, step); err != nil {
			return nil, err
		}
	}
	for attempt := 0; ; attempt++ {
		req := &llm.Request{System: a.System, Messages: s.History(), MaxTokens: a.MaxTokens}
		if a.Tools != nil {
			proto.Prepare(req, a.Tools.Specs())
		}
		a.Events.Emit(Event{Kind: BeforeModelCall, Agent: a.Name, Step: step, Request: req})
		resp, err := a.Model.Generate(ctx, req)
		a.Events.Emit(Event{Kind: AfterModelCall, Agent: a.Name, Step: step, Request: req, Response: resp, Err: err})
		if err == nil {
			s.observe(resp.Usage.InputTokens, len(req.Messages))
			return resp, nil
		}
		if !llm.IsContextTooLarge(err) || attempt > 0 || len(req.Messages) <= 1 {
			return nil, fmt.Errorf("model call (step %d): %w", step, err)
		}
		if cerr := a.compact(ctx, s, step); cerr != nil {
			return nil, cerr
		}
	}
}

type sessionKey struct{}

// WithSession returns ctx carrying s; Run gives it to every tool call so
// that tools running sub-agents can open child sessions.
func WithSession(ctx context.Context, s *Session) context.Context {
	return context.WithValue(ctx, sessionKey{}, s)
}

// SessionFrom returns the session of the run that is calling a tool, or
// nil.
func SessionFrom(ctx context.Context) *Session {
	s, _ := ctx.Value(sessionKey{}).(*Session)
	return s
}

func (a *Agent) execute(ctx context.Context, c *llm.ToolCall, step int) (tool.Result, error) {
	a.Events.Emit(Event{Kind: BeforeToolCall, Agent: a.Name, Step: step, Call: c})
	var r tool.Result
	var err error
	if a.Tools == nil {
		r = tool.Errorf("no tools are available")
	} else {
		r, err = a.Tools.Execute(ctx, *c)
	}
	a.Events.Emit(Event{Kind: AfterToolCall, Agent: a.Name, Step: step, Call: c, Result: &r, Err: err})
	return r, err
}

func (a *Agent) shouldStop(steps []Step) (bool, string) {
	for _, cond := range a.StopWhen {
		if stop, why := cond(steps); stop {
			return true, why
		}
	}
	return false, ""
}
