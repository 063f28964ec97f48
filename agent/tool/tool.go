// Package tool defines what an agent can call: tools with typed
// parameters whose JSON Schema is generated from a Go struct, a registry
// that runs calls safely, and the read-only property that verifier agents
// rely on.
//
// # Design
//
// Read-only is a property of a tool's type, not of a name list: a
// read-only registry accepts only values of type ReadOnlyTool, which only
// tools built with NewReadOnly (or types embedding ReadOnlyMarker) are.
// The writing tools (patch, rewrite, execute_script) are plain Tools, so a
// verifier's registry cannot hold them: the compiler refuses.
//
// Problems the model can fix (bad JSON, a missing argument, a path outside
// the root, no match) come back as error results the model reads; only
// harness failures are Go errors. A panicking tool becomes an error result
// too, and long outputs are cut head and tail with a marker.
package tool

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"

	"github.com/jsec/jsec/agent/llm"
)

// Result is what a tool call returns to the model.
type Result struct {
	Content string
	// IsError marks a result that reports a problem the model should fix.
	IsError bool
}

// Errorf builds an error result.
func Errorf(format string, a ...any) Result {
	return Result{Content: fmt.Sprintf(format, a...), IsError: true}
}

// Text builds a successful result.
func Text(s string) Result { return Result{Content: s} }

// Tool is something an agent can call.
type Tool interface {
	Spec() llm.ToolSpec
	// Call runs the tool with the model's raw JSON arguments.
	Call(ctx context.Context, args string) (Result, error)
}

// ReadOnlyTool is a tool that cannot change anything outside the process:
// no file writes, no commands, no network.
type ReadOnlyTool interface {
	Tool
	readOnly()
}

// ReadOnlyMarker, embedded in a tool type, declares it read-only. Embed it
// only in tools that never write, execute or send.
type ReadOnlyMarker struct{}

func (ReadOnlyMarker) readOnly() {}

// Func is the body of a typed tool: it receives the decoded arguments.
type Func[In any] func(ctx context.Context, in In) (Result, error)

// typed is a tool whose parameters are the Go struct In.
type typed[In any] struct {
	spec     llm.ToolSpec
	required []string
	fn       Func[In]
}

func (t *typed[In]) Spec() llm.ToolSpec { return t.spec }

func (t *typed[In]) Call(ctx context.Context, args string) (Result, error) {
	in, problem := decode[In](args, t.required)
	if problem != "" {
		return Errorf("invalid arguments for %s: %s. Expected parameters: %s", t.spec.Name, problem, t.spec.Parameters), nil
	}
	return t.fn(ctx, in)
}

// New builds a tool whose parameters are described by the struct In: its
// JSON field names, `desc:"…"` tags and `enum:"a,b"` tags become the
// schema; fields without omitempty are required.
func New[In any](name, description string, fn Func[In]) Tool {
	schema, required := Schema[In]()
	return &typed[In]{spec: llm.ToolSpec{Name: name, Description: description, Parameters: schema}, required: required, fn: fn}
}

type readOnlyTyped[In any] struct {
	typed[In]
	ReadOnlyMarker
}

// NewReadOnly is New for a tool that never changes anything.
func NewReadOnly[In any](name, description string, fn Func[In]) ReadOnlyTool {
	schema, required := Schema[In]()
	return &readOnlyTyped[In]{typed: typed[In]{spec: llm.ToolSpec{Name: name, Description: description, Parameters: schema}, required: required, fn: fn}}
}

// decode parses args into In and checks required fields; the returned
// problem is written for the model to read.
func decode[In any](args string, required []string) (In, string) {
	var in In
	s := strings.TrimSpace(args)
	if s == "" {
		s = "{}"
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal([]byte(s), &obj); err != nil {
		return in, fmt.Sprintf("arguments are not a JSON object (%v)", err)
	}
	var missing []string
	for _, r := range required {
		if v, ok := obj[r]; !ok || string(v) == "null" {
			missing = append(missing, r)
		}
	}
	if len(missing) > 0 {
		return in, "missing required " + strings.Join(missing, ", ")
	}
	if err := json.Unmarshal([]byte(s), &in); err != nil {
		return in, fmt.Sprintf("an argument has the wrong type (%v)", err)
	}
	return in, ""
}

// Schema generates the JSON Schema of the struct In and lists its
// required properties.
func Schema[In any]() (json.RawMessage, []string) {
	var zero In
	t := reflect.TypeOf(zero)
	s, req := structSchema(t)
	b, err := json.Marshal(s)
	if err != nil {
		panic(err)
	}
	return b, req
}

func structSchema(t reflect.Type) (map[string]any, []string) {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	props := map[string]any{}
	required := []string{}
	if t.Kind() == reflect.Struct {
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			if !f.IsExported() {
				continue
			}
			name, opts, _ := strings.Cut(f.Tag.Get("json"), ",")
			if name == "-" {
				continue
			}
			if name == "" {
				name = f.Name
			}
			p := typeSchema(f.Type)
			if d := f.Tag.Get("desc"); d != "" {
				p["description"] = d
			}
			if e := f.Tag.Get("enum"); e != "" {
				p["enum"] = strings.Split(e, ",")
			}
			props[name] = p
			if !strings.Contains(opts, "omitempty") {
				required = append(required, name)
			}
		}
	}
	return map[string]any{"type": "object", "properties": props, "required": required, "additionalProperties": false}, required
}

func typeSchema(t reflect.Type) map[string]any {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.String:
		return map[string]any{"type": "string"}
	case reflect.Bool:
		return map[string]any{"type": "boolean"}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return map[string]any{"type": "integer"}
	case reflect.Float32, reflect.Float64:
		return map[string]any{"type": "number"}
	case reflect.Slice, reflect.Array:
		return map[string]any{"type": "array", "items": typeSchema(t.Elem())}
	case reflect.Map:
		return map[string]any{"type": "object", "additionalProperties": typeSchema(t.Elem())}
	case reflect.Struct:
		s, _ := structSchema(t)
		return s
	}
	return map[string]any{}
}
