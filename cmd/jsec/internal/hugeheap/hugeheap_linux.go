// Package hugeheap sets the Go heap up for transparent huge pages when
// jsec starts. Importing it is all it takes: its init runs before most
// of what allocates at start-up (the Markdown renderer, the LLM SDKs), so
// that and everything after it allocate from the advised range. The
// packages initialised before it (import paths in sorted order: the
// checkers' tables, about 350 KB, and YAML) allocated in the part of the
// heap below, which Advise advises and collapses too (adviseBelow).
//
// It does nothing on a virtual machine whose memory balloon hands free
// memory back to the host (package hostmem): see Reporting.
package hugeheap

import (
	"github.com/jsec/jsec/internal/hostmem"
	"os"
	"runtime"
	"runtime/debug"
	"strings"
	"syscall"
	"unsafe"
)

// Bytes is the part of the Go heap set up for transparent huge pages
// (address space only: pages become resident as the heap uses them).
const Bytes int64 = 128 << 20

const hugePage = 2 << 20

// Start and End delimit the range the init freed and advised (empty when
// none); Below is where the advice starts: the part of the heap mapped
// before the init, from the 2 MB page of its allocations (Start when
// none).
var Start, End, Below uintptr

func init() {
	if Reporting = hostmem.FreePageReporting(); !Reporting {
		Start, End = Advise()
	}
}

// Reporting is whether the init found a memory balloon that reports free
// memory to the host (see package hostmem), and so advised nothing: there
// a huge page the heap touched after a pause was one the host had
// dropped. On the 2-core bench machine (Firecracker, Linux 6.18) a scan
// of curl, git and redis as one root after 3 s idle took 0.87 of the wall
// and 0.875 of the CPU time without the advice (paired medians of 16
// rounds; kernel time 0.30 -> 0.14 s, clear_page_erms 18.7% -> 8.0% of
// the samples), and 1.02 and 1.03 with no pause between runs: the advice
// wins only while the memory a previous process freed is still backed.
var Reporting bool

// Advise asks the kernel to back the Go heap with transparent huge pages
// (MADV_HUGEPAGE), where the system leaves that to each program
// (transparent_hugepage/enabled = madvise, the usual default; with always
// they are used anyway, with never not at all).
//
// A scan's heap grows from nothing to tens of megabytes in a second, and
// with 4 KB pages every page is one fault into the kernel: 34,000 faults
// for curl, git and redis, a fifth of the CPU time on a virtual machine
// where each costs a trap to the host, and TLB misses on top; the
// start-up alone (package initialisation) took 700 faults. The Go runtime
// does not advise its heap itself, and it maps each new part of the heap
// afresh (mmap MAP_FIXED), which drops any advice given before. So Advise
// maps the next Bytes of the heap with one large allocation (never
// touched, so nothing becomes resident), advises that range, and frees it
// with a collection (a few milliseconds, once); the heap then reuses the
// range, 2 MB pages at a time. (Left to the collection the allocation
// sets off, concurrent with the program, the range was sometimes freed
// only after the heap had grown elsewhere: one scan in eight took 15,000
// faults instead of 3,500.) GODEBUG=disablethp=1 (the runtime's own
// switch) turns this off. It returns the range freed and advised, and
// sets Below (see adviseBelow).
func Advise() (start, end uintptr) {
	if strings.Contains(os.Getenv("GODEBUG"), "disablethp=1") {
		return 0, 0
	}
	// Under a tight GOMEMLIMIT a smaller range, so that the runtime never
	// counts the momentary allocation against much of the limit.
	n := min(Bytes, debug.SetMemoryLimit(-1)/4)
	if n < 8*hugePage {
		return 0, 0
	}
	// The allocation would set off a collection of its own, a first one
	// ahead of the one below: none until b is advised.
	gc := debug.SetGCPercent(-1)
	b := make([]byte, n)
	base := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	start = (base + hugePage - 1) &^ (hugePage - 1)
	end = (base + uintptr(len(b))) &^ (hugePage - 1)
	// The range lies inside b, so it is mapped and not yet used.
	if end <= start || syscall.Madvise(b[start-base:end-base], syscall.MADV_HUGEPAGE) != nil {
		start, end = 0, 0
	}
	if start != 0 {
		Below = adviseBelow(start)
	}
	runtime.KeepAlive(b) // b is dead from here on: the collection frees it
	debug.SetGCPercent(gc)
	runtime.GC()
	return start, end
}

// adviseBelow advises the heap below start too, from the 2 MB page that
// holds a fresh small allocation, and returns where the advice now starts.
// That part was mapped before this init ran: it holds what the runtime and
// the packages initialised earlier allocated, and its free pages are where
// the heap's next allocations go, lowest addresses first (4 KB pages
// there took 630 faults of a scan of curl). A 2 MB page with no page in
// use yet becomes one huge page when first touched. One that already has
// some (the first: what the runtime and the packages initialised so far
// allocated, in 4 KB pages) is collapsed into a huge page on the spot
// (MADV_COLLAPSE, Linux 6.1 and later; up to collapseMax bytes): each of
// its free 4 KB pages the heap went on to use was a fault of its own,
// about 200 per process, 17 µs each on a paravirtualised machine where a
// fault traps to the host (jsec version: 35-39 -> 28-29 ms of CPU, 990-1100
// -> 740-780 faults; it costs that page's 2 MB of RSS). The result is in
// Collapsed. The calls get plain addresses, never a slice over memory
// that is not one Go object.
func adviseBelow(start uintptr) uintptr {
	probe := new([16]byte)
	lo := uintptr(unsafe.Pointer(probe)) &^ (hugePage - 1)
	runtime.KeepAlive(probe)
	if lo >= start {
		return start
	}
	if _, _, errno := syscall.Syscall(syscall.SYS_MADVISE, lo, start-lo, syscall.MADV_HUGEPAGE); errno != 0 {
		return start
	}
	Collapsed = syscall.ENOSYS
	if start-lo <= collapseMax {
		_, _, Collapsed = syscall.Syscall(syscall.SYS_MADVISE, lo, start-lo, madvCollapse)
	}
	return lo
}

// madvCollapse is MADV_COLLAPSE, which the syscall package does not name.
const madvCollapse = 25

// collapseMax bounds the part of the heap below Start that is collapsed
// into huge pages (all of it becomes resident).
const collapseMax = 4 * hugePage

// Collapsed is the outcome of collapsing the heap below Start into huge
// pages: 0 when done; EINVAL before Linux 6.1; EAGAIN or ENOMEM when no
// huge page was to be had; ENOSYS when the range was too long to try.
var Collapsed syscall.Errno = syscall.ENOSYS
