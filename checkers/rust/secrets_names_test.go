package rust

import (
	"slices"
	"testing"
)

func TestSecWords(t *testing.T) {
	for in, want := range map[string][]string{
		"API_KEY":       {"api", "key"},
		"clientSecret":  {"client", "secret"},
		"HTTPToken":     {"http", "token"},
		"db_password2":  {"db", "password2"},
		"monkey":        {"monkey"},
		"x-auth-token":  {"x", "auth", "token"},
		"AccessKeyID":   {"access", "key", "id"},
		"refresh_token": {"refresh", "token"},
	} {
		if got := secWords(in); !slices.Equal(got, want) {
			t.Errorf("secWords(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestSecNameWord(t *testing.T) {
	for _, c := range []struct {
		name  string
		field bool
		want  string
	}{
		{"API_KEY", false, "api_key"},
		{"DB_PASSWORD", false, "password"},
		{"clientSecret", false, "secret"},
		{"token", false, "token"},
		{"token", true, ""},
		{"access_token", true, "access_token"},
		{"key", false, ""},
		{"monkey_key", false, ""},
		{"keyboard", false, ""},
		{"PASSWORD_PROMPT", false, ""},
		{"api_key_env", false, ""},
		{"password_len", false, ""},
		{"has_password", false, ""},
		{"signing_key", true, "signing_key"},
	} {
		if got := secNameWord(c.name, c.field); got != c.want {
			t.Errorf("secNameWord(%q, %v) = %q, want %q", c.name, c.field, got, c.want)
		}
	}
}

func TestSecValue(t *testing.T) {
	for v, want := range map[string]bool{
		"hunter2hunter2":                        true,
		"AKIAIOSF0DNN7QWERT12":                  true,
		"postgres://app:pw12345@db/app":         true,
		"SERVICE_API_KEY":                       false,
		"x-auth-token":                          false,
		"access_token":                          false,
		"changeme123":                           false,
		"Enter your password":                   false,
		"{}:{}":                                 false,
		"/etc/app/secret.key":                   false,
		"short":                                 false,
		"aaaaaaaaaaaa":                          false,
		"https://example.com/oauth/token":       false,
		"-----BEGIN RSA PRIVATE KEY-----\nMIIE": true,
	} {
		if got, _ := secValue(v); got != want {
			t.Errorf("secValue(%q) = %v, want %v", v, got, want)
		}
	}
}

func TestInjInlineArgs(t *testing.T) {
	got := injInlineArgs(`"SELECT {a} FROM {{t}} WHERE x = {b:?} AND {0} {}"`)
	if want := []string{"a", "b"}; !slices.Equal(got, want) {
		t.Errorf("injInlineArgs = %q, want %q", got, want)
	}
}
