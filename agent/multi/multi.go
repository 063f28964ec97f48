// Package multi lets agents work together, after the seed's MultiAgent:
// a Team of named agents passes control by sending one message at a time
// (target validated against the team, an optional hand-off summary,
// optional clearing of the sender's history), and AsTool makes an agent a
// tool of another, run in a child session.
package multi

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/jsec/jsec/agent"
	"github.com/jsec/jsec/agent/llm"
	"github.com/jsec/jsec/agent/tool"
)

// SubtaskArgs are the parameters of an agent exposed as a tool.
type SubtaskArgs struct {
	Task string `json:"task" desc:"the task for the sub-agent, with all the context it needs"`
}

// AsTool exposes child as a tool: each call runs child on the task in a
// fresh child session of the caller's session and returns its final
// answer.
func AsTool(child *agent.Agent, name, description string) tool.Tool {
	return tool.New(name, description, subtask(child))
}

// AsReadOnlyTool is AsTool for a child whose tools are all read-only; it
// refuses any other child, so a read-only parent stays read-only.
func AsReadOnlyTool(child *agent.Agent, name, description string) (tool.ReadOnlyTool, error) {
	if child.Tools != nil && !child.Tools.ReadOnly() {
		return nil, fmt.Errorf("sub-agent %s has writing tools; it cannot be a read-only tool", child.Name)
	}
	return tool.NewReadOnly(name, description, subtask(child)), nil
}

func subtask(child *agent.Agent) tool.Func[SubtaskArgs] {
	var mu sync.Mutex
	n := 0
	return func(ctx context.Context, in SubtaskArgs) (tool.Result, error) {
		if strings.TrimSpace(in.Task) == "" {
			return tool.Errorf("task is empty"), nil
		}
		mu.Lock()
		n++
		id := fmt.Sprintf("%s-%d", child.Name, n)
		mu.Unlock()
		var s *agent.Session
		if parent := agent.SessionFrom(ctx); parent != nil {
			s = parent.Child(parent.ID + "/" + id)
		} else {
			s = agent.NewSession(id)
		}
		res, err := child.Run(ctx, s, in.Task)
		if err != nil {
			if ctx.Err() != nil {
				return tool.Result{}, ctx.Err()
			}
			return tool.Errorf("sub-agent %s failed: %v", child.Name, err), nil
		}
		return tool.Text(res.Final), nil
	}
}

// Team is a set of named agents that pass control by messages.
type Team struct {
	Agents map[string]*agent.Agent
	// Main receives the task first.
	Main string
	// SummaryOnSend asks the sender for a hand-off summary of its work,
	// which travels with the message.
	SummaryOnSend bool
	// ClearAfterSend clears the sender's history once its message is sent.
	ClearAfterSend bool
	// MaxMessages bounds the messages of one run (default 20).
	MaxMessages int
}

// Message is one message between agents.
type Message struct {
	From, To, Content, Summary string
}

// Result is a finished team run.
type Result struct {
	Final    string
	Agent    string // the agent that gave the final answer
	Messages []Message
	Usage    llm.Usage
}

// ErrTooManyMessages ends a run whose agents keep passing messages.
var ErrTooManyMessages = errors.New("multi: too many messages")

// SendArgs are send_message's parameters.
type SendArgs struct {
	To      string `json:"to" desc:"name of the agent to send the message to"`
	Content string `json:"content" desc:"the message: background, the request, relevant resources, the expected result"`
}

// outbox holds the one message an agent may send per turn.
type outbox struct {
	mu  sync.Mutex
	msg *SendArgs
}

func (o *outbox) take() *SendArgs {
	o.mu.Lock()
	defer o.mu.Unlock()
	m := o.msg
	o.msg = nil
	return m
}

// sendTool is the per-agent send_message tool. It only records the
// message, so it is read-only.
func (t *Team) sendTool(self string, box *outbox) tool.ReadOnlyTool {
	names := t.names()
	return tool.NewReadOnly("send_message",
		"Hand the work to another agent of the team: "+strings.Join(names, ", ")+". One message per turn; your turn ends when it is sent.",
		func(ctx context.Context, in SendArgs) (tool.Result, error) {
			to := strings.TrimSpace(in.To)
			switch {
			case to == "" || strings.TrimSpace(in.Content) == "":
				return tool.Errorf("send_message needs both 'to' and 'content'"), nil
			case t.Agents[to] == nil:
				return tool.Errorf("there is no agent %q; valid names: %s", to, strings.Join(names, ", ")), nil
			case to == self:
				return tool.Errorf("you cannot send a message to yourself; valid names: %s", strings.Join(names, ", ")), nil
			}
			box.mu.Lock()
			defer box.mu.Unlock()
			if box.msg != nil {
				return tool.Errorf("only one message per turn: already sent to %s", box.msg.To), nil
			}
			box.msg = &SendArgs{To: to, Content: in.Content}
			return tool.Text("message to " + to + " sent"), nil
		})
}

func (t *Team) names() []string {
	var out []string
	for n := range t.Agents {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}
