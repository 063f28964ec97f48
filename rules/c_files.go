package rules

// cFiles is the files family (checkers/c/files.go).
var cFiles = []Rule{}
