package rust

import "github.com/jsec/jsec/checkers"

// errorsCheckers is the errors family; its rules are in rules/rust_errors.go.
var errorsCheckers = []*checkers.Checker{}
