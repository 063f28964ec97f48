package rules

// cMemory is the memory family (checkers/c/memory.go).
var cMemory = []Rule{}
