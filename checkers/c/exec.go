package c

import "github.com/jsec/jsec/checkers"

// execCheckers is the exec family; its rules are in rules/c_exec.go.
var execCheckers = []*checkers.Checker{}
