package c

import (
	"fmt"
	"strings"

	"github.com/jsec/jsec/checkers"
	"github.com/jsec/jsec/checkers/syntax"
	"github.com/jsec/jsec/issue"
)

// Crypto family: broken ciphers and hashes, disabled certificate checks,
// non-cryptographic randomness for secrets, hard-coded credentials. The
// randomness and credential checkers live in crypto_random.go and
// crypto_secrets.go.
const (
	ruleWeakCipher  = "c.crypto.weak-cipher"
	ruleWeakHash    = "c.crypto.weak-hash"
	ruleTLSNoVerify = "c.crypto.tls-no-verify"
	ruleRandom      = "c.random.insecure"
	ruleRandomSeed  = "c.random.seed"
	ruleSecret      = "c.secrets.hardcoded"
)

// cryptoCheckers is the crypto family; its rules are in rules/c_crypto.go.
var cryptoCheckers = []*checkers.Checker{
	{
		Name:     "c/crypto/weak-cipher",
		Rules:    []string{ruleWeakCipher},
		Triggers: cryptoKeys(weakCiphers, weakCipherByName, weakCipherConsts),
		Triage:   triageCryptoUse,
		Check:    checkWeakCipher,
	},
	{
		Name:     "c/crypto/weak-hash",
		Rules:    []string{ruleWeakHash},
		Triggers: cryptoKeys(weakHashes, weakHashByName, weakHashConsts),
		Triage:   triageCryptoUse,
		Check:    checkWeakHash,
	},
	{
		Name:     "c/crypto/tls-no-verify",
		Rules:    []string{ruleTLSNoVerify},
		Triggers: tlsTriggers(),
		Triage:   triageTLS,
		Check:    checkTLS,
	},
	{
		Name:     "c/random",
		Rules:    []string{ruleRandom, ruleRandomSeed},
		Triggers: rngTriggers(),
		Triage:   triageRandom,
		Check:    checkRandom,
	},
	{
		Name:     "c/secrets/hardcoded",
		Rules:    []string{ruleSecret},
		Triggers: secretTriggers(),
		Triage:   triageSecret,
		Check:    checkSecret,
	},
}

// cryptoAPI describes a call that selects or runs an algorithm.
type cryptoAPI struct {
	alg string
	// lifecycle: an update/final step of a context another call of the
	// same algorithm started (MD5_Update after MD5_Init).
	lifecycle bool
}

