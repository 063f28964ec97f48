package c

import "github.com/jsec/jsec/checkers"

// formatCheckers is the format family; its rules are in rules/c_format.go.
var formatCheckers = []*checkers.Checker{}
