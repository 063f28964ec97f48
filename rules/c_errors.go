package rules

// cErrors is the errors family (checkers/c/errors.go).
var cErrors = []Rule{}
