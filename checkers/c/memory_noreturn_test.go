package c

import (
	"slices"
	"sort"
	"testing"
)

// TestFileNoReturn holds memFileNoReturn to the bodies it may call
// no-return: no return statement, a last top-level statement that calls
// exit() or another of memNoReturn, no directive, one definition.
func TestFileNoReturn(t *testing.T) {
	src := `#include <stdlib.h>
static void fatal_error(const char *m) { puts(m); exit(1); }
static void quit_now(void) { abort(); }
void may_return(int c) { if (c) return; exit(1); }
void conditional_exit(int c) { puts("x"); if (c) exit(1); }
void exit_in_expr(int c) { c ? exit(1) : (void)0; }
void exit_not_last(void) { exit(1); puts("unreachable"); }
void with_directive(void) {
#ifdef DEBUG
	puts("d");
#endif
	exit(1);
}
void twice(void) { exit(1); }
void twice(void) { puts("other"); }
void calls_fatal_error(void) { fatal_error("x"); } // one level only: no chains
int prototype_only(void);
static void unknown_callee(void) { my_exit(1); }
`
	lx := LexC([]byte(src))
	got := memFileNoReturn(lx)
	var names []string
	for n := range got {
		names = append(names, n)
	}
	sort.Strings(names)
	if want := []string{"fatal_error", "quit_now"}; !slices.Equal(names, want) {
		t.Fatalf("no-return functions %v, want %v", names, want)
	}
}