// weakCiphers maps cipher APIs to the broken algorithm they use. Context
// set-up and teardown calls (DES_key_sched is a key set-up and counts;
// mbedtls_des_init only zeroes a struct and does not) are left out.
var weakCiphers = cryptoIndex(map[string][]string{
	"DES": {"DES_ecb_encrypt", "DES_cbc_encrypt", "DES_ncbc_encrypt", "DES_pcbc_encrypt", "DES_xcbc_encrypt",
		"DES_cfb_encrypt", "DES_cfb64_encrypt", "DES_ofb_encrypt", "DES_ofb64_encrypt", "DES_encrypt1",
		"DES_encrypt2", "DES_set_key", "DES_set_key_checked", "DES_set_key_unchecked", "DES_key_sched",
		"DES_string_to_key", "DES_string_to_2keys", "DES_fcrypt", "DES_crypt", "EVP_des_ecb", "EVP_des_cbc",
		"EVP_des_cfb", "EVP_des_cfb1", "EVP_des_cfb8", "EVP_des_cfb64", "EVP_des_ofb", "EVP_desx_cbc",
		"mbedtls_des_setkey_enc", "mbedtls_des_setkey_dec", "mbedtls_des_crypt_ecb", "mbedtls_des_crypt_cbc",
		"wc_Des_SetKey", "wc_Des_CbcEncrypt", "wc_Des_EcbEncrypt"},
	"3DES": {"DES_ecb3_encrypt", "DES_ede2_cbc_encrypt", "DES_ede3_cbc_encrypt", "DES_ede3_cfb64_encrypt",
		"DES_ede3_ofb64_encrypt", "DES_encrypt3", "DES_decrypt3", "EVP_des_ede", "EVP_des_ede_ecb",
		"EVP_des_ede_cbc", "EVP_des_ede_cfb", "EVP_des_ede_cfb64", "EVP_des_ede_ofb", "EVP_des_ede3",
		"EVP_des_ede3_ecb", "EVP_des_ede3_cbc", "EVP_des_ede3_cfb", "EVP_des_ede3_cfb1", "EVP_des_ede3_cfb8",
		"EVP_des_ede3_cfb64", "EVP_des_ede3_ofb", "mbedtls_des3_set2key_enc", "mbedtls_des3_set2key_dec",
		"mbedtls_des3_set3key_enc", "mbedtls_des3_set3key_dec", "mbedtls_des3_crypt_ecb", "mbedtls_des3_crypt_cbc",
		"wc_Des3_SetKey", "wc_Des3_CbcEncrypt"},
	"RC4": {"RC4", "RC4_set_key", "EVP_rc4", "EVP_rc4_40", "EVP_rc4_hmac_md5", "mbedtls_arc4_setup",
		"mbedtls_arc4_crypt", "wc_Arc4SetKey", "wc_Arc4Process"},
	"RC2": {"RC2_set_key", "RC2_ecb_encrypt", "RC2_cbc_encrypt", "EVP_rc2_ecb", "EVP_rc2_cbc", "EVP_rc2_40_cbc",
		"EVP_rc2_64_cbc", "EVP_rc2_cfb", "EVP_rc2_cfb64", "EVP_rc2_ofb"},
	"Blowfish": {"BF_set_key", "BF_ecb_encrypt", "BF_cbc_encrypt", "BF_cfb64_encrypt", "BF_ofb64_encrypt",
		"BF_encrypt", "BF_decrypt", "EVP_bf_ecb", "EVP_bf_cbc", "EVP_bf_cfb", "EVP_bf_cfb64", "EVP_bf_ofb",
		"mbedtls_blowfish_setkey", "mbedtls_blowfish_crypt_ecb", "mbedtls_blowfish_crypt_cbc"},
	"a block cipher in ECB mode": {"EVP_aes_128_ecb", "EVP_aes_192_ecb", "EVP_aes_256_ecb",
		"EVP_camellia_128_ecb", "EVP_camellia_192_ecb", "EVP_camellia_256_ecb", "EVP_aria_128_ecb",
		"EVP_aria_192_ecb", "EVP_aria_256_ecb", "EVP_sm4_ecb", "EVP_seed_ecb", "EVP_cast5_ecb", "EVP_idea_ecb"},
})

// cipherWhy says, per algorithm, why it does not protect data.
var cipherWhy = map[string]string{
	"DES":                        "its 56-bit key is found by brute force in hours",
	"3DES":                       "its 64-bit block leaks plaintext after a few GB under one key (Sweet32), and it is withdrawn by NIST",
	"RC4":                        "its keystream is biased and it is banned from TLS (RFC 7465)",
	"RC2":                        "it is a weak, 64-bit-block cipher from the export era",
	"Blowfish":                   "its 64-bit block leaks plaintext after a few GB under one key (Sweet32)",
	"a block cipher in ECB mode": "ECB encrypts equal blocks to equal ciphertext, so the data's patterns show through",
}

