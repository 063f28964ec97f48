package agent

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"sync"

	"github.com/jsec/jsec/agent/llm"
	"github.com/jsec/jsec/agent/tool"
)

// Protocol carries tool calls between the loop and the model.
type Protocol interface {
	// Prepare offers the tools to the model in req.
	Prepare(req *llm.Request, tools []llm.ToolSpec)
	// Extract returns the calls in a reply; problem, when not empty, is
	// told to the model (a malformed call it should resend).
	Extract(resp *llm.Response) (calls []llm.ToolCall, problem string)
	// Assistant is the history entry for the reply.
	Assistant(resp *llm.Response, calls []llm.ToolCall) llm.Message
	// Results are the history entries that carry the tool results.
	Results(calls []llm.ToolCall, results []tool.Result) []llm.Message
}

// Native uses the provider's function calling.
type Native struct{}

// Prepare implements Protocol.
func (Native) Prepare(req *llm.Request, tools []llm.ToolSpec) { req.Tools = tools }

// Extract implements Protocol.
func (Native) Extract(resp *llm.Response) ([]llm.ToolCall, string) {
	calls := append([]llm.ToolCall(nil), resp.Message.ToolCalls...)
	for i := range calls {
		if calls[i].ID == "" {
			calls[i].ID = fmt.Sprintf("call_%d", i+1)
		}
	}
	return calls, ""
}

// Assistant implements Protocol.
func (Native) Assistant(resp *llm.Response, calls []llm.ToolCall) llm.Message {
	return llm.Message{Role: llm.RoleAssistant, Content: resp.Message.Content, ToolCalls: calls}
}

// Results implements Protocol.
func (Native) Results(calls []llm.ToolCall, results []tool.Result) []llm.Message {
	out := make([]llm.Message, 0, len(calls))
	for i, c := range calls {
		r := results[i]
		out = append(out, llm.Message{Role: llm.RoleTool, ToolCallID: c.ID, Name: c.Name, Content: r.Content, IsError: r.IsError})
	}
	return out
}

// Text is the seed's text protocol for models without native tool
// calling: the tools are described in the system prompt, and the model
// writes one call per reply as a JSON object in a TOOL_CALL block:
//
//	<TOOL_CALL>
//	{"name": "read_code", "arguments": {"path": "src/a.c", "start_line": 1, "end_line": 40}}
//	</TOOL_CALL>
//
// A missing end tag is repaired, code fences and trailing commas are
// tolerated, and a reply with several blocks is refused with an
// explanation, as in the seed.
type Text struct{}

// Tags of the text protocol.
const (
	TagCall   = "<TOOL_CALL>"
	TagCallEn = "</TOOL_CALL>"
)

// Prepare implements Protocol.
func (Text) Prepare(req *llm.Request, tools []llm.ToolSpec) {
	var b strings.Builder
	b.WriteString("\n\n# Tools\nYou can call one tool per reply. Write the call as a JSON object between the tags, exactly like this, and nothing after it:\n")
	b.WriteString(TagCall + "\n{\"name\": \"<tool name>\", \"arguments\": {<arguments>}}\n" + TagCallEn + "\n")
	b.WriteString("The result comes back in the next message. When you need no more tools, reply without a " + TagCall + " block.\n\nAvailable tools:\n")
	for _, t := range tools {
		fmt.Fprintf(&b, "- %s: %s\n  parameters (JSON Schema): %s\n", t.Name, t.Description, t.Parameters)
	}
	req.System += b.String()
	req.Tools = nil
}

var fenceRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile("(?s)^```[a-zA-Z0-9]*\\s*(.*?)\\s*```$") })

// dropTrailingCommas removes each comma that only white space separates
// from a closing brace or bracket, outside JSON strings ({"a": 1,} is
// what models write).
func dropTrailingCommas(s string) string {
	var b strings.Builder
	inString, escaped := false, false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case inString:
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
		case c == '"':
			inString = true
		case c == ',':
			j := i + 1
			for j < len(s) && strings.IndexByte(" \t\r\n", s[j]) >= 0 {
				j++
			}
			if j < len(s) && (s[j] == '}' || s[j] == ']') {
				continue // drop the comma; the white space stays
			}
		}
		b.WriteByte(c)
	}
	return b.String()
}

// Extract implements Protocol.
func (Text) Extract(resp *llm.Response) ([]llm.ToolCall, string) {
	text := resp.Message.Content
	n := strings.Count(text, TagCall)
	if n == 0 {
		return nil, ""
	}
	if n > 1 {
		return nil, fmt.Sprintf("Your reply contains %d %s blocks; only one call per reply is allowed and none was executed. Send the first call again, alone.", n, TagCall)
	}
	body := text[strings.Index(text, TagCall)+len(TagCall):]
	if end := strings.Index(body, TagCallEn); end >= 0 {
		body = body[:end]
	} // else: the end tag is missing; the rest of the reply is the call.
	call, err := parseTextCall(body)
	if err != nil {
		return nil, fmt.Sprintf("Your %s block could not be read (%v). Write exactly one JSON object {\"name\": …, \"arguments\": {…}} between %s and %s.", TagCall, err, TagCall, TagCallEn)
	}
	call.ID = "text_call_1"
	return []llm.ToolCall{call}, ""
}

func parseTextCall(body string) (llm.ToolCall, error) {
	s := strings.TrimSpace(body)
	if m := fenceRE().FindStringSubmatch(s); m != nil {
		s = m[1]
	}
	var raw struct {
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
	}
	if err := json.Unmarshal([]byte(s), &raw); err != nil {
		// Repaired only when it does not parse as written: the repair
		// must not touch a string such as a search pattern "x[i, ]".
		if json.Unmarshal([]byte(dropTrailingCommas(s)), &raw) != nil {
			return llm.ToolCall{}, err
		}
	}
	if raw.Name == "" {
		return llm.ToolCall{}, fmt.Errorf("no \"name\"")
	}
	args := strings.TrimSpace(string(raw.Arguments))
	var asString string
	if json.Unmarshal(raw.Arguments, &asString) == nil {
		args = asString // arguments given as a JSON string
	}
	if args == "" || args == "null" {
		args = "{}"
	}
	return llm.ToolCall{Name: raw.Name, Arguments: args}, nil
}

// Assistant implements Protocol.
func (Text) Assistant(resp *llm.Response, _ []llm.ToolCall) llm.Message {
	return llm.Message{Role: llm.RoleAssistant, Content: resp.Message.Content}
}

// Results implements Protocol.
func (Text) Results(calls []llm.ToolCall, results []tool.Result) []llm.Message {
	if len(calls) == 0 {
		return nil
	}
	var b strings.Builder
	for i, c := range calls {
		status := "ok"
		if results[i].IsError {
			status = "error"
		}
		fmt.Fprintf(&b, "<TOOL_RESULT name=%q status=%q>\n%s\n</TOOL_RESULT>\n", c.Name, status, results[i].Content)
	}
	return []llm.Message{{Role: llm.RoleUser, Content: b.String()}}
}
