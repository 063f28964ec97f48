package c

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// BenchmarkLex lexes the C files under $JSEC_BENCH_DIR (default
// /usr/include), the cost every file with a trigger pays before parsing.
func BenchmarkLex(b *testing.B) {
	dir := os.Getenv("JSEC_BENCH_DIR")
	if dir == "" {
		dir = "/usr/include"
	}
	var files [][]byte
	total := 0
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && (strings.HasSuffix(p, ".c") || strings.HasSuffix(p, ".h")) && total < 64<<20 {
			if src, err := os.ReadFile(p); err == nil {
				files = append(files, src)
				total += len(src)
			}
		}
		return nil
	})
	if total == 0 {
		b.Skip("no C files under " + dir)
	}
	b.SetBytes(int64(total))
	for b.Loop() {
		for _, f := range files {
			Lex(f, false)
		}
	}
}
