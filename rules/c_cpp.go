package rules

// cCPP is the cpp family (checkers/c/cpp.go).
var cCPP = []Rule{}
