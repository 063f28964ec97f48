package c

import (
	"fmt"
	"strings"
	"unicode"

	"github.com/jsec/jsec/checkers"
	"github.com/jsec/jsec/checkers/syntax"
)

// Hard-coded credentials: a string literal stored in a variable or field
// whose name is a credential (db_password, apiKey, auth_token), compared
// with one (strcmp(password, "letmein")), or passed where a known API
// takes a password (mysql_real_connect, CURLOPT_PASSWORD …).

// secretKind says how a trigger word is checked.
type secretKind int

const (
	secretDecl     secretKind = iota + 1 // a declaration's type: char, std::string
	secretVarName                        // a credential name: password, api_key
	secretCompare                        // strcmp-style comparison
	secretAPI                            // an API that takes a password argument
	secretCurlOpt                        // a libcurl credential option
	secretConnInfo                       // a connection string with password=
)

// secretAPIs maps APIs to the argument that holds the password.
var secretAPIs = map[string]int{
	"mysql_real_connect": 3, "mysql_change_user": 2, "PQsetdbLogin": 6, "ldap_simple_bind_s": 2,
	"ldap_simple_bind": 2, "ldap_bind_s": 2, "ldap_bind": 2, "sqlite3_key": 1, "sqlite3_key_v2": 2,
	"sqlite3_rekey": 1, "libssh2_userauth_password": 2, "ssh_userauth_password": 2, "PKCS12_parse": 1,
	"PEM_read_bio_PrivateKey": 3, "PEM_read_PrivateKey": 3, "SSL_CTX_set_default_passwd_cb_userdata": 1,
	"mbedtls_pk_parse_keyfile": 2,
}

// secretCurlOpts are libcurl options whose value is a credential.
var secretCurlOpts = map[string]bool{
	"CURLOPT_PASSWORD": true, "CURLOPT_PROXYPASSWORD": true, "CURLOPT_USERPWD": true, "CURLOPT_PROXYUSERPWD": true,
	"CURLOPT_KEYPASSWD": true, "CURLOPT_SSLKEYPASSWD": true, "CURLOPT_PROXY_KEYPASSWD": true,
	"CURLOPT_TLSAUTH_PASSWORD": true, "CURLOPT_PROXY_TLSAUTH_PASSWORD": true, "CURLOPT_XOAUTH2_BEARER": true,
}

// secretCompares compare strings or memory.
var secretCompares = map[string]bool{
	"strcmp": true, "strncmp": true, "strcasecmp": true, "strncasecmp": true, "wcscmp": true, "_stricmp": true,
	"stricmp": true, "strcmpi": true, "_strcmpi": true, "lstrcmp": true, "lstrcmpi": true, "g_strcmp0": true,
	"memcmp": true, "_mbscmp": true, "wcsncmp": true,
}

// secretDeclTypes start declarations that may hold a literal credential.
var secretDeclTypes = []string{"char", "wchar_t", "string", "wstring", "TCHAR", "WCHAR", "gchar", "CString", "QString", "LPCSTR", "LPCTSTR", "LPCWSTR"}

// secretConnCalls take a connection string that may hold password=….
var secretConnCalls = map[string]bool{"PQconnectdb": true, "PQconnectStart": true}

// secretNameBases are the credential names whose exact spellings are
// triggers, so that "x->password = \"…\"" and ".api_key = \"…\"" wake the
// checker; declarations of any name are found from their type.
var secretNameBases = [][]string{
	{"password"}, {"passwd"}, {"passphrase"}, {"secret"}, {"pwd"}, {"token"}, {"api", "key"}, {"apikey"},
	{"secret", "key"}, {"private", "key"}, {"access", "key"}, {"auth", "token"}, {"access", "token"},
	{"client", "secret"}, {"api", "token"}, {"api", "secret"}, {"app", "secret"}, {"bearer", "token"},
	{"refresh", "token"}, {"db", "password"}, {"db", "pass"}, {"admin", "password"}, {"root", "password"},
	{"user", "password"}, {"default", "password"}, {"master", "key"}, {"encryption", "key"}, {"credentials"},
}

