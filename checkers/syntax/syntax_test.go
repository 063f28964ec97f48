package syntax

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"
)

func parse(t *testing.T, lang Lang, src string, ranges ...Range) *Tree {
	t.Helper()
	p := NewParser(lang)
	t.Cleanup(p.Close)
	tree, err := p.Parse([]byte(src), ranges)
	if err != nil {
		t.Fatal(err)
	}
	return tree
}

func TestParseC(t *testing.T) {
	src := "int main(int argc, char **argv) {\n  char buf[8];\n  strcpy(buf, argv[1]);\n}\n"
	tree := parse(t, C, src)
	root := tree.Root()
	if root.Kind() != "translation_unit" || root.Start() != 0 || root.End() != len(src) {
		t.Fatalf("root = %s [%d,%d)", root.Kind(), root.Start(), root.End())
	}
	off := strings.Index(src, "strcpy")
	id := tree.NodeAt(off)
	if id.Kind() != "identifier" || id.Text() != "strcpy" {
		t.Fatalf("NodeAt(strcpy) = %s %q", id.Kind(), id.Text())
	}
	call := id.Parent()
	if call.Kind() != "call_expression" || id.FieldName() != "function" {
		t.Fatalf("parent = %s, field %q", call.Kind(), id.FieldName())
	}
	args := call.Field("arguments")
	if args.NamedChildCount() != 2 || args.NamedChild(0).Text() != "buf" || args.NamedChild(1).Text() != "argv[1]" {
		t.Fatalf("arguments = %s", args)
	}
	fn := id.Ancestor("function_definition")
	if !fn.Valid() || fn.Field("declarator").Field("declarator").Text() != "main" {
		t.Fatalf("enclosing function not found: %s", fn)
	}
	if !fn.Contains(id) || id.Contains(fn) {
		t.Fatal("Contains is wrong")
	}
	if root.HasError() {
		t.Fatal("clean source reported an error")
	}
	n := 0
	for range root.Descendants() {
		n++
	}
	if n != tree.Len() {
		t.Fatalf("Descendants visited %d of %d nodes", n, tree.Len())
	}
}

func TestIncludedRangesKeepOffsets(t *testing.T) {
	src := "int a(void) { return 1; }\n#garbage that is not C @@@\nint b(char *s) { return gets(s) != 0; }\n"
	start := strings.Index(src, "int b")
	tree := parse(t, C, src, Range{start, len(src)})
	off := strings.Index(src, "gets")
	n := tree.NodeAt(off)
	if n.Text() != "gets" || n.Start() != off {
		t.Fatalf("NodeAt in range = %q at %d, want gets at %d", n.Text(), n.Start(), off)
	}
	if tree.Root().HasError() {
		t.Fatalf("the excluded garbage leaked into the parse: %s", tree.Root())
	}
	if got := tree.NodeAt(2); got.Valid() && got.Kind() != "translation_unit" {
		t.Fatalf("a byte outside the ranges resolved to %s", got.Kind())
	}
}

func TestErrorsAndMissing(t *testing.T) {
	tree := parse(t, C, "int f( { return 1 }")
	if !tree.Root().HasError() {
		t.Fatal("broken source parsed without error")
	}
}

func TestRustAndCPP(t *testing.T) {
	rs := parse(t, Rust, "fn f(p: *const u8) -> u8 { unsafe { *p } }")
	if !strings.Contains(rs.Root().String(), "(unsafe_block") {
		t.Fatalf("rust: %s", rs.Root())
	}
	cc := parse(t, CPP, "class A { public: virtual ~A(); }; void g() { auto p = reinterpret_cast<int*>(0); }")
	if !strings.Contains(cc.Root().String(), "reinterpret_cast") && !strings.Contains(cc.Root().String(), "template_function") {
		t.Fatalf("cpp: %s", cc.Root())
	}
	if cc.Root().HasError() {
		t.Fatalf("cpp parse error: %s", cc.Root())
	}
}

func TestWalkPrunes(t *testing.T) {
	tree := parse(t, C, "void f(void) { g(h(1)); } void k(void) { m(); }")
	var calls []string
	tree.Root().Walk(func(n Node) bool {
		if n.Kind() == "call_expression" {
			calls = append(calls, n.Field("function").Text())
			return false // skip the nested h(1)
		}
		return true
	})
	if strings.Join(calls, ",") != "g,m" {
		t.Fatalf("calls = %v", calls)
	}
}

