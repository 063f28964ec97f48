// Package llm is the neutral vocabulary between the agent runtime and
// model providers: messages, tool specifications and calls, usage, the
// Model interface, typed provider errors, retries, and a registry of
// providers by name.
//
// # Design
//
// A provider translates a Request into its wire format and the reply back
// into a Response; it does nothing else. Retries, timeouts and usage
// metering are wrappers around any Model (see Retry and Meter), so that
// each is written and tested once and every provider behaves the same
// under 429s, 5xx and hangs.
package llm

import (
	"context"
	"encoding/json"
)

// Role is who wrote a message.
type Role string

// Roles.
const (
	RoleUser      Role = "user"
	RoleAssistant Role = "assistant"
	// RoleTool carries the result of a tool call back to the model.
	RoleTool Role = "tool"
)

// Message is one turn of a conversation. The system prompt is not a
// message: it travels in Request.System so that it can never be lost when
// history is cleared.
type Message struct {
	Role    Role   `json:"role"`
	Content string `json:"content,omitempty"`
	// ToolCalls are the calls an assistant message makes.
	ToolCalls []ToolCall `json:"tool_calls,omitempty"`
	// ToolCallID and Name identify the call a tool message answers.
	ToolCallID string `json:"tool_call_id,omitempty"`
	Name       string `json:"name,omitempty"`
	// IsError marks a tool result that reports a failure to the model.
	IsError bool `json:"is_error,omitempty"`
}

// ToolCall is one call of a tool by the model. Arguments is the raw JSON
// the model produced; it may be invalid, which the tool layer reports back
// to the model.
type ToolCall struct {
	ID        string `json:"id"`
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

// ToolSpec describes a tool to the model.
type ToolSpec struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	Parameters  json.RawMessage `json:"parameters"` // a JSON Schema object
}

// Request is one model call.
type Request struct {
	System    string
	Messages  []Message
	Tools     []ToolSpec
	MaxTokens int
	// Temperature is nil for the provider's default.
	Temperature *float64
}

// Usage counts tokens.
type Usage struct {
	InputTokens  int `json:"input_tokens"`
	OutputTokens int `json:"output_tokens"`
}

// Total returns input plus output tokens.
func (u Usage) Total() int { return u.InputTokens + u.OutputTokens }

// Add returns the sum of two usages.
func (u Usage) Add(v Usage) Usage {
	return Usage{u.InputTokens + v.InputTokens, u.OutputTokens + v.OutputTokens}
}

// Response is a model's reply.
type Response struct {
	Message Message
	Usage   Usage
	// StopReason is the provider's reason ("stop", "tool_calls",
	// "end_turn", "length" …).
	StopReason string
	Model      string
}

// Model generates a reply. Implementations must honour ctx on every
// network call and return *ProviderError for failures the caller can act
// on.
type Model interface {
	Generate(ctx context.Context, req *Request) (*Response, error)
	// Name identifies the model in reports ("gpt-4o", "qwen2.5-coder").
	Name() string
}
