package rules

import "github.com/jsec/jsec/issue"

// cCrypto is the crypto family (checkers/c/crypto*.go): broken ciphers and
// hashes, disabled certificate checks, predictable randomness, hard-coded
// credentials. All of its rules are policy rules.
var cCrypto = []Rule{
	{
		ID: "c.crypto.weak-cipher", Title: "Broken or weak cipher", CWE: 327, Category: CatCrypto,
		Severity: issue.SeverityHigh, Confidence: 0.85, Languages: LangC, Policy: true,
		Description: "A call selects or runs a broken cipher (DES, 3DES, RC4, RC2, Blowfish) or a block cipher in ECB mode.",
		Suggestion:  "Use an authenticated cipher such as AES-GCM or ChaCha20-Poly1305 (EVP_aes_256_gcm(), EVP_chacha20_poly1305()); keep legacy ciphers only where a protocol mandates them, behind an explicit option.",
	},
	{
		ID: "c.crypto.weak-hash", Title: "Broken hash used for security", CWE: 328, Category: CatCrypto,
		Severity: issue.SeverityMedium, Confidence: 0.8, Languages: LangC, Policy: true,
		Description: "A call computes or selects MD5, MD4, MD2 or SHA-1, whose collisions are practical.",
		Suggestion:  "Use SHA-256 or better (EVP_sha256(), SHA256()); for passwords use a password hash (Argon2, scrypt, PBKDF2 with many iterations). If the digest is not a security control (a cache key, a protocol field), say so in a suppression.",
	},
	{
		ID: "c.crypto.tls-no-verify", Title: "TLS certificate verification disabled", CWE: 295, Category: CatCrypto,
		Severity: issue.SeverityHigh, Confidence: 0.85, Languages: LangC, Policy: true,
		Description: "TLS peer verification is switched off (SSL_VERIFY_NONE, CURLOPT_SSL_VERIFYPEER 0, a verify callback that accepts everything), so a man in the middle can impersonate the server.",
		Suggestion:  "Keep verification on (SSL_VERIFY_PEER, CURLOPT_SSL_VERIFYPEER 1L, CURLOPT_SSL_VERIFYHOST 2L) and load the right CA bundle; if an insecure mode is needed for testing, put it behind an explicit option that is off by default.",
	},
	{
		ID: "c.random.insecure", Title: "Non-cryptographic random number for a security value", CWE: 338, Category: CatRandom,
		Severity: issue.SeverityMedium, Confidence: 0.6, Languages: LangC, Policy: true,
		Description: "rand(), random() or the *rand48 family produce a value that becomes a token, nonce, salt, key, password, session id or IV, or feeds a crypto API. Their output is predictable.",
		Suggestion:  "Use the operating system's generator: getrandom(2), getentropy(3), arc4random_buf(3), or the TLS library's RAND_bytes()/mbedtls_ctr_drbg_random().",
	},
	{
		ID: "c.random.seed", Title: "Predictable PRNG seed", CWE: 335, Category: CatRandom,
		Severity: issue.SeverityMedium, Confidence: 0.7, Languages: LangC, Policy: true,
		Description: "srand()/srandom()/srand48() is seeded with the time, the process id or a constant, which an attacker can guess.",
		Suggestion:  "Do not use the libc generators for secrets at all; if a seed is needed for non-security uses, document that. For secrets use getrandom(2), arc4random_buf(3) or RAND_bytes().",
	},
	{
		ID: "c.secrets.hardcoded", Title: "Hard-coded credential", CWE: 798, Category: CatSecrets,
		Severity: issue.SeverityHigh, Confidence: 0.7, Languages: LangC, Policy: true,
		Description: "A password, API key or token is written into the source: stored in a credential-named variable, compared with user input, or passed to an API's password argument.",
		Suggestion:  "Read credentials at run time from a protected file, the environment or a secret manager; compare password hashes, not plaintext; rotate the exposed credential.",
	},
}
