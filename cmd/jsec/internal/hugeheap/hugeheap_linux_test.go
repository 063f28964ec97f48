package hugeheap

import (
	"bytes"
	"fmt"
	"os"
	"runtime/debug"
	"strings"
	"syscall"
	"testing"
	"unsafe"
)

// TestInitAdvised holds the package's init to its effect: it leaves a
// range of the heap the kernel has marked for transparent huge pages
// (VmFlags "hg" in /proc/self/smaps), free, so that the heap's next large
// allocation lands in advised memory.
func TestInitAdvised(t *testing.T) {
	if b, err := os.ReadFile("/sys/kernel/mm/transparent_hugepage/enabled"); err != nil || bytes.Contains(b, []byte("[never]")) {
		t.Skip("no transparent huge pages here")
	}
	if strings.Contains(os.Getenv("GODEBUG"), "disablethp=1") {
		t.Skip("GODEBUG=disablethp=1")
	}
	if Reporting {
		if Start != 0 || End != 0 {
			t.Fatalf("the balloon reports free pages, yet the init advised %#x-%#x", Start, End)
		}
		t.Skip("a memory balloon reports free pages here: nothing advised")
	}
	if End-Start < 64<<20 {
		t.Fatalf("init advised %#x-%#x; want at least 64 MB", Start, End)
	}
	if Below == 0 || Below > Start {
		t.Fatalf("Below = %#x; want the heap below Start %#x advised too", Below, Start)
	}
	for _, addr := range []uintptr{Below, Start, End - 1} {
		flags, ok := vmFlags(t, addr)
		if !ok {
			t.Fatalf("no mapping holds %#x", addr)
		}
		if !strings.Contains(" "+flags+" ", " hg ") {
			t.Errorf("the heap at %#x is not advised for huge pages; VmFlags: %s", addr, flags)
		}
	}
	// The heap's first 2 MB page, already in use when the init ran, is
	// one huge page now, where the kernel can collapse one (Linux 6.1+)
	// and had one free.
	if kernelAtLeast(t, 6, 1) && Collapsed != 0 && Collapsed != syscall.EAGAIN && Collapsed != syscall.ENOMEM {
		t.Errorf("the heap below %#x (from %#x) was not collapsed into huge pages: %v", Start, Below, Collapsed)
	}
	buf := make([]byte, 64<<20)
	lo := uintptr(unsafe.Pointer(unsafe.SliceData(buf)))
	for _, addr := range []uintptr{lo + hugePage, lo + uintptr(len(buf)) - hugePage} {
		if flags, _ := vmFlags(t, addr); !strings.Contains(" "+flags+" ", " hg ") {
			t.Errorf("a 64 MB allocation at %#x holds memory at %#x not advised for huge pages (VmFlags: %s)", lo, addr, flags)
		}
	}
	buf[0] = 1
}

// vmFlags returns the VmFlags of the mapping of /proc/self/smaps that
// holds addr.
func vmFlags(t *testing.T, addr uintptr) (string, bool) {
	t.Helper()
	b, err := os.ReadFile("/proc/self/smaps")
	if err != nil {
		t.Skip(err)
	}
	in := false
	for _, line := range strings.Split(string(b), "\n") {
		var lo, hi uintptr
		if n, _ := fmt.Sscanf(line, "%x-%x", &lo, &hi); n == 2 { // a mapping's first line
			in = lo <= addr && addr < hi
			continue
		}
		if in && strings.HasPrefix(line, "VmFlags:") {
			return strings.TrimSpace(strings.TrimPrefix(line, "VmFlags:")), true
		}
	}
	return "", false
}

// TestAdviseTightLimit holds Advise to a quarter of a
// tight GOMEMLIMIT, and to nothing under one too tight to matter.
func TestAdviseTightLimit(t *testing.T) {
	if strings.Contains(os.Getenv("GODEBUG"), "disablethp=1") {
		t.Skip("GODEBUG=disablethp=1")
	}
	old := debug.SetMemoryLimit(64 << 20)
	defer debug.SetMemoryLimit(old)
	if start, end := Advise(); end-start > 16<<20 {
		t.Errorf("under a 64 MB limit advised %d MB; want at most a quarter", (end-start)>>20)
	}
	debug.SetMemoryLimit(32 << 20)
	if start, end := Advise(); end != start {
		t.Errorf("under a 32 MB limit advised %d MB; want none", (end-start)>>20)
	}
}

// kernelAtLeast reports whether the running kernel's release is at least
// major.minor.
func kernelAtLeast(t *testing.T, major, minor int) bool {
	t.Helper()
	var u syscall.Utsname
	if err := syscall.Uname(&u); err != nil {
		t.Skip(err)
	}
	var rel []byte
	for _, c := range u.Release {
		if c == 0 {
			break
		}
		rel = append(rel, byte(c))
	}
	var a, b int
	if n, _ := fmt.Sscanf(string(rel), "%d.%d", &a, &b); n != 2 {
		t.Skipf("kernel release %q", rel)
	}
	return a > major || a == major && b >= minor
}
