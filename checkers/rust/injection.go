package rust

import "github.com/jsec/jsec/checkers"

// injectionCheckers is the injection family; its rules are in rules/rust_injection.go.
var injectionCheckers = []*checkers.Checker{}
