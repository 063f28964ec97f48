package rust

import "github.com/jsec/jsec/checkers"

// secretsCheckers is the secrets family; its rules are in rules/rust_secrets.go.
var secretsCheckers = []*checkers.Checker{}
