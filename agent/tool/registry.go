package tool

import (
	"context"
	"fmt"
	"runtime/debug"
	"sort"
	"strings"

	"github.com/jsec/jsec/agent/llm"
)

// DefaultMaxOutput bounds a tool result (bytes) before it is cut.
const DefaultMaxOutput = 24 << 10

// Registry holds an agent's tools by name and runs calls safely.
type Registry struct {
	tools     map[string]Tool
	order     []string
	readOnly  bool
	MaxOutput int
}

// NewRegistry returns a registry that accepts any tool.
func NewRegistry(tools ...Tool) *Registry {
	r := &Registry{tools: map[string]Tool{}, MaxOutput: DefaultMaxOutput}
	for _, t := range tools {
		r.add(t)
	}
	return r
}

// NewReadOnlyRegistry returns a registry that can only ever hold
// read-only tools: the parameter type enforces it.
func NewReadOnlyRegistry(tools ...ReadOnlyTool) *Registry {
	r := &Registry{tools: map[string]Tool{}, readOnly: true, MaxOutput: DefaultMaxOutput}
	for _, t := range tools {
		r.add(t)
	}
	return r
}

// Add adds a tool to a general registry.
func (r *Registry) Add(t Tool) error {
	if r.readOnly {
		if _, ok := t.(ReadOnlyTool); !ok {
			return fmt.Errorf("tool %s is not read-only and this registry is", t.Spec().Name)
		}
	}
	r.add(t)
	return nil
}

// AddReadOnly adds a read-only tool to any registry.
func (r *Registry) AddReadOnly(t ReadOnlyTool) { r.add(t) }

func (r *Registry) add(t Tool) {
	name := t.Spec().Name
	if _, dup := r.tools[name]; !dup {
		r.order = append(r.order, name)
	}
	r.tools[name] = t
}

// ReadOnly reports whether the registry only holds read-only tools.
func (r *Registry) ReadOnly() bool { return r.readOnly }

// Get returns the tool with the given name.
func (r *Registry) Get(name string) (Tool, bool) {
	t, ok := r.tools[name]
	return t, ok
}

// Names lists the tools in the order they were added.
func (r *Registry) Names() []string { return append([]string(nil), r.order...) }

// Specs describes every tool to the model.
func (r *Registry) Specs() []llm.ToolSpec {
	out := make([]llm.ToolSpec, 0, len(r.order))
	for _, n := range r.order {
		out = append(out, r.tools[n].Spec())
	}
	return out
}

// Execute runs one call. Unknown tools, invalid arguments and panics
// become error results; a Go error means the harness itself failed (or ctx
// ended) and the run should stop.
func (r *Registry) Execute(ctx context.Context, call llm.ToolCall) (res Result, err error) {
	t, ok := r.tools[call.Name]
	if !ok {
		names := r.Names()
		sort.Strings(names)
		return Errorf("unknown tool %q; available tools: %s", call.Name, strings.Join(names, ", ")), nil
	}
	if err := ctx.Err(); err != nil {
		return Result{}, err
	}
	defer func() {
		if p := recover(); p != nil {
			stack := string(debug.Stack())
			if len(stack) > 2000 {
				stack = stack[:2000]
			}
			res, err = Errorf("tool %s failed internally: %v\n%s", call.Name, p, stack), nil
		}
	}()
	res, err = t.Call(ctx, call.Arguments)
	if err != nil {
		if ctx.Err() != nil {
			return Result{}, ctx.Err()
		}
		// A tool's own failure is reported to the model, not fatal.
		return Errorf("tool %s failed: %v", call.Name, err), nil
	}
	max := r.MaxOutput
	if max <= 0 {
		max = DefaultMaxOutput
	}
	res.Content = Truncate(res.Content, max)
	return res, nil
}

// Truncate keeps the head and tail of s within max bytes, cut at line
// boundaries where possible, with a marker saying how much was dropped.
func Truncate(s string, max int) string {
	if len(s) <= max {
		return s
	}
	half := max / 2
	head := s[:half]
	if i := strings.LastIndexByte(head, '\n'); i > half/2 {
		head = head[:i+1]
	}
	tail := s[len(s)-half:]
	if i := strings.IndexByte(tail, '\n'); i >= 0 && i < half/2 {
		tail = tail[i+1:]
	}
	dropped := len(s) - len(head) - len(tail)
	lines := strings.Count(s[len(head):len(s)-len(tail)], "\n")
	return fmt.Sprintf("%s\n[... %d bytes (%d lines) omitted: the output was too long; ask for a narrower range ...]\n%s", head, dropped, lines, tail)
}
