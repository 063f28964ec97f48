//go:build jsec_cpgo

package grammars

// The C grammar (c_parser.c, maps.c) comes from scripts/cpgo.sh's archive
// with the jsec_cpgo tag; see checkers/syntax/cpgo.go.

// #cgo LDFLAGS: ${SRCDIR}/../../../../build/cpgo/libjsecparse.a
import "C"
