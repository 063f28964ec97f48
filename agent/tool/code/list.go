package code

import (
	"context"
	"fmt"
	"io/fs"
	"sort"
	"strings"

	"github.com/jsec/jsec/agent/tool"
)

// ListFilesArgs are list_files' parameters.
type ListFilesArgs struct {
	Path string `json:"path,omitempty" desc:"directory relative to the project root (default: the root)"`
}

// ListFiles returns the list_files tool.
func (r *Root) ListFiles() tool.ReadOnlyTool {
	return tool.NewReadOnly("list_files",
		"List a directory of the project: subdirectories end with '/', files show their size in bytes.",
		func(ctx context.Context, in ListFilesArgs) (tool.Result, error) { return r.listFiles(in), nil })
}

func (r *Root) listFiles(in ListFilesArgs) tool.Result {
	rel, problem := clean(in.Path)
	if problem != "" {
		return tool.Errorf("%s", problem)
	}
	info, err := r.r.Stat(rel)
	if err != nil {
		return tool.Errorf("%s", explain(rel, err))
	}
	if !info.IsDir() {
		return tool.Errorf("%s is a file (%d bytes); use read_code to read it", rel, info.Size())
	}
	entries, err := fs.ReadDir(r.r.FS(), rel)
	if err != nil {
		return tool.Errorf("%s", explain(rel, err))
	}
	sort.Slice(entries, func(i, j int) bool { return entries[i].Name() < entries[j].Name() })
	var b strings.Builder
	fmt.Fprintf(&b, "%s (%d entries)\n", rel, len(entries))
	for i, e := range entries {
		if i >= r.limits.MaxEntries {
			fmt.Fprintf(&b, "[%d more entries not shown]\n", len(entries)-i)
			break
		}
		switch {
		case e.IsDir():
			fmt.Fprintf(&b, "%s/\n", e.Name())
		case e.Type()&fs.ModeSymlink != 0:
			fmt.Fprintf(&b, "%s (symlink)\n", e.Name())
		default:
			size := int64(-1)
			if fi, err := e.Info(); err == nil {
				size = fi.Size()
			}
			fmt.Fprintf(&b, "%s %d\n", e.Name(), size)
		}
	}
	return tool.Text(b.String())
}
