package rules

// cInput is the input family (checkers/c/input.go).
var cInput = []Rule{}
