package checkers

import (
	"regexp"
	"sync"
)

// LazyRegexp returns a function that compiles expr on its first call and
// returns the same *regexp.Regexp ever after. Checkers declare their
// regular expressions with it instead of regexp.MustCompile at package
// level: every jsec process ran every checker package's compilations
// before main (Rust's for a C scan, all of them for `jsec version`), a
// few milliseconds of each process's start. expr must be valid: it panics
// on first use otherwise, as MustCompile would at start (the checker
// fixtures exercise every one).
func LazyRegexp(expr string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })
}
