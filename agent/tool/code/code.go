// Package code provides the read-only tools an agent uses to explore a
// code base: read_code, search_code and list_files. Each is bound to a
// root directory through os.Root, so no path can leave it: absolute
// paths, ".." and symlinks that point outside are refused with an error
// result, and the operating system enforces it on every open.
package code

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"strings"
	"syscall"

	"github.com/jsec/jsec/agent/tool"
)

// Limits bound what the tools return.
type Limits struct {
	// MaxLines is the most lines read_code returns per call (default 400).
	MaxLines int
	// MaxFileSize is the largest file read or searched (default 10 MB).
	MaxFileSize int64
	// MaxMatches bounds search_code results (default 200).
	MaxMatches int
	// MaxEntries bounds list_files results (default 500).
	MaxEntries int
}

func (l Limits) withDefaults() Limits {
	if l.MaxLines <= 0 {
		l.MaxLines = 400
	}
	if l.MaxFileSize <= 0 {
		l.MaxFileSize = 10 << 20
	}
	if l.MaxMatches <= 0 {
		l.MaxMatches = 200
	}
	if l.MaxEntries <= 0 {
		l.MaxEntries = 500
	}
	return l
}

// Root is a directory the tools cannot leave.
type Root struct {
	r      *os.Root
	limits Limits
}

// OpenRoot confines the tools to dir.
func OpenRoot(dir string, limits Limits) (*Root, error) {
	r, err := os.OpenRoot(dir)
	if err != nil {
		return nil, fmt.Errorf("open tool root: %w", err)
	}
	return &Root{r: r, limits: limits.withDefaults()}, nil
}

// Close releases the root.
func (r *Root) Close() error { return r.r.Close() }

// Tools returns read_code, search_code and list_files bound to r.
func (r *Root) Tools() []tool.ReadOnlyTool {
	return []tool.ReadOnlyTool{r.ReadCode(), r.SearchCode(), r.ListFiles()}
}

// clean turns a model-supplied path into a root-relative one, or explains
// why it cannot be used.
func clean(p string) (string, string) {
	p = strings.TrimSpace(p)
	if p == "" || p == "." || p == "./" {
		return ".", ""
	}
	if strings.HasPrefix(p, "/") || len(p) > 1 && p[1] == ':' {
		return "", fmt.Sprintf("path %q is absolute; use a path relative to the project root (for example src/main.c)", p)
	}
	c := path.Clean(strings.ReplaceAll(p, "\\", "/"))
	if c == ".." || strings.HasPrefix(c, "../") {
		return "", fmt.Sprintf("path %q leaves the project root; use a path inside it", p)
	}
	return c, ""
}

// open opens a regular file under the root without ever blocking on a
// FIFO or device.
func (r *Root) open(rel string) (*os.File, fs.FileInfo, string) {
	f, err := r.r.OpenFile(rel, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, nil, explain(rel, err)
	}
	info, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, explain(rel, err)
	}
	if info.IsDir() {
		f.Close()
		return nil, nil, fmt.Sprintf("%s is a directory; use list_files to see what it holds", rel)
	}
	if !info.Mode().IsRegular() {
		f.Close()
		return nil, nil, fmt.Sprintf("%s is not a regular file", rel)
	}
	return f, info, ""
}

func (r *Root) readFile(rel string) ([]byte, string) {
	f, info, problem := r.open(rel)
	if problem != "" {
		return nil, problem
	}
	defer f.Close()
	if info.Size() > r.limits.MaxFileSize {
		return nil, fmt.Sprintf("%s is too large to read (%d bytes)", rel, info.Size())
	}
	data, err := io.ReadAll(io.LimitReader(f, r.limits.MaxFileSize+1))
	if err != nil {
		return nil, explain(rel, err)
	}
	return data, ""
}

// explain turns a filesystem error into advice for the model.
func explain(rel string, err error) string {
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Sprintf("%s does not exist; use list_files or search_code to find the right path", rel)
	case strings.Contains(err.Error(), "escapes from parent") || strings.Contains(err.Error(), "path escapes"):
		return fmt.Sprintf("%s resolves outside the project root (a symlink?); it cannot be read", rel)
	case errors.Is(err, fs.ErrPermission):
		return fmt.Sprintf("%s cannot be read (permission denied)", rel)
	}
	return fmt.Sprintf("%s cannot be read: %v", rel, unwrapPath(err))
}

func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