// secretKinds maps every trigger word to how it is checked.
var secretKinds = func() map[string]secretKind {
	m := map[string]secretKind{}
	for _, t := range secretDeclTypes {
		m[t] = secretDecl
	}
	for _, b := range secretNameBases {
		for _, n := range secretSpellings(b) {
			m[n] = secretVarName
			m[n+"_"] = secretVarName
			m["m_"+n] = secretVarName
		}
	}
	for k := range secretCompares {
		m[k] = secretCompare
	}
	for k := range secretAPIs {
		m[k] = secretAPI
	}
	for k := range secretCurlOpts {
		m[k] = secretCurlOpt
	}
	for k := range secretConnCalls {
		m[k] = secretConnInfo
	}
	return m
}()

// secretSpellings renders a name in snake_case, UPPER_CASE, camelCase,
// PascalCase and run-together lower case.
func secretSpellings(words []string) []string {
	title := func(w string) string { return strings.ToUpper(w[:1]) + w[1:] }
	snake := strings.Join(words, "_")
	camel, pascal := words[0], ""
	for i, w := range words {
		pascal += title(w)
		if i > 0 {
			camel += title(w)
		}
	}
	return []string{snake, strings.ToUpper(snake), camel, pascal, strings.Join(words, "")}
}

// secretTriggers are the keys of secretKinds.
func secretTriggers() []string {
	out := make([]string, 0, len(secretKinds))
	for k := range secretKinds {
		out = append(out, k)
	}
	return out
}

// triageSecret keeps a trigger only when a string token sits where a
// credential would: after "<credential name> =", in the argument an API
// takes its password in, beside a credential name in a comparison.
func triageSecret(lx *checkers.Lexed, tok int) bool {
	switch secretKinds[lx.Text(tok)] {
	case secretDecl:
		return secretDeclTriage(lx, tok)
	case secretVarName:
		return lx.Is(tok+1, "=") && secretTokLen(lx, tok+2) >= 6
	case secretCompare:
		return secretCompareTriage(lx, tok)
	case secretAPI, secretConnInfo:
		args, ok := lx.CallArgs(tok)
		idx := secretAPIs[lx.Text(tok)] // 0 for the connection-string calls
		return ok && idx < len(args) && secretTokLen(lx, args[idx].Start) >= 1
	case secretCurlOpt:
		return lx.Is(tok-1, ",") && lx.Is(tok+1, ",") && secretTokLen(lx, tok+2) >= 1
	}
	return false
}

// secretTokLen returns the length of the text inside the quotes of the
// string tokens that start at token i (adjacent literals concatenate),
// or -1 when token i is not a string. It bounds the decoded length from
// above, so a literal it finds too short is too short.
func secretTokLen(lx *checkers.Lexed, i int) int {
	n := -1
	for ; lx.Kind(i) == checkers.TokString; i++ {
		text := lx.Text(i)
		q := strings.IndexByte(text, '"')
		if q < 0 {
			return n
		}
		n = max(n, 0) + max(len(text)-q-2, 0)
	}
	return n
}

// secretDeclTriage scans a declaration from its type to its ';' for
// "name = \"…\"", "name[] = \"…\"" or "name(\"…\")" with a credential name.
func secretDeclTriage(lx *checkers.Lexed, tok int) bool {
	depth := 0
	for i := tok + 1; i < len(lx.Tokens) && i < tok+400; i++ {
		// Switch on the byte of one-byte tokens: this scan runs to the end
		// of every declaration of a char or string type.
		switch b := lx.Byte(i); {
		case b == '(' || b == '[' || b == '{':
			if depth == 0 && b != '[' && secretTokLen(lx, i+1) >= 6 && lx.Kind(i-1) == checkers.TokIdent && credentialName(lx.Text(i-1)) != secretNone {
				return true // std::string password("…"), std::string token{"…"}
			}
			depth++
		case b == ')' || b == ']' || b == '}':
			depth--
			if depth < 0 {
				return false
			}
		case depth == 0 && b == ';':
			return false
		case depth == 0 && b == '=' && secretLiteralAssigned(lx, i):
			return true
		}
	}
	return false
}

