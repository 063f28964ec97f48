package agent

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/jsec/jsec/agent/llm"
)

// FuzzTextCall: the text protocol reads tool calls out of model replies.
// A call Go writes as JSON, with any name and string argument, comes back
// exactly (fenced or not, with or without trailing commas added after its
// last argument); and no reply makes Extract panic.
func FuzzTextCall(f *testing.F) {
	f.Add("read_code", "a.c", "Let me see.", false, false)
	f.Add("search_code", "memcpy\\(d, s, }", "", true, false)
	f.Add("search_code", "f(a, ]", "", false, true)
	f.Add("x", "\",}\\\"", "<TOOL_CALL>", true, true)
	f.Fuzz(func(t *testing.T, name, arg, prose string, fenced, trailing bool) {
		Text{}.Extract(&llm.Response{Message: llm.Message{Content: prose + "<TOOL_CALL>" + arg + name}})
		if name == "" || strings.Contains(prose+name+arg, "TOOL_CALL") || !utf8.ValidString(name) || !utf8.ValidString(arg) {
			return
		}
		n, _ := json.Marshal(name)
		a, _ := json.Marshal(arg)
		comma := ""
		if trailing {
			comma = ","
		}
		body := `{"name": ` + string(n) + `, "arguments": {"pattern": ` + string(a) + comma + `}` + comma + `}`
		if fenced {
			body = "```json\n" + body + "\n```"
		}
		calls, problem := Text{}.Extract(&llm.Response{Message: llm.Message{Content: prose + "\n<TOOL_CALL>\n" + body + "\n</TOOL_CALL>"}})
		if problem != "" || len(calls) != 1 {
			t.Fatalf("%q: %d calls, problem %q", body, len(calls), problem)
		}
		var got map[string]string
		if calls[0].Name != name || json.Unmarshal([]byte(calls[0].Arguments), &got) != nil || !reflect.DeepEqual(got, map[string]string{"pattern": arg}) {
			t.Fatalf("%q: got %q %s", body, calls[0].Name, calls[0].Arguments)
		}
	})
}
