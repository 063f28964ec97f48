package memory

import (
	"context"
	"fmt"
	"strings"

	"github.com/jsec/jsec/agent/tool"
)

// Args are the memory tool's parameters.
type Args struct {
	Action string `json:"action" enum:"save,retrieve,clear" desc:"what to do"`
	// save
	Memories []struct {
		Type    string   `json:"memory_type" enum:"short_term,project_long_term,global_long_term"`
		Tags    []string `json:"tags"`
		Content string   `json:"content"`
	} `json:"memories,omitempty" desc:"save: the memories to store"`
	// retrieve and clear
	Types []string `json:"memory_types,omitempty" desc:"retrieve/clear: types to look in (default all; \"all\" also works)"`
	Tags  []string `json:"tags,omitempty" desc:"retrieve/clear: match memories carrying any of these tags"`
	Limit int      `json:"limit,omitempty" desc:"retrieve: at most this many, newest first (default 20)"`
	IDs   []string `json:"memory_ids,omitempty" desc:"clear: delete exactly these ids"`
	// Confirm must be true to clear.
	Confirm bool `json:"confirm,omitempty" desc:"clear: must be true"`
}

// Tool returns the memory tool. It writes files, so it is not read-only.
func (m *Manager) Tool() tool.Tool {
	return tool.New("memory",
		"Save, retrieve or clear memories: short_term (this run), project_long_term (this project) or global_long_term (all projects). Tag memories by function or file name so you can find them again. Memories are hints; check them against the code.",
		func(ctx context.Context, in Args) (tool.Result, error) { return m.handle(in), nil })
}

func (m *Manager) handle(in Args) tool.Result {
	switch in.Action {
	case "save":
		if len(in.Memories) == 0 {
			return tool.Errorf("save needs memories: [{memory_type, tags, content}]")
		}
		var ids []string
		for _, mem := range in.Memories {
			e, err := m.Save(Type(mem.Type), mem.Tags, mem.Content)
			if err != nil {
				return tool.Errorf("save: %v (memory_type is one of short_term, project_long_term, global_long_term)", err)
			}
			ids = append(ids, e.ID)
		}
		return tool.Text(fmt.Sprintf("saved %d memories: %s", len(ids), strings.Join(ids, ", ")))
	case "retrieve":
		types, problem := parseTypes(in.Types)
		if problem != "" {
			return tool.Errorf("%s", problem)
		}
		limit := in.Limit
		if limit <= 0 {
			limit = 20
		}
		es, err := m.Retrieve(Query{Types: types, Tags: in.Tags, Limit: limit})
		if err != nil {
			return tool.Errorf("retrieve: %v", err)
		}
		if len(es) == 0 {
			return tool.Text("no memories match")
		}
		var b strings.Builder
		for _, e := range es {
			fmt.Fprintf(&b, "- [%s] %s (tags: %s, %s)\n  %s\n", e.Type, e.ID, strings.Join(e.Tags, ", "), e.CreatedAt.Format("2006-01-02"), strings.ReplaceAll(e.Content, "\n", "\n  "))
		}
		return tool.Text(b.String())
	case "clear":
		if !in.Confirm {
			return tool.Errorf("clear deletes memories; call again with confirm: true if you mean it")
		}
		types, problem := parseTypes(in.Types)
		if problem != "" {
			return tool.Errorf("%s", problem)
		}
		if len(in.IDs) == 0 && len(in.Tags) == 0 && len(in.Types) == 0 {
			return tool.Errorf("clear needs memory_ids, tags or memory_types")
		}
		n, err := m.Clear(Query{Types: types, Tags: in.Tags}, in.IDs)
		if err != nil {
			return tool.Errorf("clear: %v", err)
		}
		return tool.Text(fmt.Sprintf("cleared %d memories", n))
	}
	return tool.Errorf("unknown action %q (save, retrieve or clear)", in.Action)
}

func parseTypes(names []string) ([]Type, string) {
	var out []Type
	for _, n := range names {
		if n == "all" {
			return nil, ""
		}
		if !validType(Type(n)) {
			return nil, fmt.Sprintf("unknown memory type %q (short_term, project_long_term, global_long_term or all)", n)
		}
		out = append(out, Type(n))
	}
	return out, ""
}
