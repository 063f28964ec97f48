package rules

// cCrypto is the crypto family (checkers/c/crypto.go).
var cCrypto = []Rule{}
