package c

import (
	"strings"
	"unicode"
)

// Names that denote secrets. The crypto family (hard-coded credentials,
// insecure randomness) decides from an identifier's word parts, never from
// substrings: "monkey" holds no key and "tokenizer" no token.

// secretWords splits an identifier into lower-case word parts at
// underscores, hyphens, dots and camelCase boundaries: "szAPIKey" →
// [sz api key], "db_password" → [db password], "m_pAuthToken" → [m p auth
// token].
func secretWords(name string) []string {
	var parts []string
	var cur []rune
	flush := func() {
		if len(cur) > 0 {
			parts = append(parts, strings.ToLower(string(cur)))
			cur = cur[:0]
		}
	}
	rs := []rune(name)
	for i, r := range rs {
		switch {
		case r == '_' || r == '-' || r == '.' || r == ' ' || r == ':' || r == '/':
			flush()
			continue
		case unicode.IsUpper(r) && i > 0:
			prev := rs[i-1]
			nextLower := i+1 < len(rs) && unicode.IsLower(rs[i+1])
			if unicode.IsLower(prev) || unicode.IsDigit(prev) && len(cur) > 1 || unicode.IsUpper(prev) && nextLower {
				flush()
			}
		}
		cur = append(cur, r)
	}
	flush()
	return parts
}

// secretTail are trailing parts that say how a secret is stored, not
// what it is: password_str, apiKeyValue, secret_buf.
var secretTail = map[string]bool{
	"str": true, "string": true, "buf": true, "buffer": true, "val": true, "value": true, "text": true,
	"txt": true, "plain": true, "plaintext": true, "clear": true, "raw": true, "default": true, "dflt": true,
	"def": true, "literal": true, "lit": true, "const": true, "w": true, "a": true,
}

// strongSecret are head words that name a credential on their own.
var strongSecret = map[string]bool{
	"password": true, "passwd": true, "passphrase": true, "passcode": true, "secret": true,
	"credential": true, "credentials": true, "apikey": true, "privkey": true, "privatekey": true,
	"secretkey": true, "accesskey": true, "authtoken": true, "accesstoken": true, "pswd": true,
	"passwort": true, "psk": true,
}

// secretQualifiers turn a generic head word (key, token, pass) into a
// credential: api_key, auth_token, db_pass.
var secretQualifiers = map[string]map[string]bool{
	"key": {"api": true, "private": true, "priv": true, "secret": true, "access": true, "encryption": true,
		"enc": true, "master": true, "signing": true, "hmac": true, "aes": true, "crypt": true, "crypto": true,
		"shared": true, "session": true, "auth": true, "license": true},
	"token": {"auth": true, "access": true, "api": true, "bearer": true, "refresh": true, "oauth": true,
		"session": true, "csrf": true, "secret": true, "security": true, "github": true, "slack": true, "jwt": true},
	"pass": {"db": true, "user": true, "admin": true, "root": true, "mysql": true, "ftp": true, "smtp": true,
		"proxy": true, "login": true, "auth": true, "http": true, "sql": true, "redis": true, "mail": true,
		"imap": true, "pop": true, "ldap": true, "default": true, "master": true},
	"pw":  {"db": true, "user": true, "admin": true, "root": true, "login": true},
	"pin": {"sim": true, "user": true, "admin": true, "card": true},
}

// weakSecret are head words that may name a credential but often do not
// (a lexer's token, the working directory): a literal assigned to them
// must look like a credential before jsec reports it.
var weakSecret = map[string]bool{"token": true, "pwd": true}

// secretStrength says how surely a name denotes a credential.
type secretStrength int

const (
	secretNone secretStrength = iota
	secretWeak
	secretStrong
)

// credentialName classifies a variable, field or parameter name for the
// hard-coded-credential rule: the head word (the last part, after storage
// suffixes such as _str) must name a credential. password_file,
// token_type and secret_len name something else.
func credentialName(name string) secretStrength {
	parts := secretWords(name)
	for len(parts) > 1 && secretTail[parts[len(parts)-1]] {
		parts = parts[:len(parts)-1]
	}
	if len(parts) == 0 {
		return secretNone
	}
	head := parts[len(parts)-1]
	if strongSecret[head] {
		return secretStrong
	}
	if len(parts) > 1 {
		if q := secretQualifiers[head]; q != nil && q[parts[len(parts)-2]] {
			return secretStrong
		}
	}
	if weakSecret[head] {
		return secretWeak
	}
	return secretNone
}

// randomSecretWords are the parts that make a name a security value for
// the insecure-randomness rule; the weak ones (key, session) are common
// in hash tables and simulations, so findings on them get less confidence.
var randomSecretWords = map[string]secretStrength{
	"token": secretStrong, "nonce": secretStrong, "salt": secretStrong, "password": secretStrong,
	"passwd": secretStrong, "secret": secretStrong, "iv": secretStrong, "otp": secretStrong,
	"challenge": secretStrong, "csrf": secretStrong, "passphrase": secretStrong, "cookie": secretStrong,
	"apikey": secretStrong, "privkey": secretStrong, "sessionid": secretStrong, "sid": secretStrong,
	"key": secretWeak, "session": secretWeak, "keys": secretWeak,
}

// metaTail are head words that make a name describe a secret rather than
// hold one: key_count, token_len, session_timeout, nonce_size.
var metaTail = map[string]bool{
	"count": true, "cnt": true, "len": true, "length": true, "size": true, "sz": true, "num": true,
	"idx": true, "index": true, "max": true, "min": true, "pos": true, "offset": true, "off": true,
	"time": true, "timeout": true, "delay": true, "interval": true, "type": true, "slot": true,
	"bucket": true, "shard": true, "space": true, "bits": true, "n": true, "nr": true,
	"limit": true, "ttl": true, "age": true, "expire": true, "expiry": true, "name": true, "file": true,
	"path": true, "prefix": true, "suffix": true, "fmt": true, "format": true, "flags": true, "mode": true,
}

// randomSecretName reports whether a name denotes a security value for
// the insecure-randomness rule, and how surely.
func randomSecretName(name string) secretStrength {
	parts := secretWords(name)
	if len(parts) == 0 || metaTail[parts[len(parts)-1]] {
		return secretNone
	}
	best := secretNone
	for _, w := range parts {
		if s := randomSecretWords[w]; s > best {
			best = s
		}
	}
	if best == secretWeak && credentialName(name) == secretStrong {
		best = secretStrong // session_key, api_key
	}
	return best
}
