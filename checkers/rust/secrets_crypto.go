package rust

import (
	"fmt"
	"strings"

	"github.com/jsec/jsec/checkers"
	"github.com/jsec/jsec/checkers/syntax"
)

// triageFixedSeed keeps X::seed_from_u64(…)/from_seed(…) calls outside
// test items.
func triageFixedSeed(lx *checkers.Lexed, tok int) bool {
	return lx.Is(tok-1, "::") && lx.Is(tok+1, "(") && triageNotTest(lx, tok)
}

// checkFixedSeed flags an RNG seeded with a constant outside tests: every
// run produces the same sequence. Simulations and benchmarks do this on
// purpose; jsec does not guess that from names and reports them too.
func checkFixedSeed(p *checkers.Pass, h checkers.Hit) {
	call, ok := CallAt(h)
	if !ok || locInTest(p, call) || implTrait(call) == "SeedableRng" {
		return // a generator's own seeding code
	}
	args := Args(call)
	if len(args) != 1 {
		return
	}
	seed := locPeel(args[0])
	if !locIsLiteral(seed) && !cmdConstant(p, seed) && !seedConstArray(p, seed) {
		return
	}
	adjust := 0.0
	if strings.Trim(strings.NewReplacer("u8", "", "u64", "", ";", "", " ", "", "_", "").Replace(seed.Text()), "[]0,") == "" {
		adjust += 0.05 // an all-zero seed
	}
	rng := strings.Join(strings.Fields(call.Field("function").Text()), "")
	msg := fmt.Sprintf("%s(%s) seeds the generator with a constant: every run produces the same \"random\" values; seed from OsRng or use thread_rng()",
		rng, strings.Join(strings.Fields(args[0].Text()), ""))
	p.Report(checkers.Finding{Rule: ruleFixedSeed, Span: checkers.NodeSpan(call), Adjust: adjust, Message: msg})
}

// seedConstArray reports whether e is an array literal of constants or a
// let bound to one.
func seedConstArray(p *checkers.Pass, e syntax.Node) bool {
	if e.Kind() == "identifier" {
		if b, ok := locResolve(p, e); ok && b.Direct && b.Value.Valid() && !b.IsParam() {
			v := locPeel(b.Value)
			return locIsLiteral(v) || cmdConstant(p, v)
		}
	}
	return false
}

// weakRNGs are generators that are fast but predictable from their
// output.
var weakRNGs = []string{
	"SmallRng", "fastrand", "oorandom", "StepRng", "XorShiftRng", "Xoshiro256PlusPlus", "Xoshiro256StarStar",
	"Xoroshiro128Plus", "Xoroshiro128PlusPlus", "Xoshiro128PlusPlus", "Pcg32", "Pcg64", "Pcg64Mcg",
	"Lcg64Xsh32", "WyRand", "Mcg128Xsl64", "Rand32", "Rand64",
}

// checkNonCrypto flags a predictable generator whose output becomes a
// secret: a let, struct field or function result named token, nonce,
// salt, key, password, session_id, otp, iv.
func checkNonCrypto(p *checkers.Pass, h checkers.Hit) {
	n := h.Node
	if locInTest(p, n) || n.Parent().Kind() == "use_declaration" || n.Ancestor("use_declaration").Valid() {
		return
	}
	if at, dst, word := rngDestination(n); word != "" {
		rngReport(p, h.Word, at, dst, word)
		return
	}
	// let mut rng = SmallRng::from_entropy(); … let token = rng.gen();
	let := n.Ancestor("let_declaration")
	if !let.Valid() || !let.Field("value").Contains(n) {
		return
	}
	pat := let.Field("pattern")
	if pat.Kind() == "mut_pattern" {
		pat = pat.NamedChild(pat.NamedChildCount() - 1)
	}
	if pat.Kind() != "identifier" {
		return
	}
	let.Parent().Walk(func(m syntax.Node) bool {
		if m.Start() < let.End() || m.Kind() != "identifier" || m.Text() != pat.Text() {
			return true
		}
		if at, dst, word := rngDestination(m); word != "" {
			rngReport(p, h.Word, at, dst, word)
		}
		return true
	})
}