func TestDeepNestingDoesNotCrash(t *testing.T) {
	depth := 100000
	src := "int f(void) { return " + strings.Repeat("(", depth) + "1" + strings.Repeat(")", depth) + "; }"
	tree := parse(t, C, src)
	if tree.Len() < depth {
		t.Fatalf("only %d nodes for %d levels", tree.Len(), depth)
	}
	var b bytes.Buffer
	b.WriteString("void g(void) ")
	b.WriteString(strings.Repeat("{", depth))
	b.WriteString(strings.Repeat("}", depth))
	q := NewParser(C)
	defer q.Close()
	if _, err := q.Parse(b.Bytes(), nil); err != nil {
		t.Fatal(err)
	}
}

func TestParserReuseAndClose(t *testing.T) {
	p := NewParser(C)
	for i := range 3 {
		tree, err := p.Parse([]byte("int x = "+strings.Repeat("1+", i)+"1;"), nil)
		if err != nil || tree.Root().HasError() {
			t.Fatalf("parse %d: %v", i, err)
		}
	}
	p.Close()
	p.Close()
	if _, err := p.Parse([]byte("int x;"), nil); err == nil {
		t.Fatal("closed parser parsed")
	}
}

// TestFieldNamesFromAnywhere: Field answers the same for a constant name,
// a name built at run time, and a name it does not know, whatever its
// lookup cache holds.
func TestFieldNamesFromAnywhere(t *testing.T) {
	p := NewParser(C)
	defer p.Close()
	tree, err := p.Parse([]byte("int f(int a) { return a + 1; }\n"), nil)
	if err != nil {
		t.Fatal(err)
	}
	var fn Node
	for n := range tree.Root().Descendants() {
		if n.Kind() == "function_definition" {
			fn = n
		}
	}
	built := string([]byte{'b', 'o', 'd', 'y'})
	for i := 0; i < 3; i++ {
		if fn.Field("body").Kind() != "compound_statement" || fn.Field(built).Kind() != "compound_statement" {
			t.Fatalf("round %d: Field(body) = %q, Field(built) = %q", i, fn.Field("body").Kind(), fn.Field(built).Kind())
		}
		if fn.Field("no_such_field").Valid() || fn.Field(string([]byte("declarator"))).Kind() != "function_declarator" {
			t.Fatalf("round %d: unknown field found, or declarator missing", i)
		}
	}
}

// TestArenaCapFallsBack: a parse that outgrows its arena (token soup keeps
// error recovery busy, and frees are no-ops in the arena) is redone with
// ordinary allocation and gives the tree the arena would have given.
func TestArenaCapFallsBack(t *testing.T) {
	var b strings.Builder
	b.WriteString("void f(void) {\n")
	soup := []string{"if", "(", ")", "{", "x", "->", "[", "*", "=", ";", "int", "}", "goto", ":", ","}
	for i := 0; b.Len() < 200_000; i++ {
		b.WriteString(soup[(i*7+i/3)%len(soup)])
		b.WriteByte(' ')
	}
	b.WriteString("}\n")
	src := []byte(b.String())
	shape := func(capBytes int) []string {
		p := NewParser(C)
		defer p.Close()
		p.SetArenaCap(capBytes)
		tree, err := p.Parse(src, nil)
		if err != nil {
			t.Fatalf("cap %d: %v", capBytes, err)
		}
		if capBytes > 0 && int(p.buf.arena_bytes) <= capBytes {
			t.Fatalf("cap %d: the arena parse took %d bytes, no fallback", capBytes, p.buf.arena_bytes)
		}
		var out []string
		for n := range tree.Root().Descendants() {
			out = append(out, fmt.Sprintf("%s %d %d", n.Kind(), n.Start(), n.End()))
		}
		return out
	}
	big, small := shape(0), shape(8<<20)
	if len(big) < 1000 || strings.Join(big, "\n") != strings.Join(small, "\n") {
		t.Fatalf("arena parse: %d nodes, fallback parse: %d nodes, or they differ", len(big), len(small))
	}
	p := NewParser(C)
	defer p.Close()
	p.SetArenaCap(1 << 20)
	if tree, err := p.Parse([]byte("int g(void) { return 1; }\n"), nil); err != nil || tree.Root().Kind() != "translation_unit" {
		t.Fatalf("a small parse under the same cap: %v", err)
	}
}

