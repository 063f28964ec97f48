package c

import "github.com/jsec/jsec/checkers"

// arithCheckers is the arith family; its rules are in rules/c_arith.go.
var arithCheckers = []*checkers.Checker{}