// rngDestination returns where the value computed around n goes, when
// that place has a secret name: the let it initializes, the struct field
// it fills, the variable it is assigned to, or the secret-named function
// it is returned from. It returns the node to report and a description.
func rngDestination(n syntax.Node) (syntax.Node, string, string) {
	for q := n; q.Valid(); q = q.Parent() {
		par := q.Parent()
		switch par.Kind() {
		case "let_declaration":
			if par.Field("value").Index() != q.Index() {
				return syntax.Node{}, "", ""
			}
			name := strings.TrimPrefix(par.Field("pattern").Text(), "mut ")
			return par, "`" + name + "`", secRandName(name)
		case "field_initializer":
			name := par.Field("field").Text()
			return par, "field `" + name + "`", secRandName(name)
		case "assignment_expression":
			name := par.Field("left").Text()
			return par, "`" + name + "`", secRandName(name[strings.LastIndex(name, ".")+1:])
		case "block":
			next := q.NextSibling()
			for next.Kind() == "line_comment" || next.Kind() == "block_comment" {
				next = next.NextSibling()
			}
			if par.Parent().Kind() != "function_item" || next.Kind() != "}" {
				return syntax.Node{}, "", ""
			}
			fallthrough
		case "return_expression":
			name := EnclosingFunction(q).Field("name").Text()
			return q, "the result of " + name + "()", secRandName(name)
		case "expression_statement", "function_item":
			return syntax.Node{}, "", ""
		}
	}
	return syntax.Node{}, "", ""
}

func rngReport(p *checkers.Pass, rng string, at syntax.Node, dst, word string) {
	msg := fmt.Sprintf("%s is not a cryptographic generator: its output is predictable, yet it produces %s (a %s); use rand::rngs::OsRng or thread_rng()", rng, dst, word)
	p.Report(checkers.Finding{Rule: ruleNonCrypto, Span: checkers.NodeSpan(at), Message: msg})
}

// triageWeakHash keeps hash names used in code (not in use lists) outside
// test items.
func triageWeakHash(lx *checkers.Lexed, tok int) bool {
	if !triageNotTest(lx, tok) {
		return false
	}
	// md5::compute(, Md5::new(, MessageDigest::md5(, &digest::SHA1_FOR_LEGACY_USE_ONLY
	return lx.Is(tok+1, "::") && !lx.Is(tok+2, "{") && !lx.Is(tok+2, "*") || lx.Is(tok-1, "::") && (lx.Is(tok+1, "(") || lx.Is(tok+1, ")") || lx.Is(tok+1, ",")) || lx.Is(tok+1, "(")
}

// checkWeakHash flags MD5, MD4 and SHA-1 digests computed in code. HMAC
// over SHA-1 is not broken and stays silent. Names around the call that
// say what the digest is for raise (password, signature) or lower
// (checksum, etag, cache, git) the confidence.
func checkWeakHash(p *checkers.Pass, h checkers.Hit) {
	n := h.Node
	if locInTest(p, n) || n.Ancestor("use_declaration").Valid() || n.Ancestor("attribute_item").Valid() {
		return
	}
	expr := n
	for expr.Parent().Kind() == "scoped_identifier" || expr.Parent().Kind() == "generic_type" || expr.Parent().Kind() == "type_arguments" || expr.Parent().Kind() == "scoped_type_identifier" {
		expr = expr.Parent()
	}
	if strings.Contains(expr.Text(), "Hmac") || strings.Contains(expr.Parent().Text(), "Hmac<") {
		return
	}
	call := expr.Parent()
	switch {
	case call.Kind() == "call_expression" && call.Field("function").Index() == expr.Index():
	case expr.Kind() == "identifier" && expr.Parent().Kind() == "arguments",
		expr.Kind() == "scoped_identifier" && (expr.Parent().Kind() == "arguments" || expr.Parent().Kind() == "reference_expression"):
		call = expr
	default:
		return
	}
	algo := "MD5"
	switch w := strings.ToLower(h.Word); {
	case strings.Contains(w, "sha1"):
		algo = "SHA-1"
	case strings.Contains(w, "md4"):
		algo = "MD4"
	}
	adjust, why := hashPurpose(call)
	msg := fmt.Sprintf("%s computes a %s digest: %s collisions are practical, so it must not protect passwords, signatures or integrity against an attacker%s; use SHA-256/BLAKE3 (or Argon2/bcrypt for passwords)",
		strings.Join(strings.Fields(call.Text()), ""), algo, algo, why)
	if len(msg) > 400 {
		msg = msg[:400]
	}
	p.Report(checkers.Finding{Rule: ruleWeakHash, Span: checkers.NodeSpan(call), Adjust: adjust, Message: msg})
}

// hashPurpose reads the names of the enclosing function and the let
// around a digest call for what it is used for.
func hashPurpose(call syntax.Node) (float64, string) {
	names := EnclosingFunction(call).Field("name").Text()
	if let := call.Ancestor("let_declaration"); let.Valid() {
		names += "_" + let.Field("pattern").Text()
	}
	ws := secWords(names)
	for _, w := range ws {
		switch w {
		case "password", "passwd", "sign", "signature", "verify", "auth", "token", "cert", "certificate", "mac", "secret", "credential", "login":
			return 0.1, " (used for " + w + ")"
		}
	}
	for _, w := range ws {
		switch w {
		case "checksum", "etag", "cache", "fingerprint", "git", "uuid", "dedup", "content", "hash", "id", "key", "digest":
			return -0.2, " (a " + w + ": a non-security use is likely)"
		}
	}
	return 0, ""
}

