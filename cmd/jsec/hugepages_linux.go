package main

import (
	"os"
	"runtime"
	"runtime/debug"
	"strings"
	"syscall"
	"unsafe"
)

// hugeHeapBytes is the part of the Go heap set up for transparent huge
// pages before a scan (address space only: pages become resident as the
// heap uses them).
const hugeHeapBytes int64 = 128 << 20

// adviseHugeHeap asks the kernel to back the Go heap a scan will use with
// transparent huge pages (MADV_HUGEPAGE), where the system leaves that to
// each program (transparent_hugepage/enabled = madvise, the usual default;
// with always they are used anyway, with never not at all).
//
// A scan's heap grows from nothing to tens of megabytes in a second, and
// with 4 KB pages every page is one fault into the kernel: 34,000 faults
// for curl, git and redis, a fifth of the CPU time on a virtual machine
// where each costs a trap to the host, and TLB misses on top. The Go
// runtime does not advise its heap itself, so jsec maps the first
// hugeHeapBytes of it up front (one large allocation, never touched, so
// nothing becomes resident), advises that range, and frees it with a
// collection (about a millisecond: the heap holds little yet); the heap
// then reuses the range, 2 MB pages at a time. (Left to the collection the
// allocation sets off, concurrent with the scan, the range was sometimes
// freed only after the heap had grown elsewhere: one scan in eight took
// 15,000 faults instead of 3,500.) GODEBUG=disablethp=1 (the
// runtime's own switch) turns this off. It returns the range advised (for
// the tests; empty when none).
func adviseHugeHeap() (start, end uintptr) {
	if strings.Contains(os.Getenv("GODEBUG"), "disablethp=1") {
		return 0, 0
	}
	// Under a tight GOMEMLIMIT a smaller range, so that the runtime never
	// counts the momentary allocation against much of the limit.
	n := min(hugeHeapBytes, debug.SetMemoryLimit(-1)/4)
	if n < 8*hugePage {
		return 0, 0
	}
	b := make([]byte, n)
	base := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	start = (base + hugePage - 1) &^ (hugePage - 1)
	end = (base + uintptr(len(b))) &^ (hugePage - 1)
	// The range lies inside b, so it is mapped and not yet used.
	if end <= start || syscall.Madvise(b[start-base:end-base], syscall.MADV_HUGEPAGE) != nil {
		start, end = 0, 0
	}
	runtime.KeepAlive(b) // b is dead from here on: the collection frees it
	runtime.GC()
	return start, end
}

const hugePage = 2 << 20
