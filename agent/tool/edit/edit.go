// Package edit provides the writing tools of the seed's EditFileHandler
// and RewriteFileHandler: patch (a unique search/replace, or the range
// between two unique markers) and rewrite (the whole file). Both are
// bound to a root they cannot leave, write atomically (a temporary file
// renamed over the original, so a failure leaves the file as it was), and
// are ordinary tools: a read-only registry cannot hold them.
package edit

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path"
	"strings"

	"github.com/jsec/jsec/agent/tool"
)

// Root is a directory the writing tools cannot leave.
type Root struct {
	r *os.Root
	// MaxFileSize bounds the files patched or written (default 10 MB).
	MaxFileSize int
}

// OpenRoot confines the tools to dir.
func OpenRoot(dir string) (*Root, error) {
	r, err := os.OpenRoot(dir)
	if err != nil {
		return nil, fmt.Errorf("open edit root: %w", err)
	}
	return &Root{r: r, MaxFileSize: 10 << 20}, nil
}

// Close releases the root.
func (r *Root) Close() error { return r.r.Close() }

// Tools returns patch and rewrite.
func (r *Root) Tools() []tool.Tool { return []tool.Tool{r.Patch(), r.Rewrite()} }

// PatchArgs are patch's parameters.
type PatchArgs struct {
	Path        string `json:"path" desc:"file to change, relative to the project root"`
	Search      string `json:"search,omitempty" desc:"exact text to replace; it must occur exactly once (in the line range, if given)"`
	SearchStart string `json:"search_start,omitempty" desc:"for a range replacement: exact text where the range begins (included)"`
	SearchEnd   string `json:"search_end,omitempty" desc:"for a range replacement: exact text where the range ends (included)"`
	Replace     string `json:"replace" desc:"the new text"`
	StartLine   int    `json:"start_line,omitempty" desc:"only look for the search text from this line (1-based)"`
	EndLine     int    `json:"end_line,omitempty" desc:"only look for the search text up to this line"`
}

// Patch returns the patch tool.
func (r *Root) Patch() tool.Tool {
	return tool.New("patch",
		"Change a file minimally: replace the one occurrence of `search` with `replace`, or replace the text from `search_start` to `search_end` (both included). Prefer it to rewrite.",
		func(ctx context.Context, in PatchArgs) (tool.Result, error) { return r.patch(in), nil })
}

func (r *Root) patch(in PatchArgs) tool.Result {
	rel, problem := clean(in.Path)
	if problem != "" {
		return tool.Errorf("%s", problem)
	}
	data, err := r.r.ReadFile(rel)
	if err != nil {
		return tool.Errorf("%s", explain(rel, err))
	}
	text := string(data)
	lo, hi := lineWindow(text, in.StartLine, in.EndLine)
	var start, end int
	switch {
	case in.Search != "" && in.SearchStart == "" && in.SearchEnd == "":
		i, problem := unique(text[lo:hi], in.Search, "search")
		if problem != "" {
			return tool.Errorf("%s in %s", problem, rel)
		}
		start, end = lo+i, lo+i+len(in.Search)
	case in.Search == "" && in.SearchStart != "" && in.SearchEnd != "":
		i, problem := unique(text[lo:hi], in.SearchStart, "search_start")
		if problem != "" {
			return tool.Errorf("%s in %s", problem, rel)
		}
		rest := text[lo+i+len(in.SearchStart) : hi]
		j, problem := unique(rest, in.SearchEnd, "search_end (after search_start)")
		if problem != "" {
			return tool.Errorf("%s in %s", problem, rel)
		}
		start, end = lo+i, lo+i+len(in.SearchStart)+j+len(in.SearchEnd)
	default:
		return tool.Errorf("give either search, or both search_start and search_end")
	}
	out := text[:start] + in.Replace + text[end:]
	if err := r.write(rel, []byte(out)); err != nil {
		return tool.Errorf("%s", err)
	}
	line := strings.Count(text[:start], "\n") + 1
	return tool.Text(fmt.Sprintf("patched %s at line %d: replaced %d lines with %d lines", rel, line,
		strings.Count(text[start:end], "\n")+1, strings.Count(in.Replace, "\n")+1))
}

