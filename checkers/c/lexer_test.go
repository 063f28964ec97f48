package c

import (
	"strings"
	"testing"

	"github.com/jsec/jsec/checkers"
)

func idents(lx *checkers.Lexed) []string {
	var out []string
	for i, t := range lx.Tokens {
		if t.Kind == checkers.TokIdent {
			out = append(out, lx.Text(i))
		}
	}
	return out
}

func TestLexSkipsCommentsStringsAndDeadCode(t *testing.T) {
	src := `/* strcpy in a comment */
// gets too
#define X "strcat"
char *s = "sprintf(\"%s\")";
#if 0
system(cmd);
#else
live1();
#endif
#if 1
live2();
#else
dead();
#endif
#if 0
# if 1
nested_dead();
# endif
#elif FOO
live3();
#endif
char c = '\'';
const char *r = R"x(raw strcpy )" )x";
`
	got := strings.Join(idents(Lex([]byte(src), true)), " ")
	want := "char s live1 live2 live3 char c const char r"
	if got != want {
		t.Fatalf("identifiers:\n got %s\nwant %s", got, want)
	}
	// In C mode R"..." is an identifier R followed by a string.
	got = strings.Join(idents(Lex([]byte(`char *r = R"(x)";`), false)), " ")
	if got != "char r R" {
		t.Fatalf("C mode raw string: %s", got)
	}
}

func TestLexUnterminated(t *testing.T) {
	for _, src := range []string{"char *s = \"abc\nint x;", "/* never closed\nint y;", "#if 0\nint z;", "char c = '", "R\"xx(", "#define A \\"} {
		lx := Lex([]byte(src), true)
		for _, tk := range lx.Tokens {
			if tk.Start < 0 || int(tk.End) > len(src) || tk.End < tk.Start {
				t.Fatalf("%q: bad token %+v", src, tk)
			}
		}
	}
	lx := Lex([]byte("char *s = \"abc\nint x;"), false)
	if got := strings.Join(idents(lx), " "); got != "char s int x" {
		t.Fatalf("unterminated string swallowed the next line: %s", got)
	}
}

func itemTexts(lx *checkers.Lexed) []string {
	var out []string
	for _, it := range lx.Items {
		out = append(out, strings.Join(strings.Fields(string(lx.Src[it.Start:it.End])), " "))
	}
	return out
}

func TestItems(t *testing.T) {
	src := `#include <stdio.h>
static int counter = 0;
struct point { int x, y; };
int table[] = { 1, 2, 3 };
static int
add(int a, int b)
{
	if (a) { return a + b; }
	return b;
}
#ifdef WIDE
int g(int a, int b) {
#else
int g(int a) {
#endif
	return a;
}
namespace outer { namespace inner {
void m() { x(); }
} }
extern "C" {
int c_api(void);
}
auto l = [](int v) { return v; };
void tryblock() try { f(); } catch (...) { }
static struct entry *lookup(struct table *t, int fd) { return t->e[fd]; }
#ifndef __VMS
int vms1(void) { return 1; }
int vms2(void) { return 2; }
#else
int vms1(void) { return 3; }
int vms2(void) { return 4; }
#endif
struct __attribute__((packed)) hdr { int a; };
`
	got := itemTexts(Lex([]byte(src), true))
	want := []string{
		"static int counter = 0;",
		"struct point { int x, y; };",
		"int table[] = { 1, 2, 3 };",
		"static int add(int a, int b) { if (a) { return a + b; } return b; }",
		"int g(int a, int b) { #else int g(int a) { #endif return a; }",
		"void m() { x(); }",
		"int c_api(void);",
		"auto l = [](int v) { return v; };",
		"void tryblock() try { f(); } catch (...) { }",
		"static struct entry *lookup(struct table *t, int fd) { return t->e[fd]; }",
		"int vms1(void) { return 1; }",
		"int vms2(void) { return 2; }",
		"int vms1(void) { return 3; }",
		"int vms2(void) { return 4; }",
		"struct __attribute__((packed)) hdr { int a; };",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("items:\n%s\n--- want\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	lx := Lex([]byte(src), true)
	if len(lx.Containers) != 3 || lx.Containers[1].Name != "inner" || lx.Containers[1].Parent != 0 {
		t.Fatalf("containers: %+v", lx.Containers)
	}
}

func TestItemsSurviveGarbage(t *testing.T) {
	for _, src := range []string{"}}}} int f() { {{{", "int f( { ;", ")))(((", "namespace {", "extern \"C\" { int x;"} {
		lx := Lex([]byte(src), true)
		last := -1
		for _, it := range lx.Items {
			if it.TokStart < last || it.TokEnd <= it.TokStart || it.End > len(src) {
				t.Fatalf("%q: bad item %+v", src, it)
			}
			last = it.TokEnd
		}
	}
}

// TestLexReusesBuffers holds Lex to its buffer reuse: after Recycle, the
// next file lexes into the same token, comment and item arrays.
func TestLexReusesBuffers(t *testing.T) {
	big := LexC([]byte("/* a */ int f(void) { return 1; }\n/* b */ int g(void) { return 2; }\n"))
	toks, comments, items := &big.Tokens[:1][0], &big.Comments[:1][0], &big.Items[:1][0]
	big.Recycle()
	small := LexC([]byte("/* c */ int h(void) { return 3; }\n"))
	defer small.Recycle()
	if &small.Tokens[0] != toks || &small.Comments[0] != comments || &small.Items[0] != items {
		t.Errorf("a file lexed after Recycle got fresh arrays (tokens %v, comments %v, items %v); want the recycled ones",
			&small.Tokens[0] != toks, &small.Comments[0] != comments, &small.Items[0] != items)
	}
	if len(small.Items) != 1 || len(small.Comments) != 1 || small.Text(len(small.Tokens)-1) != "}" {
		t.Errorf("the second file's tables are wrong: %d items, %d comments, last token %q", len(small.Items), len(small.Comments), small.Text(len(small.Tokens)-1))
	}
}
