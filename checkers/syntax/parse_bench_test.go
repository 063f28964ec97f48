package syntax

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// BenchmarkParse parses whole C files: the tree-sitter runtime and the
// flattening into Go's node array, nothing else. The files are the .c
// files under $JSEC_BENCH_DIR (default /usr/include's .h files), up to
// 8 MB.
func BenchmarkParse(b *testing.B) {
	dir, ext := os.Getenv("JSEC_BENCH_DIR"), ".c"
	if dir == "" {
		dir, ext = "/usr/include", ".h"
	}
	var srcs [][]byte
	total := 0
	filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || total > 8<<20 {
			return filepath.SkipDir
		}
		if d.Type().IsRegular() && strings.HasSuffix(path, ext) {
			if src, err := os.ReadFile(path); err == nil && len(src) < 1<<20 {
				srcs = append(srcs, src)
				total += len(src)
			}
		}
		return nil
	})
	if len(srcs) == 0 {
		b.Skip("no " + ext + " files under " + dir)
	}
	p := NewParser(C)
	defer p.Close()
	b.SetBytes(int64(total))
	for b.Loop() {
		for _, src := range srcs {
			if _, err := p.Parse(src, nil); err != nil {
				b.Fatal(err)
			}
		}
	}
}