// weakCipherConsts are algorithm constants that select a broken cipher
// when passed to a call (gcry_cipher_open, mbedtls_cipher_info_from_type,
// CCCrypt, CryptDeriveKey …).
var weakCipherConsts = cryptoIndex(map[string][]string{
	"DES": {"GCRY_CIPHER_DES", "MBEDTLS_CIPHER_DES_ECB", "MBEDTLS_CIPHER_DES_CBC", "GNUTLS_CIPHER_DES_CBC",
		"kCCAlgorithmDES", "CALG_DES"},
	"3DES": {"GCRY_CIPHER_3DES", "MBEDTLS_CIPHER_DES_EDE_ECB", "MBEDTLS_CIPHER_DES_EDE_CBC",
		"MBEDTLS_CIPHER_DES_EDE3_ECB", "MBEDTLS_CIPHER_DES_EDE3_CBC", "GNUTLS_CIPHER_3DES_CBC", "kCCAlgorithm3DES",
		"CALG_3DES", "CALG_3DES_112"},
	"RC4": {"GCRY_CIPHER_ARCFOUR", "MBEDTLS_CIPHER_ARC4_128", "GNUTLS_CIPHER_ARCFOUR_128",
		"GNUTLS_CIPHER_ARCFOUR_40", "kCCAlgorithmRC4", "CALG_RC4"},
	"RC2":      {"GCRY_CIPHER_RFC2268_40", "GNUTLS_CIPHER_RC2_40_CBC", "kCCAlgorithmRC2", "CALG_RC2"},
	"Blowfish": {"GCRY_CIPHER_BLOWFISH", "kCCAlgorithmBlowfish"},
	"a block cipher in ECB mode": {"GCRY_CIPHER_MODE_ECB", "MBEDTLS_CIPHER_AES_128_ECB",
		"MBEDTLS_CIPHER_AES_192_ECB", "MBEDTLS_CIPHER_AES_256_ECB", "kCCOptionECBMode"},
})

// cryptoIndex turns algorithm → API names into name → API. Digest calls
// that continue a context (…Update, …Final, …finish) are marked
// lifecycle steps.
func cryptoIndex(byAlg map[string][]string) map[string]cryptoAPI {
	out := map[string]cryptoAPI{}
	for alg, names := range byAlg {
		for _, n := range names {
			l := strings.ToLower(n)
			step := strings.Contains(l, "update") || strings.Contains(l, "final") || strings.Contains(l, "finish")
			out[n] = cryptoAPI{alg: alg, lifecycle: step}
		}
	}
	return out
}

// weakCipherByName are calls that look a cipher up by name; the
// argument index holds the name.
var weakCipherByName = map[string]cryptoAPI{"EVP_get_cipherbyname": {}, "EVP_CIPHER_fetch": {}}

// cipherNameArg is the argument that names the algorithm.
var cipherNameArg = map[string]int{"EVP_get_cipherbyname": 0, "EVP_CIPHER_fetch": 1, "EVP_get_digestbyname": 0, "EVP_MD_fetch": 1}

// weakCipherName maps an OpenSSL cipher name ("des-ede3-cbc", "RC4",
// "aes-128-ecb") to the broken algorithm it selects, or "".
func weakCipherName(name string) string {
	n := strings.ToLower(name)
	switch {
	case n == "des" || strings.HasPrefix(n, "des-") && !strings.HasPrefix(n, "des-ede") || n == "desx" || strings.HasPrefix(n, "desx-"):
		return "DES"
	case strings.HasPrefix(n, "des-ede") || n == "des3" || n == "3des":
		return "3DES"
	case strings.HasPrefix(n, "rc4"):
		return "RC4"
	case strings.HasPrefix(n, "rc2"):
		return "RC2"
	case n == "bf" || strings.HasPrefix(n, "bf-") || n == "blowfish":
		return "Blowfish"
	case strings.HasSuffix(n, "-ecb"):
		return "a block cipher in ECB mode"
	}
	return ""
}

