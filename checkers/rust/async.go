package rust

import "github.com/jsec/jsec/checkers"

// asyncCheckers is the async family; its rules are in rules/rust_async.go.
var asyncCheckers = []*checkers.Checker{}
