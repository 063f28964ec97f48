//go:build !linux

package checkers

// prefetch is a no-op where posix_fadvise is not available.
func prefetch(string) {}