// weakHashes maps digest APIs to the broken algorithm.
var weakHashes = cryptoIndex(map[string][]string{
	"MD5": {"MD5", "MD5_Init", "MD5_Update", "MD5_Final", "EVP_md5", "EVP_md5_sha1", "mbedtls_md5",
		"mbedtls_md5_ret", "mbedtls_md5_starts", "mbedtls_md5_starts_ret", "mbedtls_md5_update",
		"mbedtls_md5_update_ret", "mbedtls_md5_finish", "mbedtls_md5_finish_ret", "CC_MD5", "CC_MD5_Init",
		"CC_MD5_Update", "CC_MD5_Final", "wc_InitMd5", "wc_Md5Update", "wc_Md5Final"},
	"MD4": {"MD4", "MD4_Init", "MD4_Update", "MD4_Final", "EVP_md4", "mbedtls_md4", "mbedtls_md4_ret",
		"mbedtls_md4_starts", "mbedtls_md4_starts_ret", "mbedtls_md4_update", "mbedtls_md4_update_ret",
		"mbedtls_md4_finish", "mbedtls_md4_finish_ret", "CC_MD4", "CC_MD4_Init", "CC_MD4_Update", "CC_MD4_Final",
		"wc_InitMd4", "wc_Md4Update", "wc_Md4Final"},
	"MD2": {"MD2", "MD2_Init", "MD2_Update", "MD2_Final", "EVP_md2"},
	"SHA-1": {"SHA1", "SHA1_Init", "SHA1_Update", "SHA1_Final", "EVP_sha1", "mbedtls_sha1", "mbedtls_sha1_ret",
		"mbedtls_sha1_starts", "mbedtls_sha1_starts_ret", "mbedtls_sha1_update", "mbedtls_sha1_update_ret",
		"mbedtls_sha1_finish", "mbedtls_sha1_finish_ret", "CC_SHA1", "CC_SHA1_Init", "CC_SHA1_Update",
		"CC_SHA1_Final", "wc_InitSha", "wc_ShaUpdate", "wc_ShaFinal"},
})

// weakHashConsts select a broken digest when passed to a call.
var weakHashConsts = cryptoIndex(map[string][]string{
	"MD5": {"GCRY_MD_MD5", "MBEDTLS_MD_MD5", "GNUTLS_DIG_MD5", "GNUTLS_MAC_MD5", "CALG_MD5", "BCRYPT_MD5_ALGORITHM"},
	"MD4": {"GCRY_MD_MD4", "MBEDTLS_MD_MD4", "CALG_MD4", "BCRYPT_MD4_ALGORITHM"},
	"SHA-1": {"GCRY_MD_SHA1", "MBEDTLS_MD_SHA1", "GNUTLS_DIG_SHA1", "GNUTLS_MAC_SHA1", "CALG_SHA1", "CALG_SHA",
		"BCRYPT_SHA1_ALGORITHM"},
})

// weakHashByName look a digest up by name.
var weakHashByName = map[string]cryptoAPI{"EVP_get_digestbyname": {}, "EVP_MD_fetch": {}}

// weakHashName maps an OpenSSL digest name ("md5", "SHA1", "sha-1") to
// the broken algorithm it selects, or "".
func weakHashName(name string) string {
	switch strings.ToLower(strings.ReplaceAll(name, "-", "")) {
	case "md5", "ssl3md5", "md5sha1":
		return "MD5"
	case "md4":
		return "MD4"
	case "md2":
		return "MD2"
	case "sha1", "sha", "ssl3sha1":
		return "SHA-1"
	}
	return ""
}

// hmacCalls use a digest where collisions do not matter: as the hash of
// an HMAC, HKDF or PBKDF2, or to compute an identifier a protocol fixes
// (the OCSP CertID hashes names and keys with SHA-1 by default).
var hmacCalls = map[string]string{
	"HMAC": "HMAC", "HMAC_Init": "HMAC", "HMAC_Init_ex": "HMAC", "PKCS5_PBKDF2_HMAC": "HMAC",
	"mbedtls_md_hmac": "HMAC", "mbedtls_md_hmac_starts": "HMAC", "gnutls_hmac_init": "HMAC",
	"gnutls_hmac_fast": "HMAC", "HKDF": "HMAC", "EVP_PKEY_CTX_set_hkdf_md": "HMAC",
	"OCSP_cert_to_id": "an OCSP certificate ID", "OCSP_cert_id_new": "an OCSP certificate ID",
}

