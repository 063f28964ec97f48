package rules

import "github.com/jsec/jsec/issue"

// rustSecrets is the secrets family (checkers/rust/secrets.go).
var rustSecrets = []Rule{
	{
		ID: "rust.secrets.hardcoded", Title: "hard-coded secret", CWE: 798, Category: CatSecrets,
		Severity: issue.SeverityHigh, Confidence: 0.7, Languages: LangRust, Policy: true,
		Description: "A const, static, let or struct field whose name holds a secret word (password, secret, api_key, private_key, access_token …) is assigned a string literal that looks like a real credential; everyone with the source or the binary has it, and it cannot be rotated without a release.",
		Suggestion:  "Load the secret at run time from the environment, a secret manager or a protected configuration file, and rotate the one that was committed.",
	},
	{
		ID: "rust.secrets.no-zeroize", Title: "secret kept in memory without zeroize", CWE: 316, Category: CatSecrets,
		Severity: issue.SeverityLow, Confidence: 0.45, Languages: LangRust, Policy: true,
		Description: "A struct keeps a secret-named field as String, Vec<u8> or [u8; N] and neither derives or implements Zeroize/ZeroizeOnDrop nor wraps the field in zeroize::Zeroizing or secrecy::Secret; the plaintext stays in freed memory, core dumps and swap.",
		Suggestion:  "Derive ZeroizeOnDrop (zeroize crate), wrap the field in Zeroizing<…> or secrecy::SecretString/SecretVec.",
	},
	{
		ID: "rust.secrets.debug-derive", Title: "Debug derived on a struct holding secrets", CWE: 532, Category: CatSecrets,
		Severity: issue.SeverityMedium, Confidence: 0.6, Languages: LangRust, Policy: true,
		Description: "#[derive(Debug)] on a struct or enum with a secret-named field of a plain string or byte type prints the secret wherever the value is formatted with {:?}: logs, panic messages, error reports.",
		Suggestion:  "Implement Debug by hand and print the secret as \"[REDACTED]\", or store it as secrecy::SecretString, whose Debug redacts.",
	},
	{
		ID: "rust.random.fixed-seed", Title: "RNG seeded with a constant", CWE: 336, Category: CatRandom,
		Severity: issue.SeverityHigh, Confidence: 0.8, Languages: LangRust, Policy: true,
		Description: "A generator is created with SeedableRng::seed_from_u64(<constant>) or from_seed(<constant array>) outside tests, so every run yields the same sequence; anything derived from it (keys, tokens, shuffles, sampling) is predictable.",
		Suggestion:  "Seed from the operating system (StdRng::from_entropy(), OsRng, thread_rng()); keep fixed seeds to tests and reproducible simulations, and mark those explicitly.",
	},
	{
		ID: "rust.random.non-crypto", Title: "non-cryptographic RNG for a secret", CWE: 338, Category: CatRandom,
		Severity: issue.SeverityMedium, Confidence: 0.6, Languages: LangRust, Policy: true,
		Description: "A fast, predictable generator (SmallRng, fastrand, oorandom, Xorshift/Xoshiro, PCG, WyRand, StepRng) produces a value stored as a token, nonce, salt, key, password, session id, OTP or IV; its output reveals its state, so the secret can be predicted.",
		Suggestion:  "Use a cryptographically secure generator: rand::rngs::OsRng, thread_rng() (ChaCha-based), or getrandom.",
	},
	{
		ID: "rust.crypto.weak-hash", Title: "broken hash for security use", CWE: 328, Category: CatCrypto,
		Severity: issue.SeverityMedium, Confidence: 0.75, Languages: LangRust, Policy: true,
		Description: "An MD5, MD4 or SHA-1 digest is computed (md5::compute, Md5::new, Sha1::new/digest, MessageDigest::md5/sha1, ring's SHA1_FOR_LEGACY_USE_ONLY); collisions are practical, so these must not protect passwords, signatures, certificates or integrity against an attacker.",
		Suggestion:  "Use SHA-256, SHA-3 or BLAKE3 for integrity, and Argon2, scrypt or bcrypt for passwords; keep MD5/SHA-1 only where a protocol mandates them, with a comment.",
	},
	{
		ID: "rust.crypto.tls-no-verify", Title: "TLS certificate verification disabled", CWE: 295, Category: CatCrypto,
		Severity: issue.SeverityHigh, Confidence: 0.85, Languages: LangRust, Policy: true,
		Description: "TLS peer verification is switched off: danger_accept_invalid_certs(true) or danger_accept_invalid_hostnames(true) (reqwest, native-tls), SslVerifyMode::NONE or a verify callback returning true (openssl), a rustls ServerCertVerifier that returns ServerCertVerified::assertion() without checking, curl's ssl_verify_peer(false). Any man in the middle can read and change the traffic.",
		Suggestion:  "Keep verification on; to trust a private CA add its certificate to the root store (add_root_certificate, RootCertStore::add) instead of disabling checks.",
	},
}
