package rules

// rustErrors is the errors family (checkers/rust/errors.go).
var rustErrors = []Rule{}
