package checkers

import "golang.org/x/sys/unix"

// prefetch asks the kernel to start reading the file at path into the
// page cache (posix_fadvise WILLNEED), without waiting for it: the walk
// calls it for each file it queues, so that on a cold cache the disk
// reads ahead of the workers, whose reads would otherwise wait for it one
// file at a time. Failures are ignored: the worker's own read reports
// them.
func prefetch(path string) {
	fd, err := unix.Open(path, unix.O_RDONLY|unix.O_NOFOLLOW|unix.O_NONBLOCK|unix.O_CLOEXEC, 0)
	if err != nil {
		return
	}
	unix.Fadvise(fd, 0, 0, unix.FADV_WILLNEED)
	unix.Close(fd)
}
