package rust

import (
	"fmt"
	"strings"

	"github.com/jsec/jsec/checkers"
	"github.com/jsec/jsec/checkers/syntax"
)

// Secrets family: hard-coded secrets, secrets kept or printed carelessly,
// predictable randomness, weak hashes and disabled TLS verification.
// Rules are in rules/rust_secrets.go.
const (
	ruleHardcoded   = "rust.secrets.hardcoded"
	ruleNoZeroize   = "rust.secrets.no-zeroize"
	ruleDebugDerive = "rust.secrets.debug-derive"
	ruleFixedSeed   = "rust.random.fixed-seed"
	ruleNonCrypto   = "rust.random.non-crypto"
	ruleWeakHash    = "rust.crypto.weak-hash"
	ruleTLSNoVerify = "rust.crypto.tls-no-verify"
)

// secFieldTriggers are field names that struct literals commonly use for
// secrets (Config { password: "…" }).
var secFieldTriggers = []string{
	"password", "passwd", "passphrase", "secret", "api_key", "apikey", "private_key", "access_key",
	"secret_key", "client_secret", "auth_token", "access_token", "refresh_token", "token",
}

// secretsCheckers is the secrets family; its rules are in rules/rust_secrets.go.
var secretsCheckers = []*checkers.Checker{
	{
		Name:     "rust/secrets/hardcoded",
		Rules:    []string{ruleHardcoded},
		Triggers: append([]string{"const", "static", "let"}, secFieldTriggers...),
		Triage:   triageHardcoded,
		Check:    checkHardcoded,
	},
	{
		Name:     "rust/secrets/struct",
		Rules:    []string{ruleNoZeroize, ruleDebugDerive},
		Triggers: []string{"struct", "enum"},
		Triage:   triageSecretStruct,
		Check:    checkSecretStruct,
	},
	{
		Name:     "rust/secrets/fixed-seed",
		Rules:    []string{ruleFixedSeed},
		Triggers: []string{"seed_from_u64", "from_seed"},
		Triage:   triageFixedSeed,
		Check:    checkFixedSeed,
	},
	{
		Name:     "rust/secrets/non-crypto-rng",
		Rules:    []string{ruleNonCrypto},
		Triggers: weakRNGs,
		Triage:   triageNotTest,
		Check:    checkNonCrypto,
	},
	{
		Name:     "rust/secrets/weak-hash",
		Rules:    []string{ruleWeakHash},
		Triggers: []string{"md5", "Md5", "Sha1", "sha1", "Sha1Core", "Md5Core", "SHA1_FOR_LEGACY_USE_ONLY", "Md4", "md4"},
		Triage:   triageWeakHash,
		Check:    checkWeakHash,
	},
	{
		Name:  "rust/secrets/tls-no-verify",
		Rules: []string{ruleTLSNoVerify},
		Triggers: []string{"danger_accept_invalid_certs", "danger_accept_invalid_hostnames", "SslVerifyMode",
			"set_verify_callback", "assertion", "ssl_verify_peer", "ssl_verify_host", "set_verify_hostname", "verify_hostname"},
		Triage: triageNotTest,
		Check:  checkTLS,
	},
}

// triageNotTest drops occurrences in test items.
func triageNotTest(lx *checkers.Lexed, tok int) bool {
	it := lx.ItemOf(tok)
	return it >= 0 && !lx.Items[it].Test
}

// triageHardcoded keeps `const|static|let <secret name> … = "…"` and
// `<secret field>: "…"` with a string of at least 8 characters.
func triageHardcoded(lx *checkers.Lexed, tok int) bool {
	name := tok + 1
	switch locTok(lx, tok) {
	case "const", "static", "let":
		if lx.Is(name, "mut") || lx.Is(name, "ref") {
			name++
		}
		if lx.Kind(name) != checkers.TokIdent || secNameWord(locTok(lx, name), false) == "" {
			return false
		}
	default:
		if !lx.Is(tok+1, ":") || lx.Is(tok-1, ".") || lx.Is(tok-1, "let") {
			return false
		}
	}
	for j := name + 1; j < name+16 && j < len(lx.Tokens) && !lx.Is(j, ";") && !lx.Is(j, ","); j++ {
		if lx.Kind(j) == checkers.TokString && len(locTok(lx, j)) >= 10 {
			return true
		}
	}
	return false
}

// checkHardcoded flags a string literal that looks like a real secret
// assigned to a const, static, let or struct field whose name holds a
// secret word.
func checkHardcoded(p *checkers.Pass, h checkers.Hit) {
	var name string
	var val, at syntax.Node
	switch h.Word {
	case "const", "static", "let":
		decl := h.Node.Parent()
		if !decl.Is("const_item", "static_item", "let_declaration") {
			return
		}
		pat := decl.Field("name")
		if decl.Kind() == "let_declaration" {
			pat = decl.Field("pattern")
			if pat.Kind() == "mut_pattern" {
				pat = pat.NamedChild(pat.NamedChildCount() - 1)
			}
		}
		name, val, at = pat.Text(), decl.Field("value"), decl
	default:
		fi := h.Node.Parent()
		if fi.Kind() != "field_initializer" || fi.Field("field").Index() != h.Node.Index() {
			return
		}
		name, val, at = h.Word, fi.Field("value"), fi
	}
	word := secNameWord(name, false)
	lit, ok := strLiteral(locPeel(sqlUnwrapNew(locPeel(val))))
	if word == "" || !ok {
		return
	}
	real, adjust := secValue(lit)
	if !real {
		return
	}
	if locInTest(p, at) {
		// Test fixtures hold fake credentials and test vectors: only a
		// recognizable real format (a cloud key, a PEM key, a URL with
		// credentials) counts there.
		if !secKnownFormats().MatchString(lit) && !secUserinfoRE().MatchString(lit) && !strings.Contains(lit, "PRIVATE KEY") {
			return
		}
		adjust -= 0.2
	}
	msg := fmt.Sprintf("`%s` holds a hard-coded %s (%d characters) in the source: anyone with the code or the binary has it", name, word, len(lit))
	p.Report(checkers.Finding{Rule: ruleHardcoded, Span: checkers.NodeSpan(val), Adjust: adjust, Message: msg})
}
