package rules

// rustFFI is the ffi family (checkers/rust/ffi.go).
var rustFFI = []Rule{}
