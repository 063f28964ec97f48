// Package anthropic is the provider for Anthropic's Messages API, built on
// the official github.com/anthropics/anthropic-sdk-go SDK. The base URL is
// the host (https://api.anthropic.com, the default, or a gateway's); the
// SDK adds /v1/messages.
//
// The SDK's own retries are turned off (llm.Retry decides, so that every
// provider retries the same way), and so is its reading of the
// environment (ANTHROPIC_API_KEY, ANTHROPIC_BASE_URL, profiles, custom
// headers): llm.Config is the one source of configuration.
package anthropic

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

	sdk "github.com/anthropics/anthropic-sdk-go"
	"github.com/anthropics/anthropic-sdk-go/option"

	"github.com/jsec/jsec/agent/llm"
)

// DefaultMaxTokens bounds a reply when the request does not: the Messages
// API requires max_tokens.
const DefaultMaxTokens = 4096

// defaultRequestTimeout is what the SDK is told when llm.Config has no
// timeout. Without an explicit one the SDK refuses non-streaming requests
// whose max_tokens it expects to take over ten minutes.
const defaultRequestTimeout = 10 * time.Minute

const provider = "anthropic"

// Model talks to one Anthropic model.
type Model struct {
	client  sdk.Client
	model   string
	timeout time.Duration
	// redact removes the API key from error text a server might echo.
	redact *strings.Replacer
	now    func() time.Time
}

// New builds the provider from a configuration. It fits llm.Factory.
func New(c llm.Config) (llm.Model, error) {
	if c.APIKey == "" && c.BaseURL == "" {
		return nil, errors.New("anthropic: no API key (set " + llm.EnvAPIKey + " or ANTHROPIC_API_KEY)")
	}
	opts := []option.RequestOption{
		option.WithoutEnvironmentDefaults(), option.WithMaxRetries(0), option.WithMiddleware(captureErrors),
	}
	if c.BaseURL != "" {
		opts = append(opts, option.WithBaseURL(baseURL(c.BaseURL)))
	}
	redact := strings.NewReplacer()
	if c.APIKey != "" {
		// A gateway may need no key; Anthropic answers 401 without one.
		opts = append(opts, option.WithAPIKey(c.APIKey))
		redact = strings.NewReplacer(c.APIKey, "[redacted]")
	}
	if c.HTTPClient != nil {
		opts = append(opts, option.WithHTTPClient(c.HTTPClient))
	}
	timeout := c.Timeout
	if timeout <= 0 {
		timeout = defaultRequestTimeout
	}
	return &Model{client: sdk.NewClient(opts...), model: c.Model, timeout: timeout, redact: redact, now: time.Now}, nil
}

// baseURL turns the configured host into the SDK's base URL. The SDK
// appends v1/messages itself, so a base that already ends in /v1 (the
// OpenAI habit) would reach /v1/v1/messages; the suffix is dropped.
func baseURL(s string) string {
	s = strings.TrimRight(s, "/")
	s = strings.TrimSuffix(s, "/v1")
	return s + "/"
}

// Name returns the model name.
func (m *Model) Name() string { return m.model }

// String describes the model without the key.
func (m *Model) String() string { return provider + ":" + m.model }

// Generate sends one Messages API request.
func (m *Model) Generate(ctx context.Context, req *llm.Request) (*llm.Response, error) {
	params, err := m.params(req)
	if err != nil {
		return nil, err
	}
	failed := &failure{}
	resp, err := m.client.Messages.New(context.WithValue(ctx, failureKey{}, failed), params, option.WithRequestTimeout(m.timeout))
	if err != nil {
		return nil, m.wrap(ctx, err, failed)
	}
	return response(resp), nil
}

