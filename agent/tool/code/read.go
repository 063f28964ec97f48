package code

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/jsec/jsec/agent/tool"
)

// ReadCodeArgs are read_code's parameters.
type ReadCodeArgs struct {
	Path      string `json:"path" desc:"file path relative to the project root"`
	StartLine int    `json:"start_line,omitempty" desc:"first line to read, 1-based (default 1)"`
	EndLine   int    `json:"end_line,omitempty" desc:"last line to read, inclusive; negative counts from the end (-1 is the last line)"`
}

// ReadCode returns the read_code tool: numbered lines of a file.
func (r *Root) ReadCode() tool.ReadOnlyTool {
	return tool.NewReadOnly("read_code",
		fmt.Sprintf("Read lines of a source file under the project root, with line numbers. At most %d lines per call; read long files in ranges.", r.limits.MaxLines),
		func(ctx context.Context, in ReadCodeArgs) (tool.Result, error) { return r.readCode(in), nil })
}

func (r *Root) readCode(in ReadCodeArgs) tool.Result {
	rel, problem := clean(in.Path)
	if problem != "" {
		return tool.Errorf("%s", problem)
	}
	data, problem := r.readFile(rel)
	if problem != "" {
		return tool.Errorf("%s", problem)
	}
	if bytes.IndexByte(data[:min(len(data), 8000)], 0) >= 0 {
		return tool.Errorf("%s is a binary file", rel)
	}
	lines := strings.Split(strings.ReplaceAll(string(data), "\r\n", "\n"), "\n")
	if len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	total := len(lines)
	if total == 0 {
		return tool.Text(fmt.Sprintf("%s is empty", rel))
	}
	start, end := in.StartLine, in.EndLine
	if start <= 0 {
		start = 1
	}
	switch {
	case end < 0:
		end = total + 1 + end
	case end == 0:
		end = start + r.limits.MaxLines - 1
	}
	end = min(end, total)
	if start > total {
		return tool.Errorf("%s has %d lines; start_line %d is past the end", rel, total, start)
	}
	if end < start {
		return tool.Errorf("end_line %d is before start_line %d", end, start)
	}
	cut := false
	if end-start+1 > r.limits.MaxLines {
		end, cut = start+r.limits.MaxLines-1, true
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s (lines %d-%d of %d)\n", rel, start, end, total)
	width := len(fmt.Sprint(end))
	for i := start; i <= end; i++ {
		line := lines[i-1]
		if !utf8.ValidString(line) {
			line = strings.ToValidUTF8(line, "\uFFFD")
		}
		fmt.Fprintf(&b, "%*d: %s\n", width, i, line)
	}
	if cut || end < total && in.EndLine == 0 {
		fmt.Fprintf(&b, "[%d more lines; continue with start_line=%d]\n", total-end, end+1)
	}
	return tool.Text(b.String())
}
