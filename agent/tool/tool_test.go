package tool

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/jsec/jsec/agent/llm"
)

type readIn struct {
	Path  string   `json:"path" desc:"file path relative to the root"`
	Start int      `json:"start_line,omitempty" desc:"first line"`
	Mode  string   `json:"mode,omitempty" enum:"text,hex"`
	Tags  []string `json:"tags,omitempty"`
	Inner *struct {
		Deep bool `json:"deep"`
	} `json:"inner,omitempty"`
}

func TestSchemaFromStruct(t *testing.T) {
	raw, req := Schema[readIn]()
	var s struct {
		Type       string                    `json:"type"`
		Properties map[string]map[string]any `json:"properties"`
		Required   []string                  `json:"required"`
	}
	if err := json.Unmarshal(raw, &s); err != nil {
		t.Fatal(err)
	}
	if s.Type != "object" || strings.Join(req, ",") != "path" || strings.Join(s.Required, ",") != "path" {
		t.Fatalf("schema %s required %v", raw, req)
	}
	if s.Properties["path"]["type"] != "string" || s.Properties["path"]["description"] != "file path relative to the root" {
		t.Fatalf("path: %v", s.Properties["path"])
	}
	if s.Properties["start_line"]["type"] != "integer" || s.Properties["tags"]["type"] != "array" || s.Properties["inner"]["type"] != "object" {
		t.Fatalf("types: %s", raw)
	}
	if enum, _ := s.Properties["mode"]["enum"].([]any); len(enum) != 2 {
		t.Fatalf("enum: %v", s.Properties["mode"])
	}
}

func readTool() ReadOnlyTool {
	return NewReadOnly("read", "Read.", func(ctx context.Context, in readIn) (Result, error) {
		switch in.Path {
		case "panic":
			panic("kaboom")
		case "fail":
			return Result{}, errors.New("disk on fire")
		case "big":
			return Text(strings.Repeat("line of output\n", 10000)), nil
		}
		return Text("read " + in.Path), nil
	})
}

func TestRegistryExecute(t *testing.T) {
	r := NewReadOnlyRegistry(readTool())
	ctx := context.Background()
	cases := []struct {
		args    string
		name    string
		want    string
		isError bool
	}{
		{`{"path":"a.c"}`, "read", "read a.c", false},
		{`{"path": 1}`, "read", "wrong type", true},
		{`{}`, "read", "missing required path", true},
		{`{"path": null}`, "read", "missing required path", true},
		{`not json`, "read", "not a JSON object", true},
		{`{"path":"panic"}`, "read", "failed internally: kaboom", true},
		{`{"path":"fail"}`, "read", "disk on fire", true},
		{`{"path":"a"}`, "write", `unknown tool "write"; available tools: read`, true},
	}
	for _, c := range cases {
		res, err := r.Execute(ctx, llm.ToolCall{Name: c.name, Arguments: c.args})
		if err != nil {
			t.Fatalf("%s: harness error %v", c.args, err)
		}
		if res.IsError != c.isError || !strings.Contains(res.Content, c.want) {
			t.Errorf("%s %s: %+v, want %q error=%v", c.name, c.args, res, c.want, c.isError)
		}
	}
	res, _ := r.Execute(ctx, llm.ToolCall{Name: "read", Arguments: `{"path":"big"}`})
	if len(res.Content) > DefaultMaxOutput+200 || !strings.Contains(res.Content, "omitted") || !strings.HasPrefix(res.Content, "line of output") || !strings.HasSuffix(res.Content, "line of output\n") {
		t.Fatalf("truncation: %d bytes", len(res.Content))
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := r.Execute(cctx, llm.ToolCall{Name: "read", Arguments: `{"path":"a"}`}); err == nil {
		t.Fatal("cancelled context ignored")
	}
}

func TestReadOnlyRegistryRefusesWritingTools(t *testing.T) {
	writer := New("write", "Write.", func(ctx context.Context, in struct{}) (Result, error) { return Text("wrote"), nil })
	ro := NewReadOnlyRegistry(readTool())
	if err := ro.Add(writer); err == nil {
		t.Fatal("a writing tool entered a read-only registry")
	}
	if err := ro.Add(readTool()); err != nil {
		t.Fatal(err)
	}
	if !ro.ReadOnly() || len(ro.Specs()) != 1 {
		t.Fatalf("registry: %v", ro.Names())
	}
	rw := NewRegistry(writer)
	rw.AddReadOnly(readTool())
	if rw.ReadOnly() || strings.Join(rw.Names(), ",") != "write,read" {
		t.Fatalf("general registry: %v", rw.Names())
	}
	// The compiler enforces the rest: NewReadOnlyRegistry(writer) does not build.
	var _ = func() { _ = NewReadOnlyRegistry(readTool()) }
}

func TestTruncate(t *testing.T) {
	if Truncate("short", 10) != "short" {
		t.Fatal("short output changed")
	}
	s := strings.Repeat("a", 100) + "MIDDLE" + strings.Repeat("b", 100)
	out := Truncate(s, 50)
	if strings.Contains(out, "MIDDLE") || !strings.HasPrefix(out, "aaaa") || !strings.HasSuffix(out, "bbbb") || !strings.Contains(out, "bytes") {
		t.Fatalf("truncate: %q", out)
	}
}