// checkTLS flags TLS certificate or hostname verification turned off:
// danger_accept_invalid_certs(true), SslVerifyMode::NONE, a verify
// callback that returns true, a rustls verifier that accepts everything,
// curl's ssl_verify_peer(false).
func checkTLS(p *checkers.Pass, h checkers.Hit) {
	if locInTest(p, h.Node) {
		return
	}
	switch h.Word {
	case "SslVerifyMode":
		sc := h.Node.Parent()
		if sc.Kind() != "scoped_identifier" || sc.Field("name").Text() != "NONE" {
			return
		}
		adjust, note := 0.0, ""
		for q := sc; q.Valid() && q.Kind() != "function_item"; q = q.Parent() {
			if q.FieldName() == "consequence" && q.Parent().Kind() == "if_expression" {
				adjust, note = -0.2, " (under a condition: make sure it is never set in production)"
				break
			}
		}
		tlsReport(p, sc, adjust, "SslVerifyMode::NONE turns off certificate verification: any server (or man in the middle) is accepted"+note)
	case "assertion":
		checkTLSVerifier(p, h)
	case "set_verify_callback":
		call, _, ok := MethodCallAt(h)
		if a := Args(call); ok && len(a) == 2 && a[1].Kind() == "closure_expression" && tlsAlwaysTrue(a[1].Field("body")) {
			tlsReport(p, a[1], 0, "the verify callback returns true for every certificate: verification is off")
		}
	default:
		call, _, ok := MethodCallAt(h)
		a := Args(call)
		if !ok || len(a) != 1 {
			return
		}
		arg := locPeel(a[0])
		off := "true"
		if strings.HasPrefix(h.Word, "ssl_verify") || strings.Contains(h.Word, "verify_hostname") {
			off = "false"
		}
		at := checkers.Span{Start: h.Node.Start(), End: call.End()}
		switch {
		case arg.Text() == off:
			tlsReportSpan(p, at, 0, fmt.Sprintf("%s(%s) turns off TLS verification: any certificate (or man in the middle) is accepted", h.Word, off))
		case EnclosingFunction(call).Field("name").Text() == h.Word:
			return // a builder forwarding its own option of the same name
		case arg.Kind() != "boolean_literal":
			adjust := -0.3
			if b, ok := locResolve(p, arg); ok && b.IsParam() {
				adjust = -0.45 // plumbing: the caller decides
			}
			tlsReportSpan(p, at, adjust, fmt.Sprintf("%s(%s): TLS verification can be turned off by configuration; make sure it never is in production", h.Word, arg.Text()))
		}
	}
}

func tlsReport(p *checkers.Pass, n syntax.Node, adjust float64, msg string) {
	tlsReportSpan(p, checkers.NodeSpan(n), adjust, msg)
}

func tlsReportSpan(p *checkers.Pass, at checkers.Span, adjust float64, msg string) {
	p.Report(checkers.Finding{Rule: ruleTLSNoVerify, Span: at, Adjust: adjust, Message: msg})
}

// checkTLSVerifier flags ServerCertVerified::assertion() (and its client
// and signature twins) in a verifier method that does nothing else: it
// accepts every certificate.
func checkTLSVerifier(p *checkers.Pass, h checkers.Hit) {
	call, ok := CallAt(h)
	if !ok {
		return
	}
	path := Path(call)
	if !strings.HasSuffix(path, "Verified::assertion") && !strings.HasSuffix(path, "SignatureValid::assertion") {
		return
	}
	fn := EnclosingFunction(call)
	trait := implTrait(fn)
	if !strings.Contains(trait, "Verifier") {
		return
	}
	calls := 0
	trivial := true
	fn.Field("body").Walk(func(n syntax.Node) bool {
		switch n.Kind() {
		case "if_expression", "match_expression", "try_expression", "macro_invocation", "let_declaration", "for_expression", "while_expression":
			trivial = false
		case "call_expression":
			calls++
		}
		return trivial
	})
	if !trivial || calls > 2 {
		return // Ok(…::assertion()) is two calls; anything more is real checking
	}
	msg := fmt.Sprintf("%s::%s returns %s without looking at its input: every certificate is accepted, so TLS no longer authenticates the peer", trait, fn.Field("name").Text(), path)
	tlsReport(p, call, 0, msg)
}

// tlsAlwaysTrue reports whether a closure body is the literal true.
func tlsAlwaysTrue(body syntax.Node) bool {
	for body.Kind() == "block" && body.NamedChildCount() == 1 {
		body = body.NamedChild(0)
	}
	return body.Kind() == "boolean_literal" && body.Text() == "true"
}