// params converts a neutral request into the SDK's.
func (m *Model) params(req *llm.Request) (sdk.MessageNewParams, error) {
	p := sdk.MessageNewParams{Model: sdk.Model(m.model), MaxTokens: DefaultMaxTokens, Messages: messages(req.Messages)}
	if req.MaxTokens > 0 {
		p.MaxTokens = int64(req.MaxTokens)
	}
	if req.System != "" {
		p.System = []sdk.TextBlockParam{{Text: req.System}}
	}
	if req.Temperature != nil {
		p.Temperature = sdk.Float(*req.Temperature)
	}
	for _, t := range req.Tools {
		schema, err := inputSchema(t.Parameters)
		if err != nil {
			return p, fmt.Errorf("tool %s: invalid schema: %w", t.Name, err)
		}
		tp := sdk.ToolParam{Name: t.Name, InputSchema: schema}
		if t.Description != "" {
			tp.Description = sdk.String(t.Description)
		}
		p.Tools = append(p.Tools, sdk.ToolUnionParam{OfTool: &tp})
	}
	return p, nil
}

// inputSchema splits a JSON Schema object into the SDK's input_schema:
// properties and required have fields of their own, every other keyword
// (additionalProperties, $defs …) travels as an extra field.
func inputSchema(raw json.RawMessage) (sdk.ToolInputSchemaParam, error) {
	// No parameters: an empty object schema. The field is required, and
	// the SDK omits a zero-valued one.
	s := sdk.ToolInputSchemaParam{Properties: map[string]any{}}
	if len(bytes.TrimSpace(raw)) == 0 {
		return s, nil
	}
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		return s, err
	}
	if t, ok := m["type"]; ok && t != "object" {
		return s, fmt.Errorf("type is %v; a tool's input must be an object", t)
	}
	if props, ok := m["properties"]; ok {
		s.Properties = props
	}
	if req, ok := m["required"].([]any); ok {
		for _, r := range req {
			if name, ok := r.(string); ok {
				s.Required = append(s.Required, name)
			}
		}
	}
	delete(m, "type")
	delete(m, "properties")
	delete(m, "required")
	if len(m) > 0 {
		s.ExtraFields = m
	}
	return s, nil
}

// messages converts the neutral history to Messages API turns. Tool
// results are user content in this API, so consecutive tool messages (and
// a user message that follows them) become one user turn; empty texts are
// left out, because the API rejects empty text blocks, and turns of the
// same role are joined, because the API expects them to alternate.
func messages(history []llm.Message) []sdk.MessageParam {
	var out []sdk.MessageParam
	add := func(role sdk.MessageParamRole, blocks ...sdk.ContentBlockParamUnion) {
		if len(blocks) == 0 {
			return
		}
		if n := len(out); n > 0 && out[n-1].Role == role {
			out[n-1].Content = append(out[n-1].Content, blocks...)
			return
		}
		out = append(out, sdk.MessageParam{Role: role, Content: blocks})
	}
	for _, m := range history {
		switch m.Role {
		case llm.RoleUser:
			add(sdk.MessageParamRoleUser, text(m.Content)...)
		case llm.RoleTool:
			add(sdk.MessageParamRoleUser, toolResult(m))
		case llm.RoleAssistant:
			blocks := text(m.Content)
			for _, c := range m.ToolCalls {
				blocks = append(blocks, sdk.NewToolUseBlock(c.ID, toolInput(c.Arguments), c.Name))
			}
			add(sdk.MessageParamRoleAssistant, blocks...)
		}
	}
	return out
}

func text(s string) []sdk.ContentBlockParamUnion {
	if s == "" {
		return nil
	}
	return []sdk.ContentBlockParamUnion{sdk.NewTextBlock(s)}
}

func toolResult(m llm.Message) sdk.ContentBlockParamUnion {
	r := sdk.ToolResultBlockParam{ToolUseID: m.ToolCallID}
	if m.Content != "" {
		r.Content = []sdk.ToolResultBlockParamContentUnion{{OfText: &sdk.TextBlockParam{Text: m.Content}}}
	}
	if m.IsError {
		r.IsError = sdk.Bool(true)
	}
	return sdk.ContentBlockParamUnion{OfToolResult: &r}
}

// toolInput is a call's arguments as the tool_use input, which must be a
// JSON object. Arguments that are not one (a model's malformed call, kept
// so that its error result has a call to answer) are sent as {}.
func toolInput(args string) any {
	var obj map[string]json.RawMessage
	if err := json.Unmarshal([]byte(args), &obj); err != nil || obj == nil {
		return map[string]any{}
	}
	return json.RawMessage(strings.TrimSpace(args))
}

