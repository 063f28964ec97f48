package c

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/jsec/jsec/checkers"
	"github.com/jsec/jsec/checkers/syntax"
	"github.com/jsec/jsec/issue"
)

// Disabled certificate verification: OpenSSL/wolfSSL verify modes,
// always-accepting verify callbacks, mbedTLS auth modes, libcurl's
// VERIFYPEER/VERIFYHOST options and GnuTLS flags that skip CA signatures.

// tlsModeCalls are set-verify calls: the argument that holds the mode and
// the one that holds the callback (-1: none).
var tlsModeCalls = map[string]struct{ mode, cb int }{
	"SSL_CTX_set_verify": {1, 2}, "SSL_set_verify": {1, 2},
	"wolfSSL_CTX_set_verify": {1, 2}, "wolfSSL_set_verify": {1, 2},
	"mbedtls_ssl_conf_authmode": {1, -1}, "mbedtls_ssl_set_hs_authmode": {1, -1},
	"SSL_CTX_set_cert_verify_callback": {-1, 1},
}

// tlsNoneModes are the mode constants that switch verification off.
var tlsNoneModes = map[string]bool{
	"SSL_VERIFY_NONE": true, "WOLFSSL_VERIFY_NONE": true, "MBEDTLS_SSL_VERIFY_NONE": true,
}

// tlsCurlOptions are libcurl options whose value 0 disables a check.
var tlsCurlOptions = map[string]string{
	"CURLOPT_SSL_VERIFYPEER": "peer certificate", "CURLOPT_SSL_VERIFYHOST": "host name",
	"CURLOPT_PROXY_SSL_VERIFYPEER": "proxy certificate", "CURLOPT_PROXY_SSL_VERIFYHOST": "proxy host name",
	"CURLOPT_DOH_SSL_VERIFYPEER": "DoH server certificate", "CURLOPT_DOH_SSL_VERIFYHOST": "DoH host name",
}

// tlsFlagConsts are flags that defeat verification wherever passed.
var tlsFlagConsts = map[string]string{
	"GNUTLS_VERIFY_DISABLE_CA_SIGN": "skips the CA signature check of the peer's chain",
}

// tlsServerMarkers and tlsClientMarkers tell a server's TLS code from a
// client's: on a server, SSL_VERIFY_NONE only means "do not ask clients
// for certificates".
var (
	tlsServerMarkers = map[string]bool{
		"SSL_accept": true, "SSL_set_accept_state": true, "TLS_server_method": true, "SSLv23_server_method": true,
		"TLSv1_2_server_method": true, "DTLS_server_method": true, "wolfSSL_accept": true,
		"wolfSSLv23_server_method": true, "MBEDTLS_SSL_IS_SERVER": true,
	}
	tlsClientMarkers = map[string]bool{
		"SSL_connect": true, "SSL_set_connect_state": true, "TLS_client_method": true, "SSLv23_client_method": true,
		"TLSv1_2_client_method": true, "DTLS_client_method": true, "wolfSSL_connect": true,
		"wolfSSLv23_client_method": true, "MBEDTLS_SSL_IS_CLIENT": true, "SSL_set_tlsext_host_name": true,
		"SSL_set1_host": true,
	}
)

// tlsTriggers are the set-verify calls, the curl options and the flags.
func tlsTriggers() []string {
	var out []string
	for k := range tlsModeCalls {
		out = append(out, k)
	}
	for k := range tlsCurlOptions {
		out = append(out, k)
	}
	for k := range tlsFlagConsts {
		out = append(out, k)
	}
	return out
}