// TestLibcRedoIsBounded: a parse redone with libc allocation (past the
// arena's cap) is cancelled once it holds more than four times that cap,
// and says so; the parser is fine afterwards.
func TestLibcRedoIsBounded(t *testing.T) {
	var b strings.Builder
	b.WriteString("void f(void) {\n")
	for i := 0; b.Len() < 200_000; i++ {
		b.WriteString("if (x) { y = z[i] + 1; } ")
	}
	b.WriteString("}\n")
	p := NewParser(C)
	defer p.Close()
	p.SetArenaCap(32 << 10)
	_, err := p.Parse([]byte(b.String()), nil)
	if !errors.Is(err, ErrParse) || !strings.Contains(err.Error(), "needed more than 128 KB of memory") {
		t.Fatalf("err = %v, want a parse that needed more than 128 KB", err)
	}
	p.SetArenaCap(0)
	if tree, err := p.Parse([]byte(b.String()), nil); err != nil || tree.Root().Kind() != "translation_unit" {
		t.Fatalf("the same parse under the default cap: %v", err)
	}
}

// TestRangesAcrossLines parses two ranges with 27 lines between them, the
// first ending inside a comment that the second closes. While the ranges'
// points ignored rows, this layout (taken from a git header) sent the
// parse into runaway allocation: 20 GB within the 10 s timeout.
func TestRangesAcrossLines(t *testing.T) {
	a := "\n\n\n\n/*\n"
	var gap strings.Builder
	for _, n := range []int{47, 3, 21, 12, 50, 31, 63, 62, 57, 60, 62, 57, 62, 61, 63, 54, 59, 62, 58, 62, 62, 25, 4, 27, 23, 63, 61} {
		gap.WriteString(strings.Repeat("x", n) + "\n")
	}
	b := "\t * xx xxxxx xxxxxxxxx, xxx xxxxxxxx xxxx xx xxxxx, xxxxxx xx\n\t * xxxxxxxxx xxxx xx xx xxxxxx xx x xxxxxxxxx xxxxxx, xx xx\n" +
		"\t * xxxxxxxx xxxx xx xxx xxxxxxxxxxxx xxx xxxx xxxxxxx xxxx\n\t * xxxxxx xx xxxxxxxxxx xx x xxxxxxxxx xxxxxx.\n\t */\nint x;\n"
	src := a + gap.String() + b
	p := NewParser(C)
	defer p.Close()
	p.Timeout = time.Second
	tree, err := p.Parse([]byte(src), []Range{{0, len(a)}, {len(a) + gap.Len(), len(src)}})
	if err != nil {
		t.Fatal(err)
	}
	if decl := tree.NodeAt(strings.Index(src, "int x")).Parent(); decl.Kind() != "declaration" || decl.Text() != "int x;" {
		t.Fatalf("int x; parsed as %s %q", decl.Kind(), decl.Text())
	}
}

func TestPointsCountRows(t *testing.T) {
	src := []byte("ab\ncd\n\nefg")
	var pt pointer
	for _, c := range []struct{ off, row, col int }{{0, 0, 0}, {2, 0, 2}, {3, 1, 0}, {7, 3, 0}, {9, 3, 2}, {10, 3, 3}, {99, 3, 3}} {
		if p := pt.at(src, c.off); int(p.row) != c.row || int(p.column) != c.col {
			t.Errorf("at(%d) = %d:%d, want %d:%d", c.off, p.row, p.column, c.row, c.col)
		}
	}
	// Increasing offsets into random text, against a count byte by byte.
	rng := rand.New(rand.NewPCG(1, 2))
	for range 500 {
		src := make([]byte, rng.IntN(300))
		for i := range src {
			src[i] = "ab\n"[rng.IntN(3)]
		}
		var pt pointer
		for off := 0; off <= len(src); off += rng.IntN(40) {
			row, lineStart := 0, 0
			for i, c := range src[:off] {
				if c == '\n' {
					row, lineStart = row+1, i+1
				}
			}
			if p := pt.at(src, off); int(p.row) != row || int(p.column) != off-lineStart {
				t.Fatalf("%q: at(%d) = %d:%d, want %d:%d", src, off, p.row, p.column, row, off-lineStart)
			}
		}
	}
}

// TestDenseTableMatches holds the dense parse table (runtime.c) to
// tree-sitter's own lookup for every small state and symbol of every
// grammar: the parser takes the same action on every step either way.
func TestDenseTableMatches(t *testing.T) {
	for _, l := range []Lang{C, CPP, Rust} {
		if n := denseMismatches(l); n != 0 {
			t.Errorf("%s: %d lookups differ from tree-sitter's (-1: no dense table)", l, n)
		}
	}
}

