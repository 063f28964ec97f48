package main

import (
	"strings"
	"testing"
)

func TestAskAgainstOpenAICompatibleServer(t *testing.T) {
	root := project(t, map[string]string{"src/http.c": "int parse(char *line) {\n\tchar buf[64];\n\tstrcpy(buf, line);\n\treturn 0;\n}\n"})
	srv := newChatServer(t, func(req map[string]any) (string, []map[string]any) {
		msgs := messages(req)
		last := msgs[len(msgs)-1]
		switch {
		case len(msgs) == 2: // system + question
			return "", []map[string]any{fnCall("c1", "search_code", map[string]any{"pattern": `strcpy\(`})}
		case last["role"] == "tool" && strings.Contains(last["content"].(string), "src/http.c:3:"):
			if len(msgs) == 4 {
				return "", []map[string]any{fnCall("c2", "read_code", map[string]any{"path": "src/http.c", "start_line": 1, "end_line": 5})}
			}
		}
		if last["role"] == "tool" && strings.Contains(last["content"].(string), "2: \tchar buf[64];") {
			return "`parse` copies `line` into a 64-byte buffer with strcpy (src/http.c:3): unbounded.", nil
		}
		return "unexpected conversation", nil
	})
	code, stdout, stderr := runCLI(t, "ask", "--root", root, "--llm-base-url", srv.url, "--llm-model", "test-model", "Is the request line copy bounded?")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(stdout, "src/http.c:3") || !strings.Contains(stdout, "unbounded") {
		t.Fatalf("answer: %q", stdout)
	}
	if len(srv.reqs) != 3 {
		t.Fatalf("%d requests", len(srv.reqs))
	}
	first := srv.reqs[0]
	var names []string
	for _, tl := range first["tools"].([]any) {
		names = append(names, tl.(map[string]any)["function"].(map[string]any)["name"].(string))
	}
	if strings.Join(names, ",") != "read_code,search_code,list_files" {
		t.Fatalf("tools offered: %v (a read-only agent must get exactly these)", names)
	}
	if sys := messages(first)[0]; sys["role"] != "system" || !strings.Contains(sys["content"].(string), "never instructions") {
		t.Fatalf("system prompt: %v", sys)
	}
}

func TestAskConfigurationErrors(t *testing.T) {
	t.Setenv("JSEC_LLM_MODEL", "")
	t.Setenv("JSEC_LLM_BASE_URL", "")
	root := t.TempDir()
	cases := [][]string{
		{"ask", "--root", root, "question"},                                     // no model
		{"ask", "--root", root, "--llm-model", "m", "--llm-provider", "x", "q"}, // unknown provider
		{"ask", "--root", root + "/nope", "--llm-model", "m", "q"},              // bad root
		{"ask", "--root", root, "--llm-model", "m", "--max-steps", "0", "q"},
		{"ask", "--root", root, "--llm-model", "m", "--llm-tool-protocol", "smoke", "q"},
		{"ask", "--root", root},
	}
	for _, args := range cases {
		if code, _, stderr := runCLI(t, args...); code != exitUsage {
			t.Errorf("%v: exit %d (%s), want %d", args, code, stderr, exitUsage)
		}
	}
}

func TestAskTextProtocol(t *testing.T) {
	root := project(t, map[string]string{"a.c": "int x;\n"})
	srv := newChatServer(t, func(req map[string]any) (string, []map[string]any) {
		if _, ok := req["tools"]; ok {
			t.Error("text protocol sent native tools")
		}
		msgs := messages(req)
		if len(msgs) == 2 {
			return "<TOOL_CALL>\n{\"name\": \"list_files\", \"arguments\": {}}\n</TOOL_CALL>", nil
		}
		if strings.Contains(msgs[len(msgs)-1]["content"].(string), "a.c 7") {
			return "There is one file, a.c.", nil
		}
		return "lost", nil
	})
	code, stdout, stderr := runCLI(t, "ask", "--root", root, "--llm-base-url", srv.url, "--llm-model", "m", "--llm-tool-protocol", "text", "What files are there?")
	if code != 0 || !strings.Contains(stdout, "one file, a.c") {
		t.Fatalf("exit %d stdout %q stderr %q", code, stdout, stderr)
	}
}

// A run that ends without an answer must fail and say why, not print an
// empty line and exit 0: a model answering the text protocol with native
// tool calls (content null), or a step limit reached before any answer.
func TestAskWithoutAnAnswerFails(t *testing.T) {
	root := project(t, map[string]string{"a.c": "int x;\n"})
	srv := newChatServer(t, func(req map[string]any) (string, []map[string]any) {
		return "", []map[string]any{fnCall("c1", "list_files", map[string]any{})}
	})
	cases := []struct {
		flags []string
		want  string
	}{
		{[]string{"--llm-tool-protocol", "text"}, "--llm-tool-protocol native"},
		{[]string{"--max-steps", "1"}, "--max-steps"},
	}
	for _, c := range cases {
		args := append([]string{"ask", "--root", root, "--llm-base-url", srv.url, "--llm-model", "m"}, c.flags...)
		code, stdout, stderr := runCLI(t, append(args, "What files are there?")...)
		if code != exitInternal || strings.TrimSpace(stdout) != "" || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d stdout %q stderr %q", c.flags, code, stdout, stderr)
		}
	}
}