// secretLiteralAssigned reports whether the "=" at token i assigns a
// string literal of six characters or more (alone or first in braces)
// to a declarator with a credential name (password = "…", key[] = {"…"}).
func secretLiteralAssigned(lx *checkers.Lexed, i int) bool {
	if secretTokLen(lx, i+1) < 6 && !(lx.Is(i+1, "{") && secretTokLen(lx, i+2) >= 6) {
		return false
	}
	j := i - 1
	if lx.Is(j, "]") {
		for j >= 0 && !lx.Is(j, "[") {
			j--
		}
		j--
	}
	return lx.Kind(j) == checkers.TokIdent && credentialName(lx.Text(j)) != secretNone
}

// secretCompareTriage: one of the first two arguments is a string literal
// and the other holds a credential name.
func secretCompareTriage(lx *checkers.Lexed, tok int) bool {
	args, ok := lx.CallArgs(tok)
	if !ok || len(args) < 2 {
		return false
	}
	isLit := func(a checkers.Span) bool { return a.Start < a.End && secretTokLen(lx, a.Start) >= 4 }
	named := func(a checkers.Span) bool {
		for i := a.Start; i < a.End; i++ {
			if lx.Kind(i) == checkers.TokIdent && credentialName(lx.Text(i)) != secretNone {
				return true
			}
		}
		return false
	}
	return isLit(args[0]) && named(args[1]) || isLit(args[1]) && named(args[0])
}

// checkSecret dispatches a trigger by its kind.
func checkSecret(p *checkers.Pass, h checkers.Hit) {
	switch secretKinds[h.Word] {
	case secretDecl:
		checkSecretDecl(p, h)
	case secretVarName:
		checkSecretName(p, h)
	case secretCompare:
		checkSecretCompare(p, h)
	case secretAPI:
		call, ok := CallAt(h)
		if !ok {
			return
		}
		secretReportArg(p, call, Arg(call, secretAPIs[h.Word]), h.Word+"() gets")
	case secretCurlOpt:
		if call := cryptoArgOf(h.Node); call.Valid() && cryptoArgIndex(h.Node) == 1 {
			secretReportArg(p, call, Arg(call, 2), fmt.Sprintf("%s(%s) gets", CalleeName(call), h.Word))
		}
	case secretConnInfo:
		checkSecretConnInfo(p, h)
	}
}

// checkSecretDecl looks at every declarator of the declaration whose type
// holds the hit.
func checkSecretDecl(p *checkers.Pass, h checkers.Hit) {
	decl := h.Node.Ancestor("declaration", "field_declaration")
	if !decl.Valid() || !decl.Field("type").Contains(h.Node) && decl.Field("type").Index() != h.Node.Index() {
		return
	}
	for d := range decl.NamedChildren() {
		switch {
		case d.Kind() == "init_declarator":
			secretReportValue(p, declIdent(d.Field("declarator")), d.Field("value"))
		case d.FieldName() == "default_value":
			secretReportValue(p, checkers.DeclaratorName(decl.Field("declarator")), d)
		}
	}
}

// checkSecretName handles "name = \"…\"" for a credential-named variable,
// field or designated initialiser.
func checkSecretName(p *checkers.Pass, h checkers.Hit) {
	n := h.Node
	lhs := n
	if n.Parent().Kind() == "field_expression" && n.Parent().Field("field").Index() == n.Index() {
		lhs = n.Parent()
	}
	parent := lhs.Parent()
	switch parent.Kind() {
	case "assignment_expression":
		if parent.Field("left").Index() == lhs.Index() && BinaryOp(parent) == "=" {
			secretReportValue(p, h.Word, parent.Field("right"))
		}
	case "field_designator":
		if pair := parent.Parent(); pair.Kind() == "initializer_pair" {
			secretReportValue(p, h.Word, pair.Field("value"))
		}
	case "init_declarator":
		if parent.Field("declarator").Index() == n.Index() {
			secretReportValue(p, h.Word, parent.Field("value"))
		}
	}
}

// checkSecretCompare handles strcmp(password, "literal").
func checkSecretCompare(p *checkers.Pass, h checkers.Hit) {
	call, ok := CallAt(h)
	if !ok {
		return
	}
	a, b := Arg(call, 0), Arg(call, 1)
	if IsStringLiteral(a) {
		a, b = b, a
	}
	if !IsStringLiteral(b) {
		return
	}
	name := rngPathName(a)
	strength := credentialName(name)
	s, _ := StringValue(b)
	if strength == secretNone || !secretPlausible(s, strength, 4, false) {
		return
	}
	f := checkers.Finding{Rule: ruleSecret, Span: checkers.NodeSpan(b),
		Message: fmt.Sprintf("'%s' is compared with a hard-coded credential (%s) by %s()", shortText(a), secretMask(s), h.Word)}
	secretAdjust(&f, s, strength)
	p.Report(f)
}

