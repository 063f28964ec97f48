package c

import "github.com/jsec/jsec/checkers"

// inputCheckers is the input family; its rules are in rules/c_input.go.
var inputCheckers = []*checkers.Checker{}
