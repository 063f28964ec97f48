package c

import "github.com/jsec/jsec/checkers"

// cppCheckers is the cpp family; its rules are in rules/c_cpp.go.
var cppCheckers = []*checkers.Checker{}
