package checkers

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// resident reports how many of the file's pages are in the page cache.
func resident(t *testing.T, path string) (in, pages int) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	st, _ := f.Stat()
	m, err := unix.Mmap(int(f.Fd()), 0, int(st.Size()), unix.PROT_READ, unix.MAP_SHARED)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Munmap(m)
	vec := make([]byte, (len(m)+os.Getpagesize()-1)/os.Getpagesize())
	if _, _, errno := syscall.Syscall(syscall.SYS_MINCORE, uintptr(unsafe.Pointer(&m[0])), uintptr(len(m)), uintptr(unsafe.Pointer(&vec[0]))); errno != 0 {
		t.Fatal(errno)
	}
	for _, v := range vec {
		in += int(v & 1)
	}
	return in, len(vec)
}

// TestPrefetchReadsAhead: a file dropped from the page cache is back in
// it after prefetch, without being read; where the file system keeps
// files in memory anyway (tmpfs), there is nothing to show.
func TestPrefetchReadsAhead(t *testing.T) {
	dir, err := os.MkdirTemp(".", ".prefetch-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "big.c")
	if err := os.WriteFile(path, make([]byte, 1<<20), 0o644); err != nil {
		t.Fatal(err)
	}
	f, _ := os.Open(path)
	f.Sync()
	unix.Fadvise(int(f.Fd()), 0, 0, unix.FADV_DONTNEED)
	f.Close()
	if in, _ := resident(t, path); in > 0 {
		t.Skipf("%d pages still cached after FADV_DONTNEED: this file system keeps them", in)
	}
	prefetch(path)
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		in, pages := resident(t, path)
		if in == pages {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d of %d pages cached 5 s after prefetch", in, pages)
		}
	}
}

// TestPrefetchDoesNotBlock: prefetch of a FIFO (a regular file when the
// walk saw it, replaced since) or of a missing file returns at once.
func TestPrefetchDoesNotBlock(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "pipe.c")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip(err)
	}
	done := make(chan bool)
	go func() {
		prefetch(fifo)
		prefetch(filepath.Join(dir, "missing.c"))
		done <- true
	}()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("prefetch blocked")
	}
}