// triageTLS keeps set-verify calls whose mode may be "none" or whose
// callback always accepts, and curl options set to 0 or to a variable;
// it drops "case CURLOPT_SSL_VERIFYPEER:" and option tables.
func triageTLS(lx *checkers.Lexed, tok int) bool {
	word := lx.Text(tok)
	if _, ok := tlsFlagConsts[word]; ok {
		return true
	}
	if _, ok := tlsCurlOptions[word]; ok {
		if !lx.Is(tok-1, ",") || !lx.Is(tok+1, ",") {
			return false
		}
		end := tok + 2
		for end < len(lx.Tokens) && !lx.Is(end, ")") && !lx.Is(end, ",") && !lx.Is(end, ";") {
			if lx.Is(end, "(") {
				end = max(lx.Close(end), end)
			}
			end++
		}
		v := tlsValueTok(lx, tok+2, end)
		return lx.Is(end, ")") && v >= 0 && tlsZeroToken(lx, v)
	}
	spec := tlsModeCalls[word]
	args, ok := lx.CallArgs(tok)
	if !ok {
		return false
	}
	if m := spec.mode; m >= 0 && m < len(args) {
		if v := tlsValueTok(lx, args[m].Start, args[m].End); v >= 0 && tlsZeroToken(lx, v) {
			return true
		}
	}
	if c := spec.cb; c >= 0 && c < len(args) {
		if v := tlsValueTok(lx, args[c].Start, args[c].End); v >= 0 && lx.Kind(v) == checkers.TokIdent {
			return tlsAlwaysAccepts(lx, lx.Text(v))
		}
	}
	return false
}

// tlsValueTok returns the token of a one-token value in [start, end),
// after any casts "(type)", or -1 when the value is an expression.
func tlsValueTok(lx *checkers.Lexed, start, end int) int {
	for start < end && lx.Is(start, "(") {
		c := lx.Close(start)
		switch {
		case c < 0 || c >= end:
			return -1
		case c+1 == end: // (0): the parentheses hold the value
			start, end = start+1, c
		default: // (long)0: a cast
			start = c + 1
		}
	}
	if end-start != 1 {
		return -1
	}
	return start
}

// tlsZeroToken: a literal 0, FALSE, a "none" mode constant, or a
// variable (a lower-case name whose value Check traces). Upper-case names
// are other constants.
func tlsZeroToken(lx *checkers.Lexed, i int) bool {
	w := lx.Text(i)
	switch lx.Kind(i) {
	case checkers.TokNumber:
		v, err := strconv.ParseInt(strings.TrimRight(strings.ToLower(w), "ul"), 0, 64)
		return err == nil && v == 0
	case checkers.TokIdent:
		return w == "FALSE" || w == "false" || tlsNoneModes[w] || !tlsConstName(w)
	}
	return false
}

// tlsConstName: an upper-case name such as SSL_VERIFY_PEER, a constant.
func tlsConstName(w string) bool {
	return strings.ToUpper(w) == w
}

// checkTLS dispatches a trigger: a curl option, a flag or a set-verify
// call.
func checkTLS(p *checkers.Pass, h checkers.Hit) {
	if what, ok := tlsCurlOptions[h.Word]; ok {
		checkTLSCurl(p, h, what)
		return
	}
	if what, ok := tlsFlagConsts[h.Word]; ok {
		if call := cryptoArgOf(h.Node); call.Valid() {
			p.Report(checkers.Finding{Rule: ruleTLSNoVerify, Span: checkers.NodeSpan(call),
				Message: fmt.Sprintf("%s passes %s, which %s", CalleeName(call), h.Word, what)})
		}
		return
	}
	call, ok := CallAt(h)
	if !ok {
		return
	}
	spec := tlsModeCalls[h.Word]
	if spec.mode >= 0 {
		if mode := Arg(call, spec.mode); tlsModeNone(p, mode) {
			tlsReportMode(p, call, h.Word, mode)
			return
		}
	}
	if spec.cb >= 0 {
		cb := Ident(Arg(call, spec.cb))
		if cb != "" && tlsAlwaysAccepts(p.Lex, cb) {
			f := checkers.Finding{Rule: ruleTLSNoVerify, Span: checkers.NodeSpan(call),
				Message: fmt.Sprintf("%s installs '%s', a verify callback that returns 1 for every certificate: any certificate is accepted", h.Word, cb)}
			tlsGuarded(call, &f)
			p.Report(f)
		}
	}
}

