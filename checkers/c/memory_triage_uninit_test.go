package c

import (
	"strings"
	"testing"
)

// TestUninitTriageGotoAndChains pins what the token walk of the uninit
// triage proves without a parse: a label joins the states of the gotos to
// it, and the right operand of a top-level && sees what the left wrote.
func TestUninitTriageGotoAndChains(t *testing.T) {
	cases := []struct {
		name, src string
		parse     bool
	}{
		{"every goto sets it", `int f(int fd) { int ret; if (fd < 0) { ret = -1; goto out; } ret = 0; out: return ret; }`, false},
		{"a goto that does not", `int f(int fd) { int ret; if (fd < 0) goto out; ret = 0; out: return ret; }`, true},
		// The state walk forgets every variable at a label a later goto
		// jumps back to (flowAnalysis.labeled), so it reports no read
		// after one; reads before it count.
		{"a backward goto", `int f(int fd) { int ret; again: if (fd) { ret = 1; goto again; } return ret; }`, false},
		{"a read before a label a goto jumps back to", `int f(int fd) { int ret; if (fd) ret = 1; if (ret > 2) return 2; again: if (fd) { ret = 1; goto again; } return ret; }`, true},
		{"a label named twice (a lambda's own)", `int f(int fd) { int ret; h([] { again: goto again; }); again: if (fd) { ret = 1; goto again; } return ret; }`, true},
		{"a GNU nested function may jump to it", `int f(int fd) { int ret; __label__ again; again: if (fd) { ret = 1; goto again; } return ret; }`, true},
		{"a computed goto may reach it", `int f(int fd) { int ret; void *p = &&again; again: if (fd) { ret = 1; goto *p; } return ret; }`, true},
		{"written on the left of &&", `int f(const char *s) { const char *end; return !parse(s, &end) && *end == 0; }`, false},
		{"behind ||", `int f(const char *s, int q) { const char *end; return (q || !parse(s, &end)) && *end == 0; }`, true},
		{"code the walk cannot follow after the last mention", "int f(int a) { int v; if (a) v = 1; else v = 2; use(v);\n#if X\nif (a) {\n#else\nif (!a) {\n#endif\nh(); }\nreturn 0; }", false},
		{"code the walk cannot follow before the last mention", "int f(int a) { int v; if (a) v = 1; else v = 2;\n#if X\nif (a) {\n#else\nif (!a) {\n#endif\nh(); }\nreturn v; }", true},
		// Once assigned on every path with no label, case or directive
		// ahead, the walk stops: code it cannot follow after that point
		// (a statement expression) no longer makes it give up.
		{"code the walk cannot follow once it is assigned", `int f(int a) { int v; if (a) v = 1; else v = 2; g(({ a; })); return v; }`, false},
		{"a case label ahead enters unassigned", `int f(int a) { switch (a) { int v; if (a) v = 1; else v = 2; use(v); case 2: return v; } return 0; }`, true},
		{"the same before it is assigned", `int f(int a) { int v; g(({ a; })); if (a) v = 1; else v = 2; return v; }`, true},
		{"a loop macro with a one-statement body sets it", "int f(struct list *l) { const char **p; for_each_name(p, l)\n if (strchr(*p, 10)) return 1; return 0; }", false},
		{"a loop macro whose one-statement body is a call", "void f(struct list *l) { const char **p; for_each_name(p, l)\n emit(*p); }", false},
		{"&& inside a negation", `int f(const char *s, int q) { const char *end; return !(q && parse(s, &end)) && *end == 0; }`, true},
		{"a struct tag of the same name", `int f(const char *n) { struct commit *commit; struct commit fb = {0}; if (!n) return fb.date; commit = get(n); return commit->date; }`, false},
		{"read after a struct tag", `int f(const char *n) { struct commit *commit; struct commit fb = {0}; if (n) commit = get(n); return commit->date; }`, true},
		{"a (void) statement", `int f(int n) { int spare; (void)spare; return n; }`, false},
		{"the address through a pointer cast", `int f(void) { unsigned char byte; if (get((char *)&byte, 1) != 1) return -1; return byte; }`, false},
		{"a bitwise and", `int f(int a) { int m; int v = a & m; return v; }`, true},
		// The state walk reads (NAME)&x as a cast to a type it cannot
		// know, then &x: no read of m (flowAnalysis.binary).
		{"an address after a parenthesised name", `int f(int a) { int m; int v = (a) & m; return v; }`, false},
		{"a bitwise and after an expression in parentheses", `int f(int a) { int m; int v = (a + 1) & m; return v; }`, true},
		// An #if group that holds arms of an if-else chain: each arm is
		// an alternative (the configurations with and without it).
		{"an else-if arm in an #ifdef, a final else", "int f(int a, int b) { int n; if (a) n = 1;\n#ifdef V6\nelse if (b) n = 2;\n#endif\nelse return 0; return n; }", false},
		{"the arm leaves it unset", "int f(int a, int b) { int n; if (a) n = 1;\n#ifdef V6\nelse if (b) g();\n#endif\nelse return 0; return n; }", true},
		{"the final else leaves it unset", "int f(int a, int b) { int n; if (a) n = 1;\n#ifdef V6\nelse if (b) n = 2;\n#endif\nelse g(); return n; }", true},
		{"no final else", "int f(int a, int b) { int m; int n = 0; if (a) m = 1;\n#ifdef V6\nelse if (b) m = 2;\n#endif\nreturn n + m; }", true},
		{"arms in #if and #else", "int f(int a, int b) { int n; if (a) n = 1;\n#if V6\nelse if (b) n = 2;\n#else\nelse if (!b) n = 3;\n#endif\nelse n = 4; return n; }", false},
		{"an arm that sets it, compiled out", "int f(int a) { int n; if (a) n = 1;\n#ifdef V6\nelse n = 2;\n#endif\nreturn n; }", true},
		{"an arm in #if and in #else that set it", "int f(int a) { int n; if (a) n = 1;\n#if V6\nelse n = 2;\n#else\nelse n = 3;\n#endif\nreturn n; }", false},
		{"the #else arm leaves it unset", "int f(int a) { int n; if (a) n = 1;\n#if V6\nelse n = 2;\n#else\nelse g();\n#endif\nreturn n; }", true},
		{"a group that is no arm", "int f(int a) { int n; if (a) n = 1;\n#ifdef V6\ng();\n#endif\nelse n = 2; return n; }", true},
	}
	for _, c := range cases {
		lx := LexC([]byte(c.src))
		decl := -1
		for i := range lx.Tokens {
			if (lx.Is(i, "int") || lx.Is(i, "const") || lx.Is(i, "struct") || lx.Is(i, "unsigned")) && lx.Is(i-1, "{") {
				decl = i
				break
			}
		}
		if decl < 0 {
			t.Fatalf("%s: no declaration in %q", c.name, c.src)
		}
		if got := memTriageUninit(lx, decl); got != c.parse {
			t.Errorf("%s: triage asks for a parse = %v, want %v\n%s", c.name, got, c.parse, strings.TrimSpace(c.src))
		}
	}
}
