package rules

// rustInjection is the injection family (checkers/rust/injection.go).
var rustInjection = []Rule{}
