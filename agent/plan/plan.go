// Package plan splits a task into sub-tasks, after the seed's TaskPlanner:
// a model decides whether a task should be split, each sub-task runs in a
// worker agent in a child session (recursively, up to a depth limit), one
// sub-task's failure does not stop the others, and the plan, the results
// and a summary are written back to the parent session.
package plan

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"sync"

	"github.com/jsec/jsec/agent"
	"github.com/jsec/jsec/agent/llm"
)

// Planner decides, splits, delegates and summarises.
type Planner struct {
	// Model decides whether to split and writes the summary.
	Model llm.Model
	// Worker builds the agent that executes a task at a depth; it should
	// inherit the parent's tools and configuration.
	Worker func(depth int) *agent.Agent
	// MaxDepth bounds recursion: at MaxDepth a task is executed, not
	// split (default 2).
	MaxDepth int
	// MaxSubtasks caps a plan (default 6).
	MaxSubtasks int
}

// Outcome is what happened to a task.
type Outcome struct {
	Task     string
	Result   string
	Err      error
	Plan     []string
	Subtasks []*Outcome
	Summary  string
	Usage    llm.Usage
}

const splitPrompt = `Decide whether the task below should be split into independent sub-tasks that can each be done separately.
If it is small enough to do directly, answer exactly: <PLAN>[]</PLAN>
Otherwise answer with a JSON array of 2 to %d sub-task descriptions, each complete on its own, in the order to do them:
<PLAN>["first sub-task", "second sub-task"]</PLAN>
Answer with the PLAN block only.

Task:
%s`

const summaryPrompt = `You split a task into sub-tasks; their results are below. Write the answer to the original task from them, noting any sub-task that failed.

Original task:
%s

<SUB_TASK_RESULTS>
%s
</SUB_TASK_RESULTS>`

var planRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?s)<PLAN>(.*?)(?:</PLAN>|$)`) })

// Run plans and executes task in session s at the given depth (0 for the
// top level). Only cancellation and a failure of the planner's own model
// calls are errors; worker failures are recorded in the outcome.
func (p *Planner) Run(ctx context.Context, s *agent.Session, task string, depth int) (*Outcome, error) {
	maxDepth := p.MaxDepth
	if maxDepth <= 0 {
		maxDepth = 2
	}
	out := &Outcome{Task: task}
	if depth < maxDepth {
		plan, usage, err := p.split(ctx, task)
		out.Usage = out.Usage.Add(usage)
		if err != nil {
			return out, err
		}
		out.Plan = plan
	}
	if len(out.Plan) == 0 {
		p.execute(ctx, s, out, depth)
		return out, ctx.Err()
	}
	var results strings.Builder
	for i, sub := range out.Plan {
		child := s.Child(fmt.Sprintf("%s/%d", s.ID, i+1))
		so, err := p.Run(ctx, child, sub, depth+1)
		out.Subtasks = append(out.Subtasks, so)
		out.Usage = out.Usage.Add(so.Usage)
		if err != nil && ctx.Err() != nil {
			return out, err
		}
		fmt.Fprintf(&results, "## %d. %s\n", i+1, sub)
		if so.Err != nil {
			fmt.Fprintf(&results, "FAILED: %v\n\n", so.Err)
		} else {
			fmt.Fprintf(&results, "%s\n\n", so.Result)
		}
	}
	resp, err := p.Model.Generate(ctx, &llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Content: fmt.Sprintf(summaryPrompt, task, results.String())}}, MaxTokens: 2048})
	if err != nil {
		return out, fmt.Errorf("plan summary: %w", err)
	}
	out.Usage = out.Usage.Add(resp.Usage)
	out.Summary = strings.TrimSpace(resp.Message.Content)
	out.Result = out.Summary
	planJSON, _ := json.Marshal(out.Plan)
	s.Append(
		llm.Message{Role: llm.RoleUser, Content: task},
		llm.Message{Role: llm.RoleAssistant, Content: fmt.Sprintf("<PLAN>%s</PLAN>\n<SUB_TASK_RESULTS>\n%s</SUB_TASK_RESULTS>\n<RESULT_SUMMARY>\n%s\n</RESULT_SUMMARY>", planJSON, results.String(), out.Summary)},
	)
	return out, nil
}

// split asks the model for a plan; an unreadable answer means "do it
// directly".
func (p *Planner) split(ctx context.Context, task string) ([]string, llm.Usage, error) {
	max := p.MaxSubtasks
	if max <= 0 {
		max = 6
	}
	resp, err := p.Model.Generate(ctx, &llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Content: fmt.Sprintf(splitPrompt, max, task)}}, MaxTokens: 1024})
	if err != nil {
		return nil, llm.Usage{}, fmt.Errorf("plan: %w", err)
	}
	m := planRE().FindStringSubmatch(resp.Message.Content)
	if m == nil {
		return nil, resp.Usage, nil
	}
	var plan []string
	if json.Unmarshal([]byte(strings.TrimSpace(m[1])), &plan) != nil {
		return nil, resp.Usage, nil
	}
	var clean []string
	for _, t := range plan {
		if t = strings.TrimSpace(t); t != "" {
			clean = append(clean, t)
		}
	}
	if len(clean) < 2 {
		return nil, resp.Usage, nil // a plan of one is no plan
	}
	if len(clean) > max {
		clean = clean[:max]
	}
	return clean, resp.Usage, nil
}

// ErrNoWorker is recorded when the planner has no way to execute a task.
var ErrNoWorker = errors.New("plan: no worker agent")

func (p *Planner) execute(ctx context.Context, s *agent.Session, out *Outcome, depth int) {
	if p.Worker == nil {
		out.Err = ErrNoWorker
		return
	}
	res, err := p.Worker(depth).Run(ctx, s, out.Task)
	if res != nil {
		out.Usage = out.Usage.Add(res.Usage)
		out.Result = res.Final
	}
	out.Err = err
}
