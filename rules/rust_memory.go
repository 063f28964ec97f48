package rules

// rustMemory is the memory family (checkers/rust/memory.go).
var rustMemory = []Rule{}
