package c

import "github.com/jsec/jsec/checkers"

// filesCheckers is the files family; its rules are in rules/c_files.go.
var filesCheckers = []*checkers.Checker{}
