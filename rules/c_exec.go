package rules

// cExec is the exec family (checkers/c/exec.go).
var cExec = []Rule{}
