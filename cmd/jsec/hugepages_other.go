//go:build !linux

package main

// adviseHugeHeap is Linux-only (see hugepages_linux.go).
func adviseHugeHeap() (start, end uintptr) { return 0, 0 }
