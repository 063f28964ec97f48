package rules

// rustAsync is the async family (checkers/rust/async.go).
var rustAsync = []Rule{}