// checkSecretConnInfo handles PQconnectdb("… password=xyz …").
func checkSecretConnInfo(p *checkers.Pass, h checkers.Hit) {
	call, ok := CallAt(h)
	if !ok {
		return
	}
	arg := Arg(call, 0)
	s, ok := StringValue(arg)
	if !ok {
		return
	}
	for _, f := range strings.Fields(s) {
		k, v, found := strings.Cut(f, "=")
		if found && strings.EqualFold(k, "password") && strings.Trim(v, "'") != "" && !secretTemplate(v) {
			p.Report(checkers.Finding{Rule: ruleSecret, Span: checkers.NodeSpan(arg),
				Message: fmt.Sprintf("%s() gets a connection string with a hard-coded password (%s)", h.Word, secretMask(strings.Trim(v, "'")))})
			return
		}
	}
}

// secretReportValue reports a literal stored under a credential name.
func secretReportValue(p *checkers.Pass, name string, value syntax.Node) {
	value = Unparen(value)
	if value.Is("argument_list", "initializer_list") && value.NamedChildCount() == 1 {
		value = value.NamedChild(0)
	}
	strength := credentialName(name)
	s, ok := StringValue(value)
	if strength == secretNone || !ok || !secretPlausible(s, strength, 6, true) {
		return
	}
	f := checkers.Finding{Rule: ruleSecret, Span: checkers.NodeSpan(value),
		Message: fmt.Sprintf("'%s' holds a hard-coded credential (%s); anyone with the binary or the source has it", name, secretMask(s))}
	secretAdjust(&f, s, strength)
	p.Report(f)
}

// secretReportArg reports a literal passed where an API takes a password.
func secretReportArg(p *checkers.Pass, call, arg syntax.Node, what string) {
	s, ok := StringValue(arg)
	if !ok || s == "" || secretAllSame(s) || secretTemplate(s) {
		return
	}
	pw := s
	if strings.HasSuffix(what, "(CURLOPT_USERPWD) gets") || strings.HasSuffix(what, "(CURLOPT_PROXYUSERPWD) gets") {
		var found bool
		if _, pw, found = strings.Cut(s, ":"); !found || pw == "" || secretTemplate(pw) {
			return // "user" or "user:" carries no password
		}
	}
	f := checkers.Finding{Rule: ruleSecret, Span: checkers.NodeSpan(arg),
		Message: fmt.Sprintf("%s a hard-coded credential (%s)", what, secretMask(s))}
	switch {
	case secretPlaceholderWord(pw):
		f.Adjust = -0.25
		f.Message += "; it reads like a placeholder, but whoever copies this code ships it"
	case secretLooksRandom(s):
		f.Adjust = 0.1
	}
	p.Report(f)
}

// secretAdjust lowers findings on weak names and raises random-looking
// literals.
func secretAdjust(f *checkers.Finding, s string, strength secretStrength) {
	if strength == secretWeak {
		f.Adjust -= 0.1
	}
	if secretLooksRandom(s) && len(s) >= 10 {
		f.Adjust += 0.1
	}
}

// secretMask shows the first two characters and the length only.
func secretMask(s string) string {
	r := []rune(s)
	if len(r) <= 2 {
		return fmt.Sprintf("%d characters", len(r))
	}
	return fmt.Sprintf("\"%s…\", %d characters", string(r[:2]), len(r))
}

