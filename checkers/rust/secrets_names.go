package rust

import (
	"math"
	"strings"

	"github.com/jsec/jsec/checkers"
)

// This file decides which names denote secrets. A name is split into
// its snake_case and camelCase words; a secret word must be one of them
// (so "key" inside "monkey" or "keyboard" never counts, and neither does
// "key" alone in a map), and words that describe a secret's metadata
// (password_len, token_url, api_key_env) rule the name out.

// secWords splits an identifier into lower-case words: API_KEY → api key,
// clientSecret → client secret, HTTPToken → http token.
func secWords(name string) []string {
	var out []string
	var cur []rune
	rs := []rune(name)
	flush := func() {
		if len(cur) > 0 {
			out = append(out, strings.ToLower(string(cur)))
			cur = cur[:0]
		}
	}
	for i, r := range rs {
		switch {
		case r == '_' || r == '-' || r == '.':
			flush()
			continue
		case r >= 'A' && r <= 'Z' && i > 0:
			prevLower := rs[i-1] >= 'a' && rs[i-1] <= 'z' || rs[i-1] >= '0' && rs[i-1] <= '9'
			nextLower := i+1 < len(rs) && rs[i+1] >= 'a' && rs[i+1] <= 'z'
			prevUpper := rs[i-1] >= 'A' && rs[i-1] <= 'Z'
			if prevLower || prevUpper && nextLower {
				flush()
			}
		}
		cur = append(cur, r)
	}
	flush()
	return out
}

// secSingle are words that name a secret on their own.
var secSingle = map[string]bool{
	"password": true, "passwd": true, "passphrase": true, "secret": true, "apikey": true,
	"privkey": true, "credential": true, "credentials": true, "secretkey": true,
}

// secKeyQualifiers make "key" a secret: api_key, private_key …
var secKeyQualifiers = map[string]bool{
	"api": true, "private": true, "secret": true, "signing": true, "master": true, "encryption": true,
	"decryption": true, "session": true, "hmac": true, "aes": true, "shared": true, "symmetric": true,
	"access": true, "auth": true, "client": true, "jwt": true, "app": true,
}

// secTokenQualifiers make "token" a secret in field names: access_token …
var secTokenQualifiers = map[string]bool{
	"access": true, "auth": true, "refresh": true, "api": true, "bearer": true, "session": true,
	"csrf": true, "id": true, "oauth": true, "github": true, "gitlab": true, "slack": true, "jwt": true,
	"personal": true, "secret": true, "app": true, "bot": true,
}

// secMeta are words that make a name describe a secret rather than hold
// it.
var secMeta = map[string]bool{
	"len": true, "length": true, "size": true, "count": true, "type": true, "kind": true, "name": true,
	"file": true, "path": true, "url": true, "uri": true, "env": true, "var": true, "header": true,
	"field": true, "id": true, "prefix": true, "suffix": true, "label": true, "hint": true, "prompt": true,
	"placeholder": true, "regex": true, "re": true, "pattern": true, "format": true, "fmt": true,
	"message": true, "msg": true, "error": true, "err": true, "column": true, "col": true, "param": true,
	"query": true, "endpoint": true, "separator": true, "delim": true, "max": true, "min": true,
	"dir": true, "help": true, "desc": true, "description": true, "doc": true, "title": true,
	"template": true, "hash": true, "hashed": true, "digest": true, "policy": true, "rule": true,
	"expiry": true, "expires": true, "ttl": true, "timeout": true, "lifetime": true, "mode": true,
	"enabled": true, "required": true, "attempts": true, "provider": true, "store": true,
	"manager": true, "cache": true, "handler": true, "callback": true, "input": true, "char": true,
	"chars": true, "flag": true, "option": true, "opt": true, "arg": true, "location": true,
	"source": true, "loader": true, "reader": true, "command": true, "cmd": true, "validator": true,
	"strength": true, "reset": true, "changed": true, "set": true, "is": true, "has": true, "use": true,
	"show": true, "no": true, "with": true, "kdf": true, "salt": true, "rounds": true, "iterations": true,
	"bits": true, "offset": true, "index": true, "idx": true, "ref": true, "tag": true, "scope": true,
	"scopes": true, "span": true, "sep": true, "start": true, "end": true, "stream": true, "tree": true,
	"parser": true, "lexer": true, "node": true, "list": true, "map": true,
}