// TestDenseRowsFillLazily holds the dense table to filling only the rows
// of the states a parse reaches: in a fresh process (this test binary run
// again for TestDenseFirstParse), one small function reaches a small part
// of the C grammar; and rows marked unfilled fill again with tree-sitter's
// answers.
func TestDenseRowsFillLazily(t *testing.T) {
	cmd := exec.Command(os.Args[0], "-test.run=^TestDenseFirstParse$", "-test.v")
	cmd.Env = append(os.Environ(), "JSEC_DENSE_CHILD=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("child: %v\n%s", err, out)
	}
	var filled, total, used int
	if _, err := fmt.Sscanf(string(out[max(0, bytes.Index(out, []byte("filled "))):]), "filled %d of %d in rows %d", &filled, &total, &used); err != nil {
		t.Fatalf("child output: %v\n%s", err, out)
	}
	// The rows are laid out in the order they were filled: the memory
	// touched is that of the rows filled, not of the whole table.
	if used != filled {
		t.Errorf("%d rows filled took the first %d rows of the table; want as many", filled, used)
	}
	if filled <= 0 || filled*10 > total {
		t.Errorf("a fresh process's one-line parse filled %d of %d rows; want some, and under a tenth", filled, total)
	}
	denseFilled(C, true)
	if n := denseMismatches(C); n != 0 {
		t.Fatalf("%d lookups differ from tree-sitter's after refilling", n)
	}
}

// TestDenseFirstParse is TestDenseRowsFillLazily's child: it reports the
// rows one parse fills in a process that has parsed nothing before.
func TestDenseFirstParse(t *testing.T) {
	if os.Getenv("JSEC_DENSE_CHILD") == "" {
		t.Skip("run by TestDenseRowsFillLazily")
	}
	p := NewParser(C)
	defer p.Close()
	tree, err := p.Parse([]byte("int f(char *s) { char b[8]; if (s) strcpy(b, s); return b[0]; }\n"), nil)
	if err != nil {
		t.Fatal(err)
	}
	if tree.Root().HasError() {
		t.Fatal("the snippet does not parse cleanly")
	}
	filled := denseFilled(C, false)
	used := denseRowsUsed(C)
	denseMismatches(C)
	fmt.Printf("filled %d of %d in rows %d\n", filled, denseFilled(C, false), used)
}

// TestAssertsFollowTag holds the runtime's build to ndebug.go: asserts
// compiled out by default, in with -tags tsassert.
func TestAssertsFollowTag(t *testing.T) {
	if got := assertsCompiled(); got != assertsWanted {
		t.Errorf("tree-sitter's asserts compiled in: %v; want %v", got, assertsWanted)
	}
}

// TestArenaChunksReused holds the arena to its pool: once one parser has
// parsed and closed, parsers made later (a private one per function a
// checker parses, say) reuse its chunks instead of touching new memory.
func TestArenaChunksReused(t *testing.T) {
	src := []byte(strings.Repeat("int f(int a) { int b = a * 2; if (b > 3) { return g(b, a); } return 0; }\n", 2000))
	first := NewParser(C)
	if _, err := first.Parse(src, nil); err != nil {
		t.Fatal(err)
	}
	first.Close()
	made := chunksMade()
	if made == 0 {
		t.Fatal("no arena chunk was allocated")
	}
	for i := 0; i < 5; i++ {
		p := NewParser(C)
		if _, err := p.Parse(src, nil); err != nil {
			t.Fatal(err)
		}
		p.Close()
	}
	if got := chunksMade(); got != made {
		t.Errorf("five later parsers allocated %d new chunks; want 0 (the pool's)", got-made)
	}
}

// TestGrammarNames holds the names read in one call per grammar to those
// read one call each.
func TestGrammarNames(t *testing.T) {
	for _, lang := range []Lang{C, CPP, Rust} {
		kinds, fields := namesOneByOne(lang)
		g := grammars[lang]
		g.loadNames()
		if !slices.Equal(g.kinds, kinds) || !slices.Equal(g.fields, fields) {
			t.Fatalf("%v: %d kinds, %d fields; one by one %d, %d", lang, len(g.kinds), len(g.fields), len(kinds), len(fields))
		}
		for i, name := range fields[1:] {
			if g.field[name] == 0 {
				t.Errorf("%v: field %q (id %d) not in the map", lang, name, i+1)
			}
		}
		if len(kinds) < 100 || len(fields) < 10 {
			t.Errorf("%v: only %d kinds and %d fields", lang, len(kinds), len(fields))
		}
	}
	// A buffer too small for the names is grown.
	defer func(n int) { namesBufSize = n }(namesBufSize)
	namesBufSize = 64
	if got := grammarNames(grammars[CPP].lang, false, 0, len(grammars[CPP].kinds)); !slices.Equal(got, grammars[CPP].kinds) {
		t.Fatal("grammarNames differs on a second read")
	}
}
