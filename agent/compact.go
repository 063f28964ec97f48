package agent

import (
	"context"
	"fmt"
	"strings"

	"github.com/jsec/jsec/agent/llm"
)

// Compaction keeps a session within the model's context.
type Compaction struct {
	// Threshold is the history size in tokens above which the history is
	// summarised and cleared before the next model call (0: never).
	Threshold int
	// Prompt asks for the summary; a sensible default is used when empty.
	Prompt string
}

const defaultSummaryPrompt = `Summarise the conversation so far for yourself, to continue the task after the history is cleared.
Keep: the task, what you found (file paths, line numbers, names, facts), what you tried, and what remains to do.
Write plain text, at most 300 words. Do not call tools.`

// compact summarises the history with the model, clears it and restarts
// it from the summary. The system prompt is unaffected (it is not part of
// the history). Events: before/after summary, before/after history clear.
func (a *Agent) compact(ctx context.Context, s *Session, step int) error {
	hist := s.History()
	if len(hist) == 0 {
		return nil
	}
	prompt := a.Compaction.Prompt
	if prompt == "" {
		prompt = defaultSummaryPrompt
	}
	a.Events.Emit(Event{Kind: BeforeSummary, Agent: a.Name, Step: step})
	req := &llm.Request{System: a.System, Messages: []llm.Message{{Role: llm.RoleUser, Content: transcript(hist) + "\n\n" + prompt}}, MaxTokens: 1024}
	resp, err := a.Model.Generate(ctx, req)
	if err != nil {
		return fmt.Errorf("compact history: %w", err)
	}
	summary := strings.TrimSpace(resp.Message.Content)
	if summary == "" {
		summary = "(no summary)"
	}
	a.Events.Emit(Event{Kind: AfterSummary, Agent: a.Name, Step: step, Summary: summary, Response: resp})
	a.Events.Emit(Event{Kind: BeforeHistoryClear, Agent: a.Name, Step: step})
	task := firstUser(hist)
	s.Clear()
	s.Append(llm.Message{Role: llm.RoleUser, Content: task + "\n\n[The earlier conversation was cleared to save context. Your summary of it:]\n" + summary})
	s.mu.Lock()
	s.Summaries++
	s.mu.Unlock()
	a.Events.Emit(Event{Kind: AfterHistoryClear, Agent: a.Name, Step: step, Summary: summary})
	return nil
}

// transcript renders the history as text for the summariser, cutting long
// tool outputs.
func transcript(ms []llm.Message) string {
	var b strings.Builder
	for _, m := range ms {
		content := m.Content
		if len(content) > 4000 {
			content = content[:2000] + "\n[...]\n" + content[len(content)-2000:]
		}
		switch m.Role {
		case llm.RoleTool:
			fmt.Fprintf(&b, "[tool %s result]\n%s\n\n", m.Name, content)
		default:
			fmt.Fprintf(&b, "[%s]\n%s\n", m.Role, content)
			for _, c := range m.ToolCalls {
				fmt.Fprintf(&b, "[call %s %s]\n", c.Name, c.Arguments)
			}
			b.WriteString("\n")
		}
	}
	return b.String()
}

func firstUser(ms []llm.Message) string {
	for _, m := range ms {
		if m.Role == llm.RoleUser {
			return m.Content
		}
	}
	return ""
}
