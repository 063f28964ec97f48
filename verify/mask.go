package verify

import (
	"context"
	"encoding/json"
	"regexp"
	"sort"
	"strings"
	"sync"

	"github.com/jsec/jsec/agent/llm"
	"github.com/jsec/jsec/agent/tool"
	"github.com/jsec/jsec/issue"
)

// maskText replaces secret values in anything sent to the model.
const maskText = "«masked secret»"

var quotedRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`"((?:[^"\\]|\\.){4,})"|'((?:[^'\\]|\\.){4,})'`) })

// masker hides the values that secret rules found.
type masker struct {
	secrets []string // longest first
}

// newMasker collects the string literals on the evidence lines of the
// secrets-category issues.
func newMasker(issues []issue.Issue, enabled bool) *masker {
	m := &masker{}
	if !enabled {
		return m
	}
	seen := map[string]bool{}
	for _, is := range issues {
		if is.Category != "secrets" {
			continue
		}
		for _, g := range quotedRE().FindAllStringSubmatch(is.Evidence, -1) {
			v := g[1] + g[2]
			if len(v) >= 4 && !seen[v] {
				seen[v] = true
				m.secrets = append(m.secrets, v)
			}
		}
	}
	sort.Slice(m.secrets, func(i, j int) bool { return len(m.secrets[i]) > len(m.secrets[j]) })
	return m
}

func (m *masker) mask(s string) string {
	for _, v := range m.secrets {
		s = strings.ReplaceAll(s, v, maskText)
	}
	return s
}

// guarded wraps a read-only tool: its output is masked, and the files it
// reads are recorded so that quoted evidence can be checked against them.
type guarded struct {
	tool.ReadOnlyMarker
	inner tool.ReadOnlyTool
	m     *masker
	read  *readSet
}

func (g guarded) Spec() llm.ToolSpec { return g.inner.Spec() }

func (g guarded) Call(ctx context.Context, args string) (tool.Result, error) {
	r, err := g.inner.Call(ctx, args)
	if err == nil && !r.IsError && g.read != nil {
		var a struct {
			Path string `json:"path"`
		}
		if json.Unmarshal([]byte(args), &a) == nil && a.Path != "" {
			g.read.add(a.Path)
		}
	}
	r.Content = g.m.mask(r.Content)
	return r, err
}

// readSet is the set of files an agent read.
type readSet struct {
	mu    sync.Mutex
	paths map[string]bool
}

func (s *readSet) add(p string) {
	s.mu.Lock()
	if s.paths == nil {
		s.paths = map[string]bool{}
	}
	s.paths[p] = true
	s.mu.Unlock()
}

func (s *readSet) list() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]string, 0, len(s.paths))
	for p := range s.paths {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}
