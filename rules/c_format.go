package rules

// cFormat is the format family (checkers/c/format.go).
var cFormat = []Rule{}
