package memory

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jsec/jsec/agent/llm"
	"github.com/jsec/jsec/agent/tool"
)

func manager(t *testing.T) (*Manager, string, string) {
	proj, data := t.TempDir(), t.TempDir()
	m := NewManager(proj, data)
	tick := time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)
	m.now = func() time.Time { tick = tick.Add(time.Second); return tick }
	return m, proj, data
}

func TestPersistenceRoundTrip(t *testing.T) {
	m, proj, data := manager(t)
	if _, err := m.Save(ProjectLongTerm, []string{"parse_header", " HTTP "}, "parse_header bounds len by sizeof(buf)"); err != nil {
		t.Fatal(err)
	}
	if _, err := m.Save(GlobalLongTerm, []string{"style"}, "prefer snprintf"); err != nil {
		t.Fatal(err)
	}
	if _, err := m.Save(ShortTerm, []string{"http"}, "line 42 checked"); err != nil {
		t.Fatal(err)
	}
	if files, _ := filepath.Glob(filepath.Join(proj, ".jsec", "memory", "*.json")); len(files) != 1 {
		t.Fatalf("project files: %v", files)
	}
	if files, _ := filepath.Glob(filepath.Join(data, "memory", "global_long_term", "*.json")); len(files) != 1 {
		t.Fatalf("global files: %v", files)
	}
	// A new manager (a new process) sees the long-term memories, not the short-term one.
	m2 := NewManager(proj, data)
	got, err := m2.Retrieve(Query{Tags: []string{"http"}})
	if err != nil || len(got) != 1 || got[0].Content != "parse_header bounds len by sizeof(buf)" || strings.Join(got[0].Tags, ",") != "http,parse_header" {
		t.Fatalf("%+v %v", got, err)
	}
	all, _ := m.Retrieve(Query{})
	if len(all) != 3 || all[0].Type != ShortTerm {
		t.Fatalf("newest first: %+v", all)
	}
	if got, _ := m.Retrieve(Query{Limit: 1}); len(got) != 1 {
		t.Fatal("limit")
	}
	if strings.Join(m.Tags(), ",") != "http,parse_header,style" {
		t.Fatalf("tags: %v", m.Tags())
	}
	n, err := m.Clear(Query{Types: []Type{ProjectLongTerm}, Tags: []string{"http"}}, nil)
	if err != nil || n != 1 {
		t.Fatalf("clear: %d %v", n, err)
	}
	if got, _ := m2.Retrieve(Query{Types: []Type{ProjectLongTerm}}); len(got) != 0 {
		t.Fatal("cleared memory came back")
	}
	if _, err := m.Save("forever", nil, "x"); err == nil {
		t.Fatal("unknown type accepted")
	}
	os.WriteFile(filepath.Join(proj, ".jsec", "memory", "garbage.json"), []byte("{not json"), 0o644)
	if _, err := m.Retrieve(Query{}); err != nil {
		t.Fatal("a corrupt file broke retrieval")
	}
}

func call(t *testing.T, m *Manager, args string) tool.Result {
	res, err := tool.NewRegistry(m.Tool()).Execute(context.Background(), llm.ToolCall{Name: "memory", Arguments: args})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func TestTool(t *testing.T) {
	m, _, _ := manager(t)
	save, _ := json.Marshal(map[string]any{"action": "save", "memories": []any{
		map[string]any{"memory_type": "project_long_term", "tags": []string{"main.c"}, "content": "main checks argc"},
		map[string]any{"memory_type": "short_term", "tags": []string{"todo"}, "content": "look at util.c"},
	}})
	if res := call(t, m, string(save)); res.IsError || !strings.Contains(res.Content, "saved 2 memories") {
		t.Fatalf("%+v", res)
	}
	if res := call(t, m, `{"action":"retrieve","memory_types":["all"],"tags":["main.c"]}`); !strings.Contains(res.Content, "main checks argc") || strings.Contains(res.Content, "util.c") {
		t.Fatalf("%+v", res)
	}
	if res := call(t, m, `{"action":"clear","tags":["todo"]}`); !res.IsError || !strings.Contains(res.Content, "confirm") {
		t.Fatalf("clear without confirm: %+v", res)
	}
	if res := call(t, m, `{"action":"clear","tags":["todo"],"confirm":true}`); res.IsError || !strings.Contains(res.Content, "cleared 1") {
		t.Fatalf("%+v", res)
	}
	for args, want := range map[string]string{
		`{"action":"save"}`: "needs memories",
		`{"action":"retrieve","memory_types":["weird"]}`: "unknown memory type",
		`{"action":"fly"}`:                  "unknown action",
		`{"action":"clear","confirm":true}`: "needs memory_ids",
		`{"action":"save","memories":[{"memory_type":"short_term","tags":[],"content":" "}]}`: "empty",
	} {
		if res := call(t, m, args); !res.IsError || !strings.Contains(res.Content, want) {
			t.Errorf("%s: %+v, want %q", args, res, want)
		}
	}
	if _, ok := m.Tool().(tool.ReadOnlyTool); ok {
		t.Fatal("the memory tool writes files and must not be read-only")
	}
}