// response converts the SDK's reply: text blocks joined, tool_use blocks
// as calls with their raw JSON input; thinking and server-tool blocks are
// not part of the neutral vocabulary and are dropped.
func response(resp *sdk.Message) *llm.Response {
	out := &llm.Response{
		Message:    llm.Message{Role: llm.RoleAssistant},
		StopReason: string(resp.StopReason),
		Model:      string(resp.Model),
		// The prompt's size is the uncached input plus what was read from
		// or written to the prompt cache; compaction needs the size.
		Usage: llm.Usage{
			InputTokens:  int(resp.Usage.InputTokens + resp.Usage.CacheReadInputTokens + resp.Usage.CacheCreationInputTokens),
			OutputTokens: int(resp.Usage.OutputTokens),
		},
	}
	var content strings.Builder
	for _, b := range resp.Content {
		switch b.Type {
		case "text":
			content.WriteString(b.Text)
		case "tool_use":
			args := strings.TrimSpace(string(b.Input))
			if args == "" || args == "null" {
				args = "{}"
			}
			out.Message.ToolCalls = append(out.Message.ToolCalls, llm.ToolCall{ID: b.ID, Name: b.Name, Arguments: args})
		}
	}
	out.Message.Content = content.String()
	return out
}

// failure is the last error response of a call, captured by middleware so
// that the status, headers and body are at hand whatever the SDK makes of
// them.
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
		errType, msg := apiError(f.body)
		if msg == "" {
			msg = f.body
		}
		if errType != "" {
			msg += " (" + errType + ")"
		}
		kind := classify(f.status, errType, msg, f.header)
		// Redact before cutting, so that no part of the key survives.
		msg = m.redact.Replace(msg)
		if len(msg) > 500 {
			msg = strings.ToValidUTF8(msg[:500], "") + "…"
		}
		return &llm.ProviderError{Provider: provider, Status: f.status, Kind: kind,
			RetryAfter: llm.ParseRetryAfter(f.header, m.now()), Message: msg, Err: m.scrub(err)}
	}
	// No HTTP response: connection refused or reset, a timeout, a body
	// that does not decode. All are worth another try.
	err = m.scrub(err)
	return &llm.ProviderError{Provider: provider, Kind: llm.KindRetryable, Message: err.Error(), Err: err}
}

// scrub returns err, or, when its text holds the API key (a server that
// echoes it), a plain error with the key removed: the original, which
// errors.Unwrap would reach, is dropped.
func (m *Model) scrub(err error) error {
	text := err.Error()
	if clean := m.redact.Replace(text); clean != text {
		return errors.New(clean)
	}
	return err
}

// apiError reads Anthropic's error body:
// {"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}.
func apiError(body string) (errType, message string) {
	var e struct {
		Error struct {
			Type    string `json:"type"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if json.Unmarshal([]byte(body), &e) != nil {
		return "", ""
	}
	return e.Error.Type, e.Error.Message
}

// classify is llm.ClassifyStatus plus what Anthropic says in its error
// types and its x-should-retry header.
func classify(status int, errType, msg string, h http.Header) llm.ErrorKind {
	kind := llm.ClassifyStatus(status, msg)
	switch {
	case kind == llm.KindContextTooLarge || strings.Contains(msg, "exceed context limit"):
		// "input length and `max_tokens` exceed context limit: …":
		// compaction shortens the input.
		return llm.KindContextTooLarge
	case errType == "authentication_error" || errType == "permission_error":
		return llm.KindAuth
	case errType == "overloaded_error" || errType == "rate_limit_error" || errType == "api_error":
		return llm.KindRetryable
	}
	if kind == llm.KindAuth {
		return kind
	}
	switch h.Get("X-Should-Retry") {
	case "true":
		return llm.KindRetryable
	case "false":
		if kind == llm.KindRetryable {
			return llm.KindOther
		}
	}
	return kind
}
