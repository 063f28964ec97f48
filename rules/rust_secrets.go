package rules

// rustSecrets is the secrets family (checkers/rust/secrets.go).
var rustSecrets = []Rule{}
