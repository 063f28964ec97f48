package c

import (
	"slices"
	"testing"
)

func TestSecretWords(t *testing.T) {
	cases := map[string][]string{
		"db_password":  {"db", "password"},
		"szAPIKey":     {"sz", "api", "key"},
		"m_pAuthToken": {"m", "p", "auth", "token"},
		"tokenizer":    {"tokenizer"},
		"X-Api-Key":    {"x", "api", "key"},
		"Pa55worD":     {"pa55wor", "d"},
		"sha256Ctx":    {"sha256", "ctx"},
	}
	for in, want := range cases {
		if got := secretWords(in); !slices.Equal(got, want) {
			t.Errorf("secretWords(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestCredentialName(t *testing.T) {
	cases := map[string]secretStrength{
		"password": secretStrong, "db_password": secretStrong, "passwordStr": secretStrong,
		"apiKey": secretStrong, "API_KEY": secretStrong, "private_key": secretStrong, "auth_token": secretStrong,
		"db_pass": secretStrong, "kClientSecret": secretStrong, "m_password": secretStrong,
		"token": secretWeak, "pwd": secretWeak,
		"password_file": secretNone, "token_type": secretNone, "secret_len": secretNone, "key": secretNone,
		"hash_key": secretNone, "monkey": secretNone, "bypass": secretNone, "first_pass": secretNone,
	}
	for in, want := range cases {
		if got := credentialName(in); got != want {
			t.Errorf("credentialName(%q) = %d, want %d", in, got, want)
		}
	}
}

func TestRandomSecretName(t *testing.T) {
	cases := map[string]secretStrength{
		"token": secretStrong, "csrf_token": secretStrong, "sessionNonce": secretStrong, "iv": secretStrong,
		"salt": secretStrong, "session_key": secretStrong,
		"key": secretWeak, "session_id": secretWeak,
		"monkey": secretNone, "key_count": secretNone, "token_len": secretNone, "div": secretNone,
		"keyspace": secretNone, "jitter": secretNone,
	}
	for in, want := range cases {
		if got := randomSecretName(in); got != want {
			t.Errorf("randomSecretName(%q) = %d, want %d", in, got, want)
		}
	}
}

func TestSecretPlausible(t *testing.T) {
	cases := []struct {
		s        string
		strength secretStrength
		want     bool
	}{
		{"Tr0ub4dor&3", secretStrong, true},
		{"hunter22", secretStrong, true},
		{"changeme", secretStrong, true},
		{"", secretStrong, false},
		{"12345", secretStrong, false},
		{"******", secretStrong, false},
		{"Password: ", secretStrong, false},
		{"%s:%s", secretStrong, false},
		{"/etc/app/secret", secretStrong, false},
		{"server.key", secretStrong, false},
		{"https://example.com/login", secretStrong, false},
		{"<password>", secretStrong, false},
		{"DB_PASSWORD", secretStrong, false},
		{"api_key", secretStrong, false},
		{"X-Api-Key", secretStrong, false},
		{"identifier", secretWeak, false},
		{"ghp_16C7e42F292c6912E7710c838347Ae178B4a", secretWeak, true},
	}
	for _, c := range cases {
		if got := secretPlausible(c.s, c.strength, 6, true); got != c.want {
			t.Errorf("secretPlausible(%q, %d) = %v, want %v", c.s, c.strength, got, c.want)
		}
	}
}
