//go:build jsec_cpgo

package syntax

// With the jsec_cpgo build tag (make build), the C side of the parser
// (runtime.c, flatten.c and the C grammar, which carry //go:build
// !jsec_cpgo) is not compiled by cgo: it comes from the archive
// scripts/cpgo.sh builds with gcc's profile-guided optimisation.

// #cgo LDFLAGS: ${SRCDIR}/../../build/cpgo/libjsecparse.a
import "C"

// cpgoKey is the archive's key (build/cpgo/key), which make build sets
// with -X: go build does not hash the files #cgo LDFLAGS names, so
// without it a rebuilt archive would not relink the binary.
var cpgoKey string

// ParserBuild says how the C side of the parser was compiled.
func ParserBuild() string {
	if cpgoKey == "" {
		return "gcc profile feedback"
	}
	return "gcc profile feedback " + cpgoKey
}