// unique finds needle exactly once in hay.
func unique(hay, needle, what string) (int, string) {
	i := strings.Index(hay, needle)
	if i < 0 {
		return 0, fmt.Sprintf("%s text not found (it must match exactly, including white space)", what)
	}
	if n := strings.Count(hay, needle); n > 1 {
		return 0, fmt.Sprintf("%s text occurs %d times; add surrounding lines to make it unique or give start_line/end_line", what, n)
	}
	return i, ""
}

// lineWindow returns the byte range of lines start..end (1-based,
// inclusive; 0 means unbounded).
func lineWindow(text string, start, end int) (int, int) {
	lo, hi := 0, len(text)
	line := 1
	for i := 0; i < len(text); i++ {
		if start > 1 && line == start && lo == 0 && (i == 0 || text[i-1] == '\n') {
			lo = i
		}
		if text[i] == '\n' {
			if end > 0 && line == end {
				hi = i + 1
				break
			}
			line++
		}
	}
	return lo, hi
}

// RewriteArgs are rewrite's parameters.
type RewriteArgs struct {
	Path    string `json:"path" desc:"file to write, relative to the project root"`
	Content string `json:"content" desc:"the complete new content of the file"`
}

// Rewrite returns the rewrite tool.
func (r *Root) Rewrite() tool.Tool {
	return tool.New("rewrite", "Replace a whole file (or create it) with new content. Use patch for small changes.",
		func(ctx context.Context, in RewriteArgs) (tool.Result, error) {
			rel, problem := clean(in.Path)
			if problem != "" {
				return tool.Errorf("%s", problem), nil
			}
			if err := r.write(rel, []byte(in.Content)); err != nil {
				return tool.Errorf("%s", err), nil
			}
			return tool.Text(fmt.Sprintf("wrote %s (%d bytes, %d lines)", rel, len(in.Content), strings.Count(in.Content, "\n")+1)), nil
		})
}

// write replaces rel atomically: a temporary file in the same directory
// is written, synced and renamed over the original, keeping its mode. On
// any failure the original is untouched and the temporary file removed.
func (r *Root) write(rel string, data []byte) (err error) {
	if len(data) > r.MaxFileSize {
		return fmt.Errorf("content too large (%d bytes)", len(data))
	}
	mode := fs.FileMode(0o644)
	if info, err := r.r.Lstat(rel); err == nil && info.Mode()&fs.ModeSymlink != 0 {
		return fmt.Errorf("%s is a symlink; write to the file it points to instead", rel)
	}
	if info, err := r.r.Stat(rel); err == nil {
		if !info.Mode().IsRegular() {
			return fmt.Errorf("%s is not a regular file", rel)
		}
		mode = info.Mode().Perm()
	} else if dir := path.Dir(rel); dir != "." {
		if err := r.r.MkdirAll(dir, 0o755); err != nil {
			return fmt.Errorf("%s", explain(dir, err))
		}
	}
	tmp := path.Join(path.Dir(rel), fmt.Sprintf(".%s.jsec-tmp-%d", path.Base(rel), os.Getpid()))
	f, err := r.r.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, mode)
	if err != nil {
		return fmt.Errorf("%s", explain(rel, err))
	}
	defer func() {
		if err != nil {
			f.Close()
			r.r.Remove(tmp)
		}
	}()
	if _, err = f.Write(data); err != nil {
		return fmt.Errorf("write %s: %v", rel, err)
	}
	if err = f.Sync(); err != nil {
		return fmt.Errorf("write %s: %v", rel, err)
	}
	if err = f.Close(); err != nil {
		return fmt.Errorf("write %s: %v", rel, err)
	}
	if err = r.r.Rename(tmp, rel); err != nil {
		return fmt.Errorf("%s", explain(rel, err))
	}
	return nil
}

func clean(p string) (string, string) {
	p = strings.TrimSpace(p)
	if p == "" {
		return "", "path is empty"
	}
	if strings.HasPrefix(p, "/") {
		return "", fmt.Sprintf("path %q is absolute; use a path relative to the project root", p)
	}
	c := path.Clean(p)
	if c == ".." || strings.HasPrefix(c, "../") || c == "." {
		return "", fmt.Sprintf("path %q is not a file inside the project root", p)
	}
	return c, ""
}

func explain(rel string, err error) string {
	switch {
	case os.IsNotExist(err):
		return fmt.Sprintf("%s does not exist", rel)
	case strings.Contains(err.Error(), "escapes"):
		return fmt.Sprintf("%s resolves outside the project root; it cannot be written", rel)
	}
	return fmt.Sprintf("%s: %v", rel, err)
}
