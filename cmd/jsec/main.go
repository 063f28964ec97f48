// Command jsec finds security defects in C, C++ and Rust code.
package main

import (
	"fmt"
	"os"
	"runtime/debug"
	"runtime/pprof"

	// Sets the heap up for huge pages in its init, which runs before the
	// packages that allocate most at start-up (see its doc).
	_ "github.com/jsec/jsec/cmd/jsec/internal/hugeheap"
)

// version is set at build time (-ldflags "-X main.version=...").
var version = "dev"

// homepage is jsec's home, reported as the SARIF driver's informationUri.
const homepage = "https://github.com/jsec/jsec"

// gcPercent is the garbage collector's target unless GOGC says otherwise.
// A scan's live heap is small (the files in flight and the findings), and
// at Go's default of 100 the collector ran so often that its workers took
// a tenth of the wall time on 2 cores; at 800 the peak RSS on curl, git,
// redis and /usr/include stays under 200 MB. memoryLimit (unless
// GOMEMLIMIT says otherwise) is the backstop for huge trees: near it the
// collector runs as often as it must, whatever gcPercent allows.
const (
	gcPercent   = 800
	memoryLimit = 512 << 20
)

func main() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(gcPercent)
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(memoryLimit)
	}
	// JSEC_CPUPROFILE=FILE writes a CPU profile of the whole run, for
	// measuring jsec on real code (go tool pprof bin/jsec FILE).
	if path := os.Getenv("JSEC_CPUPROFILE"); path != "" {
		f, err := os.Create(path)
		if err == nil {
			err = pprof.StartCPUProfile(f)
		}
		if err != nil {
			fmt.Fprintf(os.Stderr, "jsec: JSEC_CPUPROFILE: %v\n", err)
			os.Exit(2)
		}
		code := run(os.Args[1:], ioStreams())
		pprof.StopCPUProfile()
		f.Close()
		os.Exit(code)
	}
	os.Exit(run(os.Args[1:], ioStreams()))
}
