package c

import "github.com/jsec/jsec/checkers"

// concurrencyCheckers is the concurrency family; its rules are in rules/c_concurrency.go.
var concurrencyCheckers = []*checkers.Checker{}
