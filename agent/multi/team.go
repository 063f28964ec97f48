package multi

import (
	"context"
	"fmt"
	"strings"

	"github.com/jsec/jsec/agent"
	"github.com/jsec/jsec/agent/llm"
	"github.com/jsec/jsec/agent/tool"
)

const handoffPrompt = "You are handing the work to another agent. Summarise what you did and found that the recipient needs, in at most 150 words. Do not call tools."

// member is an agent prepared for the team: its own send_message tool,
// outbox and session.
type member struct {
	a   *agent.Agent
	box *outbox
	s   *agent.Session
}

func (t *Team) prepare() (map[string]*member, error) {
	if t.Agents[t.Main] == nil {
		return nil, fmt.Errorf("multi: main agent %q is not in the team (%s)", t.Main, strings.Join(t.names(), ", "))
	}
	ms := map[string]*member{}
	for name, a := range t.Agents {
		box := &outbox{}
		cp := *a
		cp.Name = name
		reg := tool.NewRegistry()
		if a.Tools != nil {
			if a.Tools.ReadOnly() {
				reg = tool.NewReadOnlyRegistry()
			}
			for _, n := range a.Tools.Names() {
				tl, _ := a.Tools.Get(n)
				if err := reg.Add(tl); err != nil {
					return nil, err
				}
			}
		}
		reg.AddReadOnly(t.sendTool(name, box))
		cp.Tools = reg
		cp.StopWhen = append(append([]agent.StopCondition{}, a.StopWhen...), agent.ToolCalled("send_message"))
		ms[name] = &member{a: &cp, box: box, s: agent.NewSession(name)}
	}
	return ms, nil
}

// Run gives task to the main agent and routes messages until an agent
// answers without sending one.
func (t *Team) Run(ctx context.Context, task string) (*Result, error) {
	ms, err := t.prepare()
	if err != nil {
		return nil, err
	}
	max := t.MaxMessages
	if max <= 0 {
		max = 20
	}
	res := &Result{}
	current, input := t.Main, task
	for {
		m := ms[current]
		r, err := m.a.Run(ctx, m.s, input)
		if r != nil {
			res.Usage = res.Usage.Add(r.Usage)
		}
		if err != nil {
			return res, fmt.Errorf("agent %s: %w", current, err)
		}
		msg := m.box.take()
		if msg == nil {
			res.Final, res.Agent = r.Final, current
			return res, nil
		}
		if len(res.Messages) >= max {
			return res, fmt.Errorf("%w (%d)", ErrTooManyMessages, max)
		}
		sent := Message{From: current, To: msg.To, Content: msg.Content}
		if t.SummaryOnSend {
			sent.Summary, err = summarize(ctx, m, res)
			if err != nil {
				return res, err
			}
		}
		if t.ClearAfterSend {
			m.s.Clear()
		}
		res.Messages = append(res.Messages, sent)
		current, input = msg.To, compose(sent)
	}
}

// summarize asks the sender for a hand-off summary on its own history.
func summarize(ctx context.Context, m *member, res *Result) (string, error) {
	hist := append(m.s.History(), llm.Message{Role: llm.RoleUser, Content: handoffPrompt})
	resp, err := m.a.Model.Generate(ctx, &llm.Request{System: m.a.System, Messages: hist, MaxTokens: 512})
	if err != nil {
		return "", fmt.Errorf("hand-off summary of %s: %w", m.a.Name, err)
	}
	res.Usage = res.Usage.Add(resp.Usage)
	return strings.TrimSpace(resp.Message.Content), nil
}

// compose is what the recipient reads, as in the seed: who sent it, the
// sender's summary, the content.
func compose(m Message) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Please handle this message.\nfrom: %s\n", m.From)
	if m.Summary != "" {
		fmt.Fprintf(&b, "summary_of_sender_work: %s\n", m.Summary)
	}
	fmt.Fprintf(&b, "content:\n%s", m.Content)
	return b.String()
}
