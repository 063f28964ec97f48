package rust

import "github.com/jsec/jsec/checkers"

// arithCheckers is the arith family; its rules are in rules/rust_arith.go.
var arithCheckers = []*checkers.Checker{}
