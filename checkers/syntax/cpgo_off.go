//go:build !jsec_cpgo

package syntax

// ParserBuild says how the C side of the parser was compiled: by cgo
// (go build, go test; make build links scripts/cpgo.sh's archive
// instead, see cpgo.go).
func ParserBuild() string { return "cgo" }
