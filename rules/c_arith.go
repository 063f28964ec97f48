package rules

// cArith is the arith family (checkers/c/arith.go).
var cArith = []Rule{}
