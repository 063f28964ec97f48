// Package openai is the provider for OpenAI and every OpenAI-compatible
// chat-completions server (vLLM, Ollama, llama.cpp server, DeepSeek,
// Qwen, LM Studio …), built on the official github.com/openai/openai-go
// SDK. The base URL selects the server and ends in /v1
// (http://localhost:11434/v1 for Ollama, http://localhost:8000/v1 for vLLM).
//
// The SDK's own retries are turned off: llm.Retry decides, so that every
// provider retries the same way.
package openai

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	oai "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/shared"

	"github.com/jsec/jsec/agent/llm"
)

// Model talks to one model of an OpenAI-compatible server.
type Model struct {
	client oai.Client
	model  string
	now    func() time.Time
}

// New builds the provider from a configuration. It fits llm.Factory.
func New(c llm.Config) (llm.Model, error) {
	opts := []option.RequestOption{option.WithMaxRetries(0), option.WithMiddleware(captureErrors)}
	if c.BaseURL != "" {
		opts = append(opts, option.WithBaseURL(strings.TrimRight(c.BaseURL, "/")+"/"))
	}
	key := c.APIKey
	if key == "" {
		// Local servers (Ollama, vLLM, llama.cpp) need no key, but the SDK
		// insists on one.
		key = "none"
	}
	opts = append(opts, option.WithAPIKey(key))
	if c.HTTPClient != nil {
		opts = append(opts, option.WithHTTPClient(c.HTTPClient))
	}
	return &Model{client: oai.NewClient(opts...), model: c.Model, now: time.Now}, nil
}

// Name returns the model name.
func (m *Model) Name() string { return m.model }

// Generate sends one chat completion.
func (m *Model) Generate(ctx context.Context, req *llm.Request) (*llm.Response, error) {
	params := oai.ChatCompletionNewParams{Model: shared.ChatModel(m.model), Messages: messages(req)}
	for _, t := range req.Tools {
		var schema map[string]any
		if err := json.Unmarshal(t.Parameters, &schema); err != nil {
			return nil, fmt.Errorf("tool %s: invalid schema: %w", t.Name, err)
		}
		params.Tools = append(params.Tools, oai.ChatCompletionFunctionTool(shared.FunctionDefinitionParam{
			Name: t.Name, Description: oai.String(t.Description), Parameters: shared.FunctionParameters(schema),
		}))
	}
	if req.MaxTokens > 0 {
		// max_tokens, not max_completion_tokens: compatible servers know it.
		params.MaxTokens = oai.Int(int64(req.MaxTokens))
	}
	if req.Temperature != nil {
		params.Temperature = oai.Float(*req.Temperature)
	}
	failed := &failure{}
	resp, err := m.client.Chat.Completions.New(context.WithValue(ctx, failureKey{}, failed), params)
	if err != nil {
		return nil, m.wrap(ctx, err, failed)
	}
	if len(resp.Choices) == 0 {
		return nil, &llm.ProviderError{Provider: "openai", Kind: llm.KindRetryable, Message: "the server returned no choices"}
	}
	ch := resp.Choices[0]
	out := &llm.Response{
		Message:    llm.Message{Role: llm.RoleAssistant, Content: ch.Message.Content},
		Usage:      llm.Usage{InputTokens: int(resp.Usage.PromptTokens), OutputTokens: int(resp.Usage.CompletionTokens)},
		StopReason: string(ch.FinishReason),
		Model:      resp.Model,
	}
	for _, tc := range ch.Message.ToolCalls {
		if tc.Type != "" && tc.Type != "function" {
			continue
		}
		out.Message.ToolCalls = append(out.Message.ToolCalls, llm.ToolCall{ID: tc.ID, Name: tc.Function.Name, Arguments: tc.Function.Arguments})
	}
	return out, nil
}

// messages converts the neutral history to chat-completions messages.
func messages(req *llm.Request) []oai.ChatCompletionMessageParamUnion {
	var out []oai.ChatCompletionMessageParamUnion
	if req.System != "" {
		out = append(out, oai.SystemMessage(req.System))
	}
	for _, m := range req.Messages {
		switch m.Role {
		case llm.RoleUser:
			out = append(out, oai.UserMessage(m.Content))
		case llm.RoleTool:
			content := m.Content
			if m.IsError && !strings.HasPrefix(content, "ERROR") {
				content = "ERROR: " + content
			}
			out = append(out, oai.ToolMessage(content, m.ToolCallID))
		case llm.RoleAssistant:
			a := oai.ChatCompletionAssistantMessageParam{}
			if m.Content != "" || len(m.ToolCalls) == 0 {
				a.Content.OfString = oai.String(m.Content)
			}
			for _, c := range m.ToolCalls {
				a.ToolCalls = append(a.ToolCalls, oai.ChatCompletionMessageToolCallUnionParam{
					OfFunction: &oai.ChatCompletionMessageFunctionToolCallParam{
						ID:       c.ID,
						Function: oai.ChatCompletionMessageFunctionToolCallFunctionParam{Name: c.Name, Arguments: c.Arguments},
					},
				})
			}
			out = append(out, oai.ChatCompletionMessageParamUnion{OfAssistant: &a})
		}
	}
	return out
}

// failure is the last error response of a call, captured by middleware
// because servers word errors in shapes the SDK cannot always decode
// (llama.cpp and Ollama send {"error": "text"}).
type failure struct {
	status int
	header http.Header
	body   string
}

type failureKey struct{}

func captureErrors(req *http.Request, next option.MiddlewareNext) (*http.Response, error) {
	resp, err := next(req)
	f, ok := req.Context().Value(failureKey{}).(*failure)
	if !ok || resp == nil || resp.StatusCode < 400 {
		return resp, err
	}
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	resp.Body.Close()
	resp.Body = io.NopCloser(bytes.NewReader(body))
	f.status, f.header, f.body = resp.StatusCode, resp.Header.Clone(), strings.TrimSpace(string(body))
	return resp, err
}

// wrap turns SDK and transport errors into *llm.ProviderError.
func (m *Model) wrap(ctx context.Context, err error, f *failure) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if f.status != 0 {
		msg := f.body
		var apiErr *oai.Error
		if errors.As(err, &apiErr) && apiErr.Message != "" {
			msg = apiErr.Message + " (" + apiErr.Code + ")"
		}
		if len(msg) > 500 {
			msg = msg[:500] + "…"
		}
		return &llm.ProviderError{Provider: "openai", Status: f.status, Kind: llm.ClassifyStatus(f.status, msg),
			RetryAfter: llm.ParseRetryAfter(f.header, m.now()), Message: msg, Err: err}
	}
	// No HTTP response: connection refused or reset, a timeout, a body
	// that does not decode. All are worth another try.
	return &llm.ProviderError{Provider: "openai", Kind: llm.KindRetryable, Message: err.Error(), Err: err}
}
