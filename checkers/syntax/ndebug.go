//go:build !tsassert

package syntax

// The tree-sitter runtime (runtime.c, tsrt/) is compiled without its
// assert() checks, as release builds are: they guard every array access
// and reference count of a parse, about 5% of its time. Build with
// -tags tsassert to keep them (scripts/fuzz.sh fuzzes the parser so).

// #cgo CFLAGS: -DNDEBUG
import "C"

// assertsWanted is whether this build asks for the runtime's asserts.
const assertsWanted = false