// cryptoSelectors are the calls an algorithm constant selects an
// algorithm in; elsewhere (a name table, a comparison) it is not a use.
var cryptoSelectors = map[string]bool{
	"gcry_cipher_open": true, "gcry_md_open": true, "gcry_md_enable": true, "gcry_md_hash_buffer": true,
	"gcry_md_hash_buffers": true, "mbedtls_cipher_info_from_type": true, "mbedtls_md_info_from_type": true,
	"gnutls_cipher_init": true, "gnutls_hash_init": true, "gnutls_hash_fast": true, "gnutls_hmac_init": true,
	"gnutls_hmac_fast": true, "CCCrypt": true, "CCCryptorCreate": true, "CCCryptorCreateWithMode": true,
	"CryptDeriveKey": true, "CryptGenKey": true, "CryptCreateHash": true, "BCryptOpenAlgorithmProvider": true,
}

// triageCryptoUse keeps API names that are called ("MD5_Init(", not a
// field "ops->MD5_Init" or an enum value) and algorithm constants that
// sit in an argument list.
func triageCryptoUse(lx *checkers.Lexed, tok int) bool {
	w := lx.Text(tok)
	if weakCipherConsts[w].alg != "" || weakHashConsts[w].alg != "" {
		return lx.Is(tok-1, "(") || lx.Is(tok-1, ",") || lx.Is(tok-1, "|")
	}
	if lx.Is(tok-1, ".") || lx.Is(tok-1, "->") {
		return false
	}
	return lx.Is(tok+1, "(") || lx.Is(tok-1, "(") && lx.Is(tok+1, ")")
}

// cryptoKeys lists the names of the tables, the triggers of a checker.
func cryptoKeys(tables ...map[string]cryptoAPI) []string {
	var out []string
	for _, t := range tables {
		for k := range t {
			out = append(out, k)
		}
	}
	return out
}

// cryptoUse finds the call a weak-algorithm trigger makes: the call of
// the API itself, or the call that receives an algorithm constant. It
// returns the algorithm, or "" when the occurrence is not a use.
func cryptoUse(h checkers.Hit, apis, byName, consts map[string]cryptoAPI, nameAlg func(string) string) (syntax.Node, cryptoAPI, bool) {
	if api, ok := apis[h.Word]; ok {
		call, ok := CallAt(h)
		return call, api, ok
	}
	if _, ok := byName[h.Word]; ok {
		call, ok := CallAt(h)
		if !ok {
			return syntax.Node{}, cryptoAPI{}, false
		}
		s, ok := StringValue(Arg(call, cipherNameArg[h.Word]))
		if alg := nameAlg(s); ok && alg != "" {
			return call, cryptoAPI{alg: alg}, true
		}
		return syntax.Node{}, cryptoAPI{}, false
	}
	if api, ok := consts[h.Word]; ok {
		if call := cryptoArgOf(h.Node); call.Valid() && cryptoSelectors[CalleeName(call)] {
			return call, api, true
		}
	}
	return syntax.Node{}, cryptoAPI{}, false
}

// cryptoArgOf returns the call that n is an argument of (possibly inside
// a bitwise-or of flags), or the zero Node.
func cryptoArgOf(n syntax.Node) syntax.Node {
	if !n.Valid() || n.Kind() != "identifier" {
		return syntax.Node{}
	}
	p := n.Parent()
	for p.Kind() == "binary_expression" && BinaryOp(p) == "|" || p.Kind() == "parenthesized_expression" {
		p = p.Parent()
	}
	if p.Kind() == "argument_list" && p.Parent().Kind() == "call_expression" {
		return p.Parent()
	}
	return syntax.Node{}
}