// tlsReportMode reports a set-verify call whose mode is "none", lowering
// it for server-only files and conditional code.
func tlsReportMode(p *checkers.Pass, call syntax.Node, name string, mode syntax.Node) {
	f := checkers.Finding{Rule: ruleTLSNoVerify, Span: checkers.NodeSpan(call),
		Message: fmt.Sprintf("%s sets %s: the peer's certificate is not verified, so anyone can impersonate it", name, shortText(mode))}
	switch tlsFileRole(p) {
	case "server":
		f.Adjust -= 0.35
		f.Severity = issue.SeverityLow
		f.Message = fmt.Sprintf("%s sets %s in server code: client certificates are not requested or not checked", name, shortText(mode))
	case "both":
		f.Adjust -= 0.1
	}
	tlsGuarded(call, &f)
	p.Report(f)
}

// checkTLSCurl reports curl_easy_setopt(h, CURLOPT_SSL_VERIFYPEER, 0L)
// and its kin, through any setopt wrapper (the option is distinctive).
func checkTLSCurl(p *checkers.Pass, h checkers.Hit, what string) {
	call := cryptoArgOf(h.Node)
	if !call.Valid() || cryptoArgIndex(h.Node) != 1 || len(Args(call)) != 3 {
		return
	}
	if !tlsZero(p, Arg(call, 2)) {
		return
	}
	f := checkers.Finding{Rule: ruleTLSNoVerify, Span: checkers.NodeSpan(call),
		Message: fmt.Sprintf("%s sets %s to %s: the %s is not verified, so a man in the middle can read and alter the traffic", CalleeName(call), h.Word, shortText(Arg(call, 2)), what)}
	tlsGuarded(call, &f)
	p.Report(f)
}

// cryptoArgIndex returns the position of argument n in its call's
// argument list, or -1.
func cryptoArgIndex(n syntax.Node) int {
	al := n.Parent()
	if al.Kind() != "argument_list" {
		return -1
	}
	for i, a := range Args(al.Parent()) {
		if a.Index() == n.Index() {
			return i
		}
	}
	return -1
}

// tlsModeNone reports whether a verify-mode argument is "none": the
// constant, a literal 0, or a variable whose every reaching value is.
// A conditional expression (verifypeer ? SSL_VERIFY_PEER : SSL_VERIFY_NONE)
// is a configuration choice, not a hard-coded "off".
func tlsModeNone(p *checkers.Pass, e syntax.Node) bool {
	e = Uncast(e)
	if e.Kind() == "identifier" && tlsNoneModes[e.Text()] {
		return true
	}
	return tlsZero(p, e)
}

// tlsZero reports whether e is 0 / FALSE, or a local variable all of
// whose reaching definitions are.
func tlsZero(p *checkers.Pass, e syntax.Node) bool {
	e = Uncast(e)
	switch e.Kind() {
	case "number_literal", "false":
		v, ok := IntValue(e, nil)
		return e.Kind() == "false" || ok && v == 0
	case "identifier":
		switch e.Text() {
		case "FALSE", "false", "SSL_VERIFY_NONE", "WOLFSSL_VERIFY_NONE", "MBEDTLS_SSL_VERIFY_NONE":
			return true
		}
		if tlsConstName(e.Text()) {
			return false
		}
		return cryptoAllValues(p, e, func(v syntax.Node) bool {
			v = Uncast(v)
			n, ok := IntValue(v, nil)
			return ok && n == 0 || v.Kind() == "false" || v.Kind() == "identifier" && (v.Text() == "FALSE" || tlsNoneModes[v.Text()])
		})
	}
	return false
}

