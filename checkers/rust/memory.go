package rust

import "github.com/jsec/jsec/checkers"

// memoryCheckers is the memory family; its rules are in rules/rust_memory.go.
var memoryCheckers = []*checkers.Checker{}