// checkWeakCipher reports one call that selects or runs a broken cipher.
func checkWeakCipher(p *checkers.Pass, h checkers.Hit) {
	call, api, ok := cryptoUse(h, weakCiphers, weakCipherByName, weakCipherConsts, weakCipherName)
	if !ok {
		return
	}
	p.Report(checkers.Finding{Rule: ruleWeakCipher, Span: checkers.NodeSpan(call),
		Message: fmt.Sprintf("%s uses %s: %s", cryptoCallName(call, h), api.alg, cipherWhy[api.alg])})
}

// checkWeakHash reports one use of a broken digest, lowered where the
// digest feeds an HMAC or a protocol identifier.
func checkWeakHash(p *checkers.Pass, h checkers.Hit) {
	call, api, ok := cryptoUse(h, weakHashes, weakHashByName, weakHashConsts, weakHashName)
	if !ok {
		return
	}
	if api.lifecycle && cryptoStartedInFunction(call, api.alg) {
		return // the Init / starts call of the same context was reported
	}
	f := checkers.Finding{Rule: ruleWeakHash, Span: checkers.NodeSpan(call),
		Message: fmt.Sprintf("%s uses %s, whose collisions are practical: it must not protect integrity, authenticity or passwords", cryptoCallName(call, h), api.alg)}
	if mac := cryptoHMACUse(p, call); mac != "" {
		f.Adjust = -0.3
		f.Severity = issue.SeverityLow
		f.Message = fmt.Sprintf("%s selects %s for %s() (%s), where collisions do not matter; %s is still deprecated", cryptoCallName(call, h), api.alg, mac, hmacCalls[mac], api.alg)
	}
	p.Report(f)
}

// cryptoCallName names the call for messages: "MD5_Init()", or
// "gcry_md_open(…GCRY_MD_MD5…)" for a constant.
func cryptoCallName(call syntax.Node, h checkers.Hit) string {
	name := CalleeName(call)
	if name == "" {
		name = "the call"
	}
	if name != h.Word {
		return fmt.Sprintf("%s(%s)", name, h.Word)
	}
	return name + "()"
}

// cryptoStartedInFunction reports whether the function holding call also
// starts a context of alg (an Init, starts or one-shot call).
func cryptoStartedInFunction(call syntax.Node, alg string) bool {
	fn := EnclosingFunction(call)
	found := false
	fn.Field("body").Walk(func(n syntax.Node) bool {
		if found {
			return false
		}
		if n.Kind() == "call_expression" {
			if api, ok := weakHashes[CalleeName(n)]; ok && !api.lifecycle && api.alg == alg {
				found = true
			}
		}
		return true
	})
	return found
}

// cryptoHMACUse returns the HMAC-style call that the digest selector call
// feeds, directly (HMAC(EVP_sha1(), …)) or through a variable assigned in
// the same function (md = EVP_sha1(); HMAC_Init_ex(ctx, k, n, md, NULL)).
func cryptoHMACUse(p *checkers.Pass, call syntax.Node) string {
	parent := Unparen(call).Parent()
	for parent.Kind() == "parenthesized_expression" || parent.Kind() == "cast_expression" {
		parent = parent.Parent()
	}
	if parent.Kind() == "argument_list" {
		if name := CalleeName(parent.Parent()); hmacCalls[name] != "" {
			return name
		}
		return ""
	}
	var target string
	switch parent.Kind() {
	case "init_declarator":
		target = declIdent(parent.Field("declarator"))
	case "assignment_expression":
		target = PathOf(parent.Field("left"))
	}
	fn := EnclosingFunction(call)
	if target == "" || !fn.Valid() {
		return ""
	}
	mac := ""
	fn.Field("body").Walk(func(n syntax.Node) bool {
		if mac != "" || n.Kind() != "call_expression" || n.Start() < call.End() || hmacCalls[CalleeName(n)] == "" {
			return mac == ""
		}
		for _, a := range Args(n) {
			if PathOf(a) == target {
				mac = CalleeName(n)
			}
		}
		return true
	})
	return mac
}
