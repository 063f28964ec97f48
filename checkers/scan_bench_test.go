package checkers_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
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

// generatedFunction returns one C function of n repetitions of a block of
// calls the checkers look at (copies, formats, allocations, input, locks),
// about 550 bytes each: the shape of generated code (state machines,
// unrolled tables) where one function holds thousands of findings.
func generatedFunction(n int) []byte {
	var b strings.Builder
	b.WriteString("#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\n#include <pthread.h>\n")
	b.WriteString("int fd; pthread_mutex_t mu; int arr[10];\nint k(char *src) {\n  char dst[64], buf[128]; char *q; FILE *fp; int x, y = 0, r;\n  int n")
	for i := range n {
		fmt.Fprintf(&b, ", n%d", i)
	}
	b.WriteString(";\n")
	for i := range n {
		fmt.Fprintf(&b, `  n%[1]d = read(fd, buf, sizeof buf);
  memcpy(dst, src, n%[1]d);
  strcpy(dst, src);
  sprintf(dst, "%%d", n%[1]d);
  q = malloc(n%[1]d * 4);
  if (q == NULL) return -1;
  q[n%[1]d] = 0;
  free(q);
  printf(src);
  system(src);
  x = atoi(src);
  arr[x] = 1;
  fp = fopen(src, "r");
  if (fp) fclose(fp);
  pthread_mutex_lock(&mu);
  pthread_mutex_unlock(&mu);
  strcat(dst, src);
  r = rand();
  alloca(n%[1]d);
`, i)
	}
	b.WriteString("  return y;\n}\n")
	return []byte(b.String())
}

// BenchmarkGeneratedFunction scans one generated function of 100, 400 and
// 1,600 blocks (about 55, 220 and 880 KB; 1,900, 7,600 and 30,400
// findings). Time that grows faster than the size is work done per finding
// over the whole function: 1.0 and 66 s for the first two before the
// per-item facts of the triage and the direct sibling and node lookups of
// the syntax tree, 0.07-0.09 and 0.66-0.77 s after them; 0.04-0.06,
// 0.16-0.18 and 0.77-0.79 s since the guard questions of strcat, strcpy,
// atoi and the path and buffer triage use per-block and per-function
// indexes (guard_index.go).
func BenchmarkGeneratedFunction(b *testing.B) {
	for _, n := range []int{100, 400, 1600} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			dir := b.TempDir()
			src := generatedFunction(n)
			if err := os.WriteFile(filepath.Join(dir, "gen.c"), src, 0o644); err != nil {
				b.Fatal(err)
			}
			for b.Loop() {
				res, err := checkers.Scan(context.Background(), dir, checkers.Options{Languages: languages()})
				if err != nil || len(res.Issues) == 0 {
					b.Fatal(err, len(res.Issues))
				}
			}
			b.SetBytes(int64(len(src)))
		})
	}
}
