package rust

import "github.com/jsec/jsec/checkers"

// ffiCheckers is the ffi family; its rules are in rules/rust_ffi.go.
var ffiCheckers = []*checkers.Checker{}
