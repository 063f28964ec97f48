//go:build !linux

// Package hugeheap sets the Go heap up for transparent huge pages, on
// Linux (see hugeheap_linux.go); elsewhere it does nothing.
package hugeheap

// Start and End delimit the range advised: none here.
var Start, End uintptr

// Advise is Linux-only.
func Advise() (start, end uintptr) { return 0, 0 }
