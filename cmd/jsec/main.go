// Command jsec finds security defects in C, C++ and Rust code.
package main

import (
	"fmt"
	"os"
	"runtime"
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

// cpus is the number of CPUs jsec works on: GOMAXPROCS as the runtime
// set it before main (the machine's CPUs, a container's CPU limit, or
// $GOMAXPROCS). --jobs defaults to it.
var cpus = runtime.GOMAXPROCS(0)

// procsPerCPU is how many Go scheduler slots (Ps) jsec runs per CPU unless
// $GOMAXPROCS says otherwise. The scan's workers (one per CPU) spend much
// of their time in cgo calls (tree-sitter) and system calls, during which
// the runtime may hand their P to another thread; with one P per CPU a
// worker coming back often found none free and waited for one, its core
// idle meanwhile, and the collector's workers, the walk and the report
// writers competed for the same two slots. With two per CPU, on 2 cores:
// curl, git and redis scanned in 1.13 s instead of 1.21 s (median of
// interleaved rounds), with less CPU time (user 1.63 -> 1.44 s).
const procsPerCPU = 2

// setProcs sets GOMAXPROCS to procsPerCPU per CPU unless $GOMAXPROCS
// (read through getenv) chose it.
func setProcs(getenv func(string) string) {
	if getenv("GOMAXPROCS") == "" {
		runtime.GOMAXPROCS(procsPerCPU * cpus)
	}
}

func main() {
	setProcs(os.Getenv)
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
