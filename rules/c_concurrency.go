package rules

// cConcurrency is the concurrency family (checkers/c/concurrency.go).
var cConcurrency = []Rule{}
