package rules

// rustArith is the arith family (checkers/rust/arith.go).
var rustArith = []Rule{}