// secNameWord returns the secret word a name holds, or "". In field mode
// "token" needs a qualifier (access_token), because lexers and parsers
// have plain token fields.
func secNameWord(name string, field bool) string {
	ws := secWords(name)
	found := ""
	for i, w := range ws {
		if secMeta[w] {
			return ""
		}
		prev := ""
		if i > 0 {
			prev = ws[i-1]
		}
		switch {
		case secSingle[w]:
			found = w
		case w == "key" && secKeyQualifiers[prev]:
			found = prev + "_key"
		case w == "token" && (!field || secTokenQualifiers[prev]):
			found = strings.TrimPrefix(prev+"_token", "_")
		case w == "pwd" && len(ws) > 1:
			found = "pwd"
		}
	}
	return found
}

// secRandWords are the words that make a value produced by an RNG a
// secret: tokens, nonces, salts, keys (as a whole word), passwords,
// session ids, one-time codes, IVs.
var secRandWords = map[string]bool{
	"token": true, "nonce": true, "salt": true, "key": true, "password": true, "passwd": true,
	"secret": true, "otp": true, "iv": true, "csrf": true, "apikey": true, "passphrase": true,
	"challenge": true, "pin": true,
}

// secRandName returns the secret word of a name that receives random
// data, or "".
func secRandName(name string) string {
	ws := secWords(name)
	for i, w := range ws {
		if secRandWords[w] {
			return w
		}
		if w == "id" && i > 0 && ws[i-1] == "session" {
			return "session_id"
		}
	}
	return ""
}

var (
	secEnvNameRE    = checkers.LazyRegexp(`^([A-Z]+|[A-Z][A-Z0-9]*(_[A-Z0-9]+)+)$`)
	secIdentRE      = checkers.LazyRegexp(`^[a-z][a-z0-9]*([_.:-][a-z0-9]+)+$`)
	secKnownFormats = checkers.LazyRegexp(`^(AKIA[0-9A-Z]{16}|ASIA[0-9A-Z]{16}|gh[pousr]_[A-Za-z0-9]{30,}|github_pat_\w{20,}|xox[abprs]-[\w-]{10,}|sk_live_\w{10,}|sk-[A-Za-z0-9_-]{20,}|AIza[\w-]{30,}|glpat-[\w-]{20})`)
	secUserinfoRE   = checkers.LazyRegexp(`^[a-z][a-z0-9+.-]*://[^/\s:@]+:[^/\s@]+@`)
)

// secValue judges a string literal assigned to a secret name: whether it
// looks like a real secret (not a placeholder, an environment variable
// name, a header or field name, a format string, a path or URL), and how
// strongly.
func secValue(v string) (ok bool, adjust float64) {
	if secUserinfoRE().MatchString(v) {
		return true, 0.1 // credentials inside a URL
	}
	if strings.Contains(v, "-----BEGIN") && strings.Contains(v, "PRIVATE KEY") {
		return true, 0.15
	}
	if secKnownFormats().MatchString(v) && !strings.Contains(strings.ToLower(v), "example") {
		return true, 0.15
	}
	if len(v) < 8 || strings.ContainsAny(v, " \t\n") || secEnvNameRE().MatchString(v) || secIdentRE().MatchString(v) {
		return false, 0
	}
	low := strings.ToLower(v)
	for _, p := range []string{"example", "changeme", "change_me", "placeholder", "xxxx", "****", "your_", "your-", "<", "${", "{{", "{}", "%s", "dummy", "redacted", "todo", "insert", "replace"} {
		if strings.Contains(low, p) {
			return false, 0
		}
	}
	if strings.HasPrefix(v, "/") || strings.HasPrefix(v, "./") || strings.Contains(v, "://") || strings.HasSuffix(low, ".pem") || strings.HasSuffix(low, ".key") || strings.HasSuffix(low, ".json") {
		return false, 0
	}
	if strings.Count(v, v[:1]) == len(v) {
		return false, 0 // "aaaaaaaa", "00000000"
	}
	if len(v) >= 16 && secEntropy(v) >= 3.5 {
		return true, 0.1
	}
	return true, 0
}

// secEntropy is the Shannon entropy of s in bits per character.
func secEntropy(s string) float64 {
	var counts [256]int
	for i := 0; i < len(s); i++ {
		counts[s[i]]++
	}
	h := 0.0
	for _, c := range counts {
		if c > 0 {
			p := float64(c) / float64(len(s))
			h -= p * math.Log2(p)
		}
	}
	return h
}
