// Package hostmem tells whether the machine's memory is lent by a host
// that takes free memory back, which decides whether jsec asks the kernel
// for transparent huge pages (cmd/jsec/internal/hugeheap for the Go heap,
// checkers/syntax for the parser's arena).
//
// A virtio-balloon device with free page reporting (Linux's
// page_reporting, as Firecracker and QEMU offer it) hands the host the
// guest's free blocks of 2 MB and more a couple of seconds after they
// become free, and the host drops their backing. A huge page is exactly
// such a block: after a pause, each one a process touches is backed
// afresh by the host, 4 KB at a time, inside the guest kernel's zeroing
// of it. On the 2-core bench machine (Firecracker, Linux 6.18) a fresh
// huge page took 5-6.5 ms after 4 s idle and 0.1 ms right after another
// process freed memory, the same 2 MB in 4 KB pages 0.74 ms either way
// (4 KB pages come from smaller free blocks, which the guest keeps).
package hostmem

import (
	"os"
	"strings"
	"sync"
)

// FreePageReporting reports whether a memory balloon of this machine
// reports free pages to its host (read from sysfs once).
var FreePageReporting = sync.OnceValue(func() bool { return reporting(balloonDriver) })

// balloonDriver is where sysfs lists the devices bound to Linux's
// virtio-balloon driver.
const balloonDriver = "/sys/bus/virtio/drivers/virtio_balloon"

// reportingBit is VIRTIO_BALLOON_F_REPORTING, the feature bit of free
// page reporting (linux/virtio_balloon.h).
const reportingBit = 5

// reporting reports whether a device bound to the balloon driver at dir
// has negotiated free page reporting: its features file holds one '0' or
// '1' per feature bit, bit 0 first.
func reporting(dir string) bool {
	f, err := os.Open(dir)
	if err != nil {
		return false // no balloon (or no sysfs): the usual case off VMs
	}
	names, _ := f.Readdirnames(-1)
	f.Close()
	for _, name := range names {
		if !strings.HasPrefix(name, "virtio") {
			continue // bind, unbind, uevent, module
		}
		b, err := os.ReadFile(dir + "/" + name + "/features")
		if err == nil && len(b) > reportingBit && b[reportingBit] == '1' {
			return true
		}
	}
	return false
}