// secretPlausible decides whether a literal stored under (or compared
// with) a credential name is a credential and not a prompt, a format, a
// path, a URL, a file name, a placeholder or the name of a setting.
// Weak names (token, pwd) also need a literal that looks random.
func secretPlausible(s string, strength secretStrength, minLen int, nameCheck bool) bool {
	if len([]rune(s)) < minLen || secretAllSame(s) || secretTemplate(s) {
		return false
	}
	if strings.ContainsAny(s, " \t\r\n%") || strings.HasSuffix(s, ":") || strings.Contains(s, "://") {
		return false
	}
	if strings.HasPrefix(s, "/") || strings.HasPrefix(s, "./") || strings.HasPrefix(s, "../") ||
		strings.HasPrefix(s, "~/") || strings.HasPrefix(s, "\\") || len(s) > 2 && s[1] == ':' && s[2] == '\\' {
		return false
	}
	if i := strings.LastIndexByte(s, '.'); i > 0 && secretFileExt[strings.ToLower(s[i+1:])] {
		return false
	}
	if secretPlaceholders[strings.ToLower(s)] || secretEnvName(s) {
		return false
	}
	if nameCheck && secretIdentLike(s) && (credentialName(s) != secretNone || randomSecretName(s) != secretNone) {
		return false // "password", "api_key", "user.password": the name of a setting
	}
	if strength == secretWeak {
		return len(s) >= 8 && secretLooksRandom(s)
	}
	return true
}

// secretFileExt are extensions of key, certificate and config files: a
// literal ending in one is a file name.
var secretFileExt = map[string]bool{
	"pem": true, "key": true, "crt": true, "cer": true, "der": true, "p12": true, "pfx": true, "txt": true,
	"conf": true, "cfg": true, "json": true, "ini": true, "xml": true, "yml": true, "yaml": true, "db": true,
	"gpg": true, "asc": true, "jks": true, "keystore": true, "sqlite": true, "log": true, "so": true, "dll": true,
}

// secretPlaceholders are values that stand for "no credential".
var secretPlaceholders = map[string]bool{
	"redacted": true, "placeholder": true, "notused": true, "not_used": true, "disabled": true, "notset": true,
	"not_set": true, "undefined": true, "example": true, "unknown": true, "(null)": true, "(none)": true,
	"invalid": true, "missing": true, "hidden": true, "masked": true, "anonymous": true, "none": true,
	"null": true, "nil": true, "empty": true, "unset": true,
}

// secretPlaceholderWord: the literal is a credential word itself
// ("secret", "password", "passwd", "changeme"), the placeholder of
// example code.
func secretPlaceholderWord(s string) bool {
	l := strings.ToLower(s)
	for _, r := range l {
		if !(r >= 'a' && r <= 'z' || r == '_' || r == '-') {
			return false
		}
	}
	return credentialName(l) != secretNone || l == "changeme" || l == "pass" || l == "foobar" || l == "xxx"
}

// secretTemplate reports placeholders that cannot be a working value:
// "<password>", "${TOKEN}", "{{secret}}", "$(PASS)".
func secretTemplate(s string) bool {
	return strings.Contains(s, "${") || strings.Contains(s, "{{") || strings.Contains(s, "$(") ||
		strings.HasPrefix(s, "<") && strings.HasSuffix(s, ">") || strings.HasPrefix(s, "%") && len(s) <= 3
}

// secretAllSame: "******", "xxxxxx".
func secretAllSame(s string) bool {
	for i := 1; i < len(s); i++ {
		if s[i] != s[0] {
			return false
		}
	}
	return true
}

// secretEnvName: "DB_PASSWORD_FILE", "MYAPP_TOKEN" — the name of an
// environment variable, not its value.
func secretEnvName(s string) bool {
	if !strings.Contains(s, "_") {
		return false
	}
	for _, r := range s {
		if !(r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_') {
			return false
		}
	}
	return true
}

// secretIdentLike: letters and the separators _ . - only (no digits, no
// symbols): together with a credential word, the name of a setting or
// header ("api_key", "user.password", "X-Api-Key"), not its value.
func secretIdentLike(s string) bool {
	for _, r := range s {
		if !(unicode.IsLetter(r) || r == '_' || r == '.' || r == '-') {
			return false
		}
	}
	return true
}

// secretLooksRandom: at least two of lower case, upper case, digits and
// symbols other than the separators - _ .
func secretLooksRandom(s string) bool {
	var lower, upper, digit, sym int
	for _, r := range s {
		switch {
		case unicode.IsLower(r):
			lower = 1
		case unicode.IsUpper(r):
			upper = 1
		case unicode.IsDigit(r):
			digit = 1
		case r != '-' && r != '_' && r != '.':
			sym = 1
		}
	}
	return lower+upper+digit+sym >= 2
}
