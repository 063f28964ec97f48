package checkers_test

import (
	"context"
	"os"
	"testing"

	"github.com/jsec/jsec/checkers"
	cchk "github.com/jsec/jsec/checkers/c"
)

// BenchmarkScan runs a whole scan (walk, read, prefilter, lex, parse,
// every checker, issue conversion) over $JSEC_BENCH_DIR, default
// /usr/include. Compare with scripts/bench.sh for the end-to-end binary.
func BenchmarkScan(b *testing.B) {
	dir := os.Getenv("JSEC_BENCH_DIR")
	if dir == "" {
		dir = "/usr/include"
	}
	if _, err := os.Stat(dir); err != nil {
		b.Skip(dir + " not found")
	}
	var bytes int64
	for b.Loop() {
		res, err := checkers.Scan(context.Background(), dir, checkers.Options{
			Languages: languages(), ClassifyHeader: cchk.ClassifyHeader,
			Walk: checkers.WalkOptions{NoDefaultExcludes: true, NoIgnoreFiles: true},
		})
		if err != nil {
			b.Fatal(err)
		}
		bytes = res.Bytes
	}
	b.SetBytes(bytes)
}