// cryptoAllValues reports whether a local variable has at least one value
// reaching id and every one satisfies ok (a parameter or a value set by a
// call never does).
func cryptoAllValues(p *checkers.Pass, id syntax.Node, ok func(syntax.Node) bool) bool {
	fn := EnclosingFunction(id)
	if !fn.Valid() {
		return false
	}
	v := FuncScope(p, fn).Lookup(id.Text(), id)
	if v == nil || v.Param || v.Global {
		return false
	}
	defs := Defs(p, fn).Reaching(id.Text(), id)
	if len(defs) == 0 {
		return v.Init.Valid() && ok(v.Init)
	}
	for _, d := range defs {
		if d.Kind != DefAssign || !ok(d.Value) || d.Node.Kind() == "assignment_expression" && BinaryOp(d.Node) != "=" {
			return false
		}
	}
	return true
}

// tlsGuarded lowers a finding whose call runs only under a condition
// (an option such as curl's --insecure): the condition is named in the
// message.
func tlsGuarded(call syntax.Node, f *checkers.Finding) {
	if cond := cryptoGuard(call); cond.Valid() {
		f.Adjust -= 0.25
		f.Message += fmt.Sprintf(" (only when '%s')", shortText(cond))
	}
}

// cryptoGuard returns the condition of the nearest if, switch or ?: in
// the function that decides whether call runs, or the zero Node. A test
// of the handle the call configures (if (curl) …) decides nothing.
func cryptoGuard(call syntax.Node) syntax.Node {
	handle := rootName(PathOf(Arg(call, 0)))
	for a := call.Parent(); a.Valid(); a = a.Parent() {
		var c syntax.Node
		switch a.Kind() {
		case "function_definition", "lambda_expression":
			return syntax.Node{}
		case "if_statement", "switch_statement":
			if !a.Field("condition").Contains(call) {
				c = Condition(a)
			}
		case "conditional_expression":
			if !a.Field("condition").Contains(call) {
				c = a.Field("condition")
			}
		}
		if _, constant := IntValue(c, nil); c.Valid() && !constant && !cryptoMentions(c, handle) {
			return c
		}
	}
	return syntax.Node{}
}

// cryptoMentions reports whether the identifier name occurs in n.
func cryptoMentions(n syntax.Node, name string) bool {
	found := false
	n.Walk(func(m syntax.Node) bool {
		found = found || m.Kind() == "identifier" && m.Text() == name
		return !found
	})
	return name != "" && found
}

// tlsRoleKey memoizes tlsFileRole per file.
type tlsRoleKey struct{}

// tlsFileRole says whether the file's TLS code is a server's, a client's,
// "both" or unknown (""), from the API names its code uses.
func tlsFileRole(p *checkers.Pass) string {
	return checkers.Memo(p, tlsRoleKey{}, func() string {
		server, client := false, false
		for i, t := range p.Lex.Tokens {
			if t.Kind != checkers.TokIdent {
				continue
			}
			w := p.Lex.Text(i)
			server = server || tlsServerMarkers[w]
			client = client || tlsClientMarkers[w]
		}
		switch {
		case server && client:
			return "both"
		case server:
			return "server"
		case client:
			return "client"
		}
		return ""
	})
}

// tlsAlwaysAccepts reports whether the file defines a function named cb
// whose every return statement returns the literal 1 (or true): a verify
// callback that ignores preverify_ok. It reads tokens, since the callback
// is usually in an item that was not parsed.
func tlsAlwaysAccepts(lx *checkers.Lexed, cb string) bool {
	for _, it := range lx.Items {
		open := -1
		for i := it.TokStart; i+1 < it.TokEnd; i++ {
			if lx.Is(i, cb) && lx.Is(i+1, "(") {
				if c := lx.Close(i + 1); c > 0 && c+1 < it.TokEnd && lx.Is(c+1, "{") {
					open = c + 1
				}
				break
			}
		}
		if open < 0 {
			continue
		}
		end := lx.Close(open)
		returns := 0
		for i := open; i < end; i++ {
			if !lx.Is(i, "return") {
				continue
			}
			returns++
			v := lx.Text(i + 1)
			if !(v == "1" || v == "true" || v == "TRUE") || !lx.Is(i+2, ";") {
				return false
			}
		}
		return returns > 0
	}
	return false
}
