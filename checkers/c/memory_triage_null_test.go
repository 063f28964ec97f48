package c

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/jsec/jsec/checkers"
	"github.com/jsec/jsec/checkers/syntax"
)

// TestNullStoreTriage holds the triage of a NULL store (memTriageNull on
// the NULL of "p = NULL") to the state walk: wherever the walk reports a
// dereference of that store's NULL, the triage keeps the store; and it
// drops the stores listed as precise, where no path leaves the pointer
// NULL on every path to a dereference.
func TestNullStoreTriage(t *testing.T) {
	const head = "#include <stdlib.h>\nstruct item { struct item *next; int value; };\nextern void init_ptr(char *p);\nextern void init_pp(char **pp);\n"
	cases := []struct {
		name, body string
		keep       bool // what the triage must say (true also when Check reports)
	}{
		{"plain", "char *p = NULL;\n\treturn p[0];", true},
		{"assigned on one path", "char *p = NULL;\n\tif (c)\n\t\tp = malloc(n);\n\treturn p[0];", false},
		{"assigned on both paths", "char *p = NULL;\n\tif (c)\n\t\tp = malloc(n);\n\telse\n\t\tp = malloc(1);\n\treturn p[0];", false},
		{"NULL branch of a test", "char *p = NULL;\n\tif (c)\n\t\tp = malloc(n);\n\tif (p == NULL)\n\t\treturn p[0];\n\treturn 0;", true},
		{"reset to NULL", "char *p = NULL;\n\tif (c) {\n\t\tp = malloc(n);\n\t\tp = NULL;\n\t}\n\treturn p[0];", true},
		{"copied", "char *p = NULL, *q;\n\tq = p;\n\treturn q[0];", true},
		{"copied back", "char *p = NULL, *q = malloc(n);\n\tif (c)\n\t\tp = q;\n\treturn p[0];", true},
		{"cast call", "char *p = NULL;\n\tif (c)\n\t\tp = (char *)malloc(n);\n\treturn p[0];", false},
		{"address taken", "char *p = NULL;\n\tif (c)\n\t\tinit_pp(&p);\n\treturn p[0];", false},
		{"macro argument", "char *p = NULL;\n\tINIT_PTR(p);\n\treturn p[0];", false},
		{"function argument", "char *p = NULL;\n\tinit_ptr(p);\n\treturn p[0];", true},
		{"loop break", "struct item *last = NULL;\n\tfor (struct item *it = head; it; it = it->next)\n\t\tif (it->value > c)\n\t\t\tbreak;\n\treturn last->value;", true},
		{"loop assigns", "struct item *last = NULL;\n\tfor (struct item *it = head; it; it = it->next)\n\t\tlast = find(it);\n\treturn last->value;", false},
		{"conditional store", "char *p = NULL;\n\tif (c && (p = malloc(n)) != NULL)\n\t\tn++;\n\treturn p[0];", false},
		{"conditional NULL", "char *p = NULL;\n\tp = c ? malloc(n) : NULL;\n\treturn p[0];", false},
		{"dereferenced under an if", "char *p = NULL;\n\tif (c)\n\t\t*p = 1;\n\treturn 0;", true},
		{"dereferenced in an else", "char *p = NULL;\n\tif (c)\n\t\tn++;\n\telse\n\t\t*p = 1;\n\treturn 0;", true},
		{"NULL again", "char *p = NULL;\n\tif (c)\n\t\tp = NULL;\n\treturn p[0];", true},
		{"then-branch, else assigns", "char *p;\n\tif (c)\n\t\tp = NULL;\n\telse\n\t\tp = malloc(n);\n\treturn p[0];", false},
		{"then-branch, else returns", "char *p;\n\tif (c)\n\t\tp = NULL;\n\telse\n\t\treturn 0;\n\treturn p[0];", true},
		{"then-branch, else keeps a NULL", "char *p = 0;\n\tif (c)\n\t\tp = NULL;\n\telse\n\t\tn++;\n\treturn p[0];", true},
		{"then-branch, dereferenced in the else", "char *p = malloc(n);\n\tif (c)\n\t\tp = NULL;\n\telse\n\t\tp[0] = 1;\n\treturn 0;", false},
		{"then-branch, else-if chain assigns", "char *p;\n\tif (c)\n\t\tp = NULL;\n\telse if (n)\n\t\tp = malloc(n);\n\telse\n\t\tp = malloc(1);\n\treturn p[0];", false},
		{"then-branch of an if that is a loop body", "char *p = malloc(n);\n\tfor (; c; c--)\n\t\tif (c > n)\n\t\t\tp = NULL;\n\t\telse\n\t\t\tp[0] = 1;\n\treturn 0;", true},
		{"loop: dereferenced before the store", "struct item *it = head;\n\tif (it)\n\t\treturn 0;\n\twhile (c--) {\n\t\tit->value++;\n\t\tit = NULL;\n\t}\n\treturn 0;", true},
		{"loop: dereferenced in the header", "struct item *it = head;\n\tif (it)\n\t\treturn 0;\n\tfor (; it->value; c--)\n\t\tit = NULL;\n\treturn 0;", true},
		{"loop: dereferenced before, store in a nested block", "struct item *it = head;\n\tif (it)\n\t\treturn 0;\n\tdo {\n\t\tif (c) {\n\t\t\tn += it->value;\n\t\t\tit = NULL;\n\t\t}\n\t} while (c--);\n\treturn 0;", true},
		{"loop: declared in the body", "while (c--) {\n\t\tstruct item *it = find(head);\n\t\tn += it->value;\n\t\tit = NULL;\n\t}\n\treturn n;", false},
		{"loop: assigned at the top of the body", "struct item *it;\n\twhile (c--) {\n\t\tit = find(head);\n\t\tn += it->value;\n\t\tit = NULL;\n\t}\n\treturn n;", false},
		{"loop: dereference under a test", "struct item *it = head;\n\twhile (c--) {\n\t\tif (it)\n\t\t\tn += it->value;\n\t\tit = NULL;\n\t}\n\treturn n;", false},
		{"loop: assigned after the store (kept: the body is entered in the worst state)", "struct item *it = head;\n\twhile (c--) {\n\t\tn += it->value;\n\t\tit = NULL;\n\t\tit = find(head);\n\t}\n\treturn n;", true},
		{"loop: dereferenced outside the store's block", "struct item *it = head;\n\tif (it)\n\t\treturn 0;\n\twhile (c--) {\n\t\tn += it->value;\n\t\tif (n) {\n\t\t\tit = NULL;\n\t\t\tcontinue;\n\t\t}\n\t\tc--;\n\t}\n\treturn n;", false},
		{"no loop: dereferenced before the store", "struct item *it = head;\n\tif (it)\n\t\treturn 0;\n\tit->value++;\n\tit = NULL;\n\treturn 0;", false},
		{"loop ended before the store", "struct item *it = head;\n\tfor (; c; c--)\n\t\tn++;\n\tn += it->value;\n\tit = NULL;\n\treturn n;", false},
		{"a sibling member written after the store", "head->next = NULL;\n\thead->value = 0;\n\treturn head->next->value;", true},
		{"dereferenced through a cast", "char *p = NULL;\n\treturn *((int *)p);", true},
		{"member through a cast", "char *p = NULL;\n\treturn ((struct item *)p)->value;", true},
		{"cast passed to a call", "char *p = NULL;\n\tn = find((struct item *)p)->value;\n\treturn n;", false},
		{"cast, not dereferenced", "char *p = NULL;\n\tn = sizeof((int *)p);\n\treturn n;", false},
		{"stored through, dereferenced", "char *q = malloc(n), **pp = &q;\n\t*pp = NULL;\n\treturn (*pp)[0];", true},
		{"stored through, dereferenced twice", "char *q = malloc(n), **pp = &q;\n\tn++;\n\t*pp = NULL;\n\treturn **pp;", true},
		{"stored through, not dereferenced", "char *q = malloc(n), **pp = &q;\n\t*pp = NULL;\n\treturn pp != 0;", false},
		{"stored through, rewritten first (kept: a write through a pointer ends no walk)", "char *q = malloc(n), **pp = &q;\n\t*pp = NULL;\n\t*pp = malloc(1);\n\treturn **pp;", true},
		{"stored through under an if (kept: the walks follow no path through a pointer)", "char *q = malloc(n), **pp = &q;\n\tif (c)\n\t\t*pp = NULL;\n\telse\n\t\t*pp = malloc(1);\n\treturn (*pp)[0];", true},
		{"stored through under an if, else returns", "char *q = malloc(n), **pp = &q;\n\tif (c)\n\t\t*pp = NULL;\n\telse\n\t\treturn 0;\n\treturn (*pp)[0];", true},
		{"member through a pointer, dereferenced", "struct item **pp = &head;\n\t(*pp)->next = NULL;\n\treturn (*pp)->next->value;", true},
		{"member through a pointer, not dereferenced", "struct item **pp = &head;\n\t(*pp)->next = NULL;\n\treturn (*pp)->value;", false},
		{"member of a call's result", "find(head)->next = NULL;\n\treturn head->value;", false},
		{"function pointer, called", "int (*cb)(int) = NULL;\n\treturn cb(n);", true},
		{"function pointer, set first", "int (*cb)(int) = NULL;\n\tcb = abs;\n\treturn cb(n);", false},
		{"stored through in a loop body", "char *q = malloc(n), **pp = &q;\n\twhile (c--)\n\t\t*pp = NULL;\n\treturn 0;", false},
		{"then-branch of an else-if", "char *p = malloc(n);\n\tif (n)\n\t\tn++;\n\telse if (c)\n\t\tp = NULL;\n\telse\n\t\tp = malloc(1);\n\treturn p[0];", true},
	}
	null := checkerNamed(t, "c/null/deref")
	bare := *null
	bare.Triage = nil
	for _, tc := range cases {
		src := head + "extern struct item *find(struct item *);\nint f(int c, int n, struct item *head)\n{\n\t" + tc.body + "\n}\n"
		lx := LexC([]byte(src))
		store := -1
		for i := range lx.Tokens {
			if lx.Is(i, "NULL") && lx.Is(i-1, "=") {
				store = i
				break
			}
		}
		if store < 0 {
			t.Fatalf("%s: no NULL store", tc.name)
		}
		line := strings.Count(src[:lx.Tokens[store].Start], "\n") + 1
		reported := false
		for _, f := range triageFindings(t, src, &bare) {
			reported = reported || strings.Contains(f, fmt.Sprintf("assigned NULL at line %d", line))
		}
		got := memTriageNull(lx, store)
		if reported && !got {
			t.Errorf("%s: the state walk reports the store's NULL, the triage drops it", tc.name)
		}
		if reported && !tc.keep {
			t.Errorf("%s: the state walk reports it; the case says it should not", tc.name)
		}
		if got != tc.keep {
			t.Errorf("%s: triage %v, want %v", tc.name, got, tc.keep)
		}
	}
}

func checkerNamed(t *testing.T, name string) *checkers.Checker {
	for _, c := range allCheckers() {
		if c.Name == name {
			return c
		}
	}
	t.Fatalf("no checker %s", name)
	return nil
}

// triageFindings returns "rule: message" for every finding of c on src.
func triageFindings(t *testing.T, src string, c *checkers.Checker) []string {
	lang := &checkers.Language{Name: "c", Grammar: syntax.C, Lex: LexC, IdentByte: IdentByte, Checkers: []*checkers.Checker{c}}
	parser := syntax.NewParser(syntax.C)
	defer parser.Close()
	res, err := checkers.NewAnalyzer(lang, nil).Analyze(context.Background(), checkers.NewFile("t.c", "c", []byte(src)), parser)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, f := range res.Findings {
		out = append(out, f.Rule+": "+f.Message)
	}
	return out
}
