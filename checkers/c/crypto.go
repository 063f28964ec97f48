package c

import "github.com/jsec/jsec/checkers"

// cryptoCheckers is the crypto family; its rules are in rules/c_crypto.go.
var cryptoCheckers = []*checkers.Checker{}
