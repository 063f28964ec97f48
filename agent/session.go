package agent

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sync"

	"github.com/jsec/jsec/agent/llm"
)

// Session is a conversation's history with token estimates. It holds no
// system prompt (the Agent sends its own with every request). A session
// belongs to one run at a time.
type Session struct {
	ID       string        `json:"id"`
	ParentID string        `json:"parent_id,omitempty"`
	Messages []llm.Message `json:"messages"`
	// Summaries counts compactions so far.
	Summaries int `json:"summaries,omitempty"`

	mu sync.Mutex
	// lastPrompt is the input token count the provider reported for the
	// latest request, and lastLen the history length at that time: the
	// best estimate of the next prompt's size is lastPrompt plus the
	// estimate of what was appended since.
	lastPrompt, lastLen int
}

// NewSession returns an empty session.
func NewSession(id string) *Session { return &Session{ID: id} }

// Child returns a new session whose parent is s, for a sub-agent.
func (s *Session) Child(id string) *Session { return &Session{ID: id, ParentID: s.ID} }

// Append adds messages to the history.
func (s *Session) Append(ms ...llm.Message) {
	s.mu.Lock()
	s.Messages = append(s.Messages, ms...)
	s.mu.Unlock()
}

// History returns a copy of the messages.
func (s *Session) History() []llm.Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]llm.Message(nil), s.Messages...)
}

// Clear drops the history (the system prompt is not in it).
func (s *Session) Clear() {
	s.mu.Lock()
	s.Messages = nil
	s.lastPrompt, s.lastLen = 0, 0
	s.mu.Unlock()
}

// observe records the provider's count of the prompt just sent.
func (s *Session) observe(inputTokens, historyLen int) {
	s.mu.Lock()
	s.lastPrompt, s.lastLen = inputTokens, historyLen
	s.mu.Unlock()
}

// Tokens estimates the history's size in tokens.
func (s *Session) Tokens() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.lastPrompt > 0 && s.lastLen <= len(s.Messages) {
		return s.lastPrompt + EstimateTokens(s.Messages[s.lastLen:]...)
	}
	return EstimateTokens(s.Messages...)
}

// EstimateTokens approximates the token count of messages (about four
// bytes a token, plus a small overhead per message and tool call).
func EstimateTokens(ms ...llm.Message) int {
	n := 0
	for _, m := range ms {
		n += 4 + (len(m.Content)+3)/4
		for _, c := range m.ToolCalls {
			n += 4 + (len(c.Name)+len(c.Arguments)+3)/4
		}
	}
	return n
}

// Save writes the session to path (atomically).
func (s *Session) Save(path string) error {
	s.mu.Lock()
	data, err := json.MarshalIndent(s, "", "  ")
	s.mu.Unlock()
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".session-*")
	if err != nil {
		return fmt.Errorf("save session: %w", err)
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return fmt.Errorf("save session: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("save session: %w", err)
	}
	return os.Rename(tmp.Name(), path)
}

// LoadSession reads a session written by Save.
func LoadSession(path string) (*Session, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("load session: %w", err)
	}
	var s Session
	if err := json.Unmarshal(data, &s); err != nil {
		return nil, fmt.Errorf("load session %s: %w", path, err)
	}
	return &s, nil
}
