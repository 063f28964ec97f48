package code

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"path"
	"regexp"
	"strings"

	"github.com/jsec/jsec/agent/tool"
	"github.com/jsec/jsec/rules/grep"
)

// SearchCodeArgs are search_code's parameters.
type SearchCodeArgs struct {
	Pattern  string `json:"pattern" desc:"regular expression (RE2 syntax), matched line by line"`
	PathGlob string `json:"path_glob,omitempty" desc:"only search files whose root-relative path matches this glob (*.c, src/**/*.h); default all files"`
}

// skipDirs are never searched.
var skipDirs = map[string]bool{".git": true, "node_modules": true, "target": true, ".hg": true, ".svn": true}

// SearchCode returns the search_code tool.
func (r *Root) SearchCode() tool.ReadOnlyTool {
	return tool.NewReadOnly("search_code",
		fmt.Sprintf("Search the project's text files for a regular expression; returns path:line: text for up to %d matching lines.", r.limits.MaxMatches),
		func(ctx context.Context, in SearchCodeArgs) (tool.Result, error) { return r.searchCode(ctx, in) })
}

func (r *Root) searchCode(ctx context.Context, in SearchCodeArgs) (tool.Result, error) {
	pat, err := grep.Compile(in.Pattern)
	if err != nil {
		return tool.Errorf("invalid pattern: %v (RE2 syntax: escape ( ) [ ] . * with a backslash)", err), nil
	}
	var glob *regexp.Regexp
	if in.PathGlob != "" {
		if glob, err = globRE(in.PathGlob); err != nil {
			return tool.Errorf("invalid path_glob %q: %v", in.PathGlob, err), nil
		}
	}
	var b strings.Builder
	n, files := 0, 0
	truncated := false
	walkErr := fs.WalkDir(r.r.FS(), ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil // unreadable entries are skipped
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if d.IsDir() {
			if p != "." && skipDirs[d.Name()] {
				return fs.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() || glob != nil && !glob.MatchString(p) && !glob.MatchString(path.Base(p)) {
			return nil
		}
		data, problem := r.readFile(p)
		if problem != "" || bytes.IndexByte(data[:min(len(data), 8000)], 0) >= 0 {
			return nil
		}
		files++
		pat.Search(data, func(m grep.Match) bool {
			if n >= r.limits.MaxMatches {
				truncated = true
				return false
			}
			n++
			text := strings.TrimRight(string(bytes.ToValidUTF8(m.Text, []byte("\uFFFD"))), "\r")
			if len(text) > 300 {
				text = text[:300] + "…"
			}
			fmt.Fprintf(&b, "%s:%d: %s\n", p, m.Line, text)
			return true
		})
		if truncated {
			return fs.SkipAll
		}
		return nil
	})
	if walkErr != nil && ctx.Err() != nil {
		return tool.Result{}, ctx.Err()
	}
	switch {
	case n == 0:
		return tool.Text(fmt.Sprintf("no matches for %q in %d files", in.Pattern, files)), nil
	case truncated:
		fmt.Fprintf(&b, "[stopped after %d matches; narrow the pattern or the path_glob]\n", n)
	}
	return tool.Text(b.String()), nil
}

// globRE translates a glob: * and ? within a path segment, ** across
// segments, [...] classes.
func globRE(g string) (*regexp.Regexp, error) {
	g = strings.TrimPrefix(g, "./")
	var b strings.Builder
	b.WriteString("^")
	for i := 0; i < len(g); i++ {
		switch c := g[i]; {
		case c == '*' && i+1 < len(g) && g[i+1] == '*':
			if i+2 < len(g) && g[i+2] == '/' {
				b.WriteString("(?:.*/)?")
				i += 2
			} else {
				b.WriteString(".*")
				i++
			}
		case c == '*':
			b.WriteString("[^/]*")
		case c == '?':
			b.WriteString("[^/]")
		case c == '[':
			j := strings.IndexByte(g[i:], ']')
			if j < 0 {
				return nil, fmt.Errorf("unterminated [")
			}
			b.WriteString(g[i : i+j+1])
			i += j
		default:
			b.WriteString(regexp.QuoteMeta(string(c)))
		}
	}
	b.WriteString("$")
	return regexp.Compile(b.String())
}
