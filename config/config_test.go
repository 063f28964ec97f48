package config

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/jsec/jsec/issue"
	"github.com/jsec/jsec/rules"
)

func ptr[T any](v T) *T { return &v }

// TestExample loads example.jsec.yml and checks every field against what
// the file says, and that no field of the schema is left out of it.
func TestExample(t *testing.T) {
	c, err := Load("example.jsec.yml")
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Warnings) > 0 {
		t.Errorf("warnings: %v", c.Warnings)
	}
	want := &Config{
		Path: "example.jsec.yml", Version: 1,
		Include:       []string{"src/", "lib/**/*.c", "!src/generated/"},
		Exclude:       []string{"tests/", "*.gen.c"},
		Languages:     []string{"c", "cpp", "rust"},
		FailOn:        ptr(issue.SeverityHigh),
		MinConfidence: ptr(0.5), MaxFileSize: ptr(int64(10 << 20)), Jobs: ptr(8),
		Rules: Rules{
			Disable: []string{"c.api.*", "rust.panic.unwrap"},
			Enable:  []string{"c.*", "cpp.*", "rust.*", "custom.*"},
			Severity: map[string]issue.Severity{
				"c.random.*": issue.SeverityLow, "c.buffer.strcpy": issue.SeverityCritical, "custom.acme.raw-query": issue.SeverityMedium,
			},
		},
		LLM: LLM{
			Provider: ptr("openai"), BaseURL: ptr("http://localhost:11434/v1"), Model: ptr("qwen2.5-coder:32b"),
			Timeout: ptr(2 * time.Minute), ToolProtocol: ptr("native"),
		},
		Verify: Verify{
			MinSeverity: ptr(issue.SeverityMedium), MaxCandidates: ptr(500), MaxTurns: ptr(8), MaxTokens: ptr(2000000),
			CandidateTimeout: ptr(10 * time.Minute), MaskSecrets: ptr(true), AllowPolicyDismiss: ptr(false),
		},
	}
	if len(c.Custom) != 2 {
		t.Fatalf("custom rules: %d, want 2", len(c.Custom))
	}
	raw, token := c.Custom[0], c.Custom[1]
	wantRaw := &rules.Rule{
		ID: "custom.acme.raw-query", Title: "Raw SQL built by hand", CWE: 89, Category: rules.CatInjection,
		Severity: issue.SeverityHigh, Confidence: 0.6, Languages: []string{"c", "cpp"},
		Description: "acme_raw_query runs its argument as SQL without binding parameters.",
		Suggestion:  "Use acme_prepared_query with bound parameters.",
		Doc:         "acme_raw_query hands its string to the database as is. Build queries\nwith acme_prepared_query and bind every value that comes from outside.",
	}
	if !reflect.DeepEqual(raw.Rule, wantRaw) {
		t.Errorf("custom rule:\n got %+v\nwant %+v", raw.Rule, wantRaw)
	}
	if raw.Pattern.String() != `\bacme_raw_query\s*\(` || !raw.Pattern.MatchString("  acme_raw_query (q);") || raw.Line != 65 {
		t.Errorf("custom rule pattern %q line %d", raw.Pattern, raw.Line)
	}
	if !token.Rule.Policy || token.Rule.Severity != issue.SeverityCritical || !slices.Equal(token.Rule.Languages, []string{"rust"}) {
		t.Errorf("second custom rule: %+v", token.Rule)
	}
	got := *c
	got.Custom, got.include, got.Warnings = nil, nil, nil
	if !reflect.DeepEqual(&got, want) {
		t.Errorf("example:\n got %+v\nwant %+v", got, *want)
	}
	for _, v := range []any{c, &c.Rules, &c.LLM, &c.Verify} {
		assertAllSet(t, v)
	}
	if !reflect.DeepEqual(c.CustomRules(), []*rules.Rule{raw.Rule, token.Rule}) {
		t.Error("CustomRules does not return the custom rows in file order")
	}
}

// assertAllSet fails for every exported pointer, slice or map field of the
// struct v points to that is nil: the example must show every key.
func assertAllSet(t *testing.T, v any) {
	t.Helper()
	rv := reflect.ValueOf(v).Elem()
	for i := range rv.NumField() {
		f, ft := rv.Field(i), rv.Type().Field(i)
		switch f.Kind() {
		case reflect.Pointer, reflect.Slice, reflect.Map:
			if ft.IsExported() && f.IsNil() && ft.Name != "Warnings" {
				t.Errorf("example.jsec.yml does not set %s.%s", rv.Type().Name(), ft.Name)
			}
		}
	}
}

// lineFormat is "<file>:<line>: <problem>; <fix>".
var lineFormat = regexp.MustCompile(`^f\.yml:\d+: .+; .+$`)

// TestBroken checks the problem, line and fix reported for broken files.
// Each wanted line must appear as a whole line of the error.
func TestBroken(t *testing.T) {
	for _, tc := range brokenCases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse("f.yml", []byte(tc.src))
			if err == nil {
				t.Fatalf("no error for\n%s", tc.src)
			}
			lines := strings.Split(err.Error(), "\n")
			for _, w := range tc.want {
				if !slices.ContainsFunc(lines, func(l string) bool {
					return l == w || strings.HasSuffix(w, "…") && strings.HasPrefix(l, strings.TrimSuffix(w, "…"))
				}) {
					t.Errorf("missing line\n  %s\nin\n  %s", w, strings.Join(lines, "\n  "))
				}
			}
			for _, l := range lines {
				if !lineFormat.MatchString(l) {
					t.Errorf("line %q is not <file>:<line>: <problem>; <fix>", l)
				}
			}
			var p *Problem
			if !errors.As(err, &p) || p.File != "f.yml" {
				t.Errorf("errors.As(*Problem): %v", p)
			}
		})
	}
}

// A want line ending in "…" is a prefix.
var brokenCases = []struct {
	name string
	src  string
	want []string
}{
	{"unknown key", "version: 1\nexlude: [a]\n", []string{"f.yml:2: unknown key exlude; did you mean exclude?"}},
	{"flag spelling", "version: 1\nfail-on: high\n", []string{"f.yml:2: unknown key fail-on; did you mean fail_on?"}},
	{"flag name", "version: 1\nlang: [c]\n", []string{"f.yml:2: unknown key lang; did you mean languages?"}},
	{"nested flag name", "version: 1\nmax-turns: 3\n", []string{"f.yml:2: unknown key max-turns; did you mean verify.max_turns?"}},
	{"nested unknown", "version: 1\nllm:\n  modle: x\n", []string{"f.yml:3: unknown key llm.modle; did you mean model?"}},
	{"case", "Version: 1\n", []string{"f.yml:1: unknown key Version; did you mean version?", "f.yml:1: version is missing; add version: 1 as the first line"}},
	{"no suggestion", "version: 1\nzzzzzzzz: 1\n", []string{"f.yml:2: unknown key zzzzzzzz; valid keys here: version, include, exclude, languages, fail_on, …"}},
	{"custom unknown", customRule("    regex: 'x'\n"), []string{"f.yml:14: unknown key custom_rules[0].regex; did you mean pattern?"}},
	{"missing version", "jobs: 2\n", []string{"f.yml:1: version is missing; add version: 1 as the first line"}},
	{"bad version", "version: 2\n", []string{"f.yml:1: unsupported version 2; this jsec reads version 1: upgrade jsec, or write version: 1 and follow config/example.jsec.yml"}},
	{"quoted version", "version: \"1\"\n", []string{`f.yml:1: version: want a whole number, got "1"; write version: 1`}},
	{"empty", "# nothing\n", []string{"f.yml:1: the file is empty; start it with version: 1"}},
	{"not a mapping", "- version\n", []string{`f.yml:1: want a mapping of keys, got a list; write key: value lines, starting with version: 1 (see config/example.jsec.yml)`}},
	{"section not a mapping", "version: 1\nllm: openai\n", []string{`f.yml:2: llm: want a mapping, got "openai"; write it as key: value lines under llm: (see config/example.jsec.yml)`}},
	{"verify true", "version: 1\nverify: true\n", []string{`f.yml:2: verify: want a mapping, got "true"; verification is turned on with --verify; this section only tunes it (min_severity, max_turns …)`}},
	{"tab", "version: 1\nllm:\n\tmodel: x\n", []string{"f.yml:3: found character that cannot start any token; indent with spaces: YAML does not allow tabs"}},
	{"syntax", "version: 1\nexclude: [a\n", []string{"f.yml:2: did not find expected ',' or ']'; fix the YAML syntax (indent with spaces; quote values that contain \": \" or start with * & ! % @)"}},
	{"indentation", "version: 1\nllm:\n  model: x\n bad: 1\n", []string{`f.yml:4: did not find expected key; fix the YAML syntax (indent with spaces; quote values that contain ": " or start with * & ! % @)`}},
	{"list after mapping", "- a\nb: 1\n", []string{`f.yml:2: did not find expected '-' indicator; fix the YAML syntax (indent with spaces; quote values that contain ": " or start with * & ! % @)`}},
	{"unknown anchor", "version: 1\nexclude: *nope\n", []string{"f.yml:2: unknown anchor 'nope' referenced; define the anchor (&nope) before using it, or write the value out"}},
	{"control character", "version: 1\njobs: 1\nllm:\n  model: \x01\n", []string{"f.yml:4: control characters are not allowed; save the file as UTF-8 text without control characters"}},
	{"bad UTF-8", "version: 1\njobs: \xff\n", []string{"f.yml:2: invalid leading UTF-8 octet; save the file as UTF-8 text without control characters"}},
	{"merge key", "version: 1\nllm: &l\n  model: x\nverify:\n  <<: *l\n", []string{"f.yml:5: verify: merge keys (<<) are not supported; write the keys out in full"}},
	{"alias loop", "version: 1\nexclude: &x [*x]\n", []string{"f.yml:2: exclude[0]: want a string, got a list; each item is a single value (quote it if it contains \": \" or starts with * or !)"}},
	{"two documents", "version: 1\n---\nversion: 1\n", []string{"f.yml:2: a second YAML document; keep one document: remove the --- line and merge what follows it"}},
	{"repeated key", "version: 1\njobs: 1\njobs: 2\n", []string{"f.yml:3: jobs given twice (first at line 2); remove one of them"}},
	{"no value", "version: 1\njobs:\n", []string{"f.yml:2: jobs has no value; give it a value or remove the line"}},
	{"jobs type", "version: 1\njobs: many\n", []string{`f.yml:2: jobs: want a whole number, got "many"; write jobs: 8`}},
	{"jobs zero", "version: 1\njobs: 0\n", []string{"f.yml:2: jobs: 0 is less than 1; write jobs: 8"}},
	{"single value for list", "version: 1\nexclude: tests/\n", []string{"f.yml:2: exclude: want a list, got a single value; write exclude: [tests/]"}},
	{"mapping for list", "version: 1\nexclude: {a: b}\n", []string{"f.yml:2: exclude: want a list, got a mapping; write exclude: [a, b]"}},
	{"list item", "version: 1\nexclude:\n  - a\n  - [b]\n", []string{`f.yml:4: exclude[1]: want a string, got a list; each item is a single value (quote it if it contains ": " or starts with * or !)`}},
	{"fail_on", "version: 1\nfail_on: hihg\n", []string{`f.yml:2: fail_on: unknown value "hihg"; did you mean high?`}},
	{"fail_on far", "version: 1\nfail_on: 3\n", []string{`f.yml:2: fail_on: unknown value "3"; want critical, high, medium, low or never`}},
	{"languages", "version: 1\nlanguages: [c, c++, go]\n", []string{
		`f.yml:2: languages: unknown language "c++"; write cpp`, `f.yml:2: languages: unknown language "go"; want c, cpp or rust`}},
	{"no languages", "version: 1\nlanguages: []\n", []string{"f.yml:2: languages is empty; list at least one of c, cpp or rust, or remove the key"}},
	{"min_confidence", "version: 1\nmin_confidence: 1.5\n", []string{"f.yml:2: min_confidence: 1.5 is out of range (want 0 up to 1); write min_confidence: 0.5"}},
	{"min_confidence type", "version: 1\nmin_confidence: high\n", []string{`f.yml:2: min_confidence: want a number between 0 and 1, got "high"; write min_confidence: 0.5`}},
	{"max_file_size", "version: 1\nmax_file_size: ten\n", []string{`f.yml:2: max_file_size: "ten" is not a size (want bytes, or a number with a K, M or G suffix, such as 10MB); write max_file_size: 10MB`}},
	{"max_file_size zero", "version: 1\nmax_file_size: 0\n", []string{`f.yml:2: max_file_size: "0" is out of range (want 1 byte up to 1PB); write max_file_size: 10MB`}},
	{"include empty", "version: 1\ninclude: []\n", []string{"f.yml:2: include is empty, so nothing would be scanned; list the paths to scan, or remove the key"}},
	{"include bad glob", "version: 1\ninclude:\n  - 'src/[abc'\n", []string{`f.yml:3: include: bad pattern: unterminated character class in "src/[abc"; close the character class, or escape the "[" as "\["`}},
	{"exclude comment", "version: 1\nexclude:\n  - '#gen'\n", []string{`f.yml:3: exclude: pattern "#gen" is a comment in gitignore syntax and matches nothing; escape it as "\#gen"`}},
	{"timeout unit", "version: 1\nllm:\n  timeout: 120\n", []string{`f.yml:3: llm.timeout: want a duration such as 2m or 90s, got "120"; a bare number has no unit: write timeout: 120s`}},
	{"timeout negative", "version: 1\nverify:\n  candidate_timeout: -1m\n", []string{"f.yml:3: verify.candidate_timeout: -1m is not positive; write candidate_timeout: 10m"}},
	{"provider", "version: 1\nllm:\n  provider: openia\n", []string{`f.yml:3: llm.provider: unknown value "openia"; did you mean openai?`}},
	{"tool_protocol", "version: 1\nllm:\n  tool_protocol: json\n", []string{`f.yml:3: llm.tool_protocol: unknown value "json"; want native or text`}},
	{"base_url", "version: 1\nllm:\n  base_url: localhost:11434\n", []string{`f.yml:3: llm.base_url: "localhost:11434" is not an http(s) URL; write base_url: http://localhost:11434/v1 (an http or https URL; for OpenAI-compatible servers it ends in /v1)`}},
	{"bool", "version: 1\nverify:\n  mask_secrets: yes\n", []string{`f.yml:3: verify.mask_secrets: want true or false, got "yes"; write mask_secrets: true or mask_secrets: false`}},
	{"max_turns", "version: 1\nverify:\n  max_turns: 0\n", []string{"f.yml:3: verify.max_turns: 0 is less than 1; write max_turns: 8"}},
	{"min_severity never", "version: 1\nverify:\n  min_severity: never\n", []string{`f.yml:3: verify.min_severity: unknown value "never"; want critical, high, medium or low`}},
	{"unknown rule", "version: 1\nrules:\n  disable: [c.buffer.strcpyy]\n", []string{"f.yml:3: rules.disable: unknown rule c.buffer.strcpyy; did you mean c.buffer.strcpy?"}},
	{"unknown rule far", "version: 1\nrules:\n  enable:\n    - no.such.thing\n", []string{"f.yml:4: rules.enable: unknown rule no.such.thing; run 'jsec rules' for the rule IDs"}},
	{"line break in a rule", "version: 1\nrules:\n  disable: [\"c.buffer\\ngets\"]\n", []string{`f.yml:3: rules.disable: unknown rule c.buffer\ngets; did you mean c.buffer.gets?`}},
	{"star inside", "version: 1\nrules:\n  disable: ['c.*.strcpy']\n", []string{`f.yml:3: rules.disable: "c.*.strcpy" has a * before its end; a pattern is a prefix ending in *, as in c.api.*`}},
	{"enable empty", "version: 1\nrules:\n  enable: []\n", []string{"f.yml:3: rules.enable is empty, so no rule would run; list the rules to run, or remove the key to run them all"}},
	{"severity value", "version: 1\nrules:\n  severity:\n    c.buffer.gets: severe\n", []string{`f.yml:4: rules.severity.c.buffer.gets: unknown value "severe"; want critical, high, medium or low`}},
	{"severity unknown rule", "version: 1\nrules:\n  severity:\n    c.bufer.gets: low\n", []string{"f.yml:4: rules.severity: unknown rule c.bufer.gets; did you mean c.buffer.gets?"}},
	{"severity list", "version: 1\nrules:\n  severity: [c.buffer.gets]\n", []string{"f.yml:3: rules.severity: want a mapping, got a list; write one rule per line, as in  c.buffer.strcpy: critical"}},
}

// customRule is a valid custom rule with extra lines (from line 14) added.
func customRule(extra string) string {
	return `version: 1
custom_rules:
  - id: custom.acme.raw-query
    title: Raw SQL
    cwe: 89
    category: injection
    severity: high
    confidence: 0.6
    languages: [c]
    description: d
    suggestion: s
    pattern: 'acme_raw\('
    policy: false
` + extra
}

func TestCollectsEveryProblem(t *testing.T) {
	src := "version: 3\njobs: 0\nexlude: [a]\nllm:\n  timeout: 5\n  token: x\nverify:\n  max_turns: -2\n"
	_, err := Parse("f.yml", []byte(src))
	if err == nil {
		t.Fatal("no error")
	}
	lines := strings.Split(err.Error(), "\n")
	var got []string
	for _, l := range lines {
		got = append(got, strings.SplitN(l, ":", 3)[1])
	}
	if want := []string{"1", "2", "3", "5", "6", "8"}; !slices.Equal(got, want) {
		t.Errorf("problem lines %v, want %v (one per problem, in file order):\n%s", got, want, err)
	}
}

func TestSecretsRefused(t *testing.T) {
	const fix = "keys are read from JSEC_LLM_API_KEY (or OPENAI_API_KEY / ANTHROPIC_API_KEY), never from the config file"
	for _, src := range []string{
		"version: 1\nllm:\n  api_key: sk-SECRET\n",
		"version: 1\nllm:\n  key: sk-SECRET\n",
		"version: 1\nllm:\n  token: sk-SECRET\n",
		"version: 1\nllm:\n  password: sk-SECRET\n",
		"version: 1\nllm:\n  api-key: sk-SECRET\n",
		"version: 1\nllm:\n  openai_api_key: sk-SECRET\n",
		"version: 1\nllm:\n  Authorization: Bearer sk-SECRET\n",
		"version: 1\nllm:\n  secret: sk-SECRET\n",
		"version: 1\napi_key: sk-SECRET\n",
		"version: 1\nverify:\n  access_token: sk-SECRET\n",
		"version: 1\nllm:\n  base_url: https://user:sk-SECRET@api.example.com/v1\n",
		"version: 1\nllm:\n  base_url: https://sk-SECRET@api.example.com/v1\n",
		"version: 1\nllm:\n  base_url: https://api.example.com/v1?api_key=sk-SECRET\n",
	} {
		_, err := Parse("f.yml", []byte(src))
		if err == nil {
			t.Errorf("accepted\n%s", src)
			continue
		}
		if !strings.Contains(err.Error(), fix) || !strings.HasPrefix(err.Error(), "f.yml:3: ") && !strings.HasPrefix(err.Error(), "f.yml:2: ") {
			t.Errorf("%q: %v", src, err)
		}
		if strings.Contains(err.Error(), "sk-SECRET") {
			t.Errorf("the error repeats the secret: %v", err)
		}
	}
	if _, err := Parse("f.yml", []byte("version: 1\nauthor: me\n")); err == nil || strings.Contains(err.Error(), "secret") {
		t.Errorf("author is not a secret: %v", err)
	}
	// Known keys that merely contain a secret-looking word are fine.
	if _, err := Parse("f.yml", []byte("version: 1\nverify:\n  max_tokens: 10\n")); err != nil {
		t.Error(err)
	}
}

func TestCustomRules(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		want      []string
	}{
		{"built-in id", strings.Replace(customRule(""), "custom.acme.raw-query", "c.buffer.gets", 1), []string{
			"f.yml:3: custom_rules[0].id: c.buffer.gets is a built-in rule; give it an ID of its own, such as custom.<project>.gets; to change the built-in rule use rules.severity or rules.disable"}},
		{"no custom prefix", strings.Replace(customRule(""), "custom.acme.raw-query", "c.acme.raw-query", 1), []string{
			`f.yml:3: custom_rules[0].id: "c.acme.raw-query" is not a custom rule ID; custom rule IDs start with custom.: write id: custom.acme.raw-query`}},
		{"bad grammar", strings.Replace(customRule(""), "custom.acme.raw-query", "custom.Acme_raw", 1), []string{
			`f.yml:3: custom_rules[0].id: "custom.Acme_raw" is not a valid rule ID; use custom.<project>.<name> in lower-case letters and digits, the name with inner hyphens, e.g. custom.acme.raw-query`}},
		{"duplicate", customRule(strings.Join(strings.Split(customRule(""), "\n")[2:13], "\n") + "\n"), []string{
			"f.yml:14: custom_rules[1].id: id custom.acme.raw-query given twice (first at line 3); give each custom rule an ID of its own"}},
		{"bad regex", strings.Replace(customRule(""), `'acme_raw\('`, `'acme_raw('`, 1), []string{
			"f.yml:12: custom_rules[0].pattern: error parsing regexp: missing closing ): `acme_raw(`; fix the regular expression (Go RE2 syntax: no lookaround, no backreferences; single-quote it in YAML so that backslashes stay)"}},
		{"lookahead", strings.Replace(customRule(""), `'acme_raw\('`, `'foo(?!bar)'`, 1), []string{
			"f.yml:12: custom_rules[0].pattern: error parsing regexp: invalid or unsupported Perl syntax: `(?!`; fix the regular expression (Go RE2 syntax: no lookaround, no backreferences; single-quote it in YAML so that backslashes stay)"}},
		{"matches everything", strings.Replace(customRule(""), `'acme_raw\('`, `'(acme)?'`, 1), []string{
			`f.yml:12: custom_rules[0].pattern: "(acme)?" matches an empty line, so it would flag every line; make it require the code it looks for, e.g. '\bgets\s*\('`}},
		{"missing keys", "version: 1\ncustom_rules:\n  - id: custom.a.b\n    pattern: x\n", []string{
			"f.yml:3: custom_rules[0] lacks the required keys title, cwe, category, severity, confidence, languages, description, suggestion; add them, as in config/example.jsec.yml"}},
		{"missing key", strings.Replace(customRule(""), "    title: Raw SQL\n", "", 1), []string{
			"f.yml:3: custom_rules[0] lacks the required key title; add it, as in config/example.jsec.yml"}},
		{"cwe string", strings.Replace(customRule(""), "cwe: 89", "cwe: CWE-89", 1), []string{
			`f.yml:5: custom_rules[0].cwe: want the CWE number, got "CWE-89"; write cwe: 89`}},
		{"category", strings.Replace(customRule(""), "category: injection", "category: injections", 1), []string{
			`f.yml:6: custom_rules[0].category: unknown value "injections"; did you mean injection?`}},
		{"severity", strings.Replace(customRule(""), "severity: high", "severity: bad", 1), []string{
			`f.yml:7: custom_rules[0].severity: unknown value "bad"; want critical, high, medium or low`}},
		{"confidence", strings.Replace(customRule(""), "confidence: 0.6", "confidence: 0", 1), []string{
			"f.yml:8: custom_rules[0].confidence: 0 is out of range (want more than 0 up to 1); write confidence: 0.6"}},
		{"languages", strings.Replace(customRule(""), "languages: [c]", "languages: [java]", 1), []string{
			`f.yml:9: custom_rules[0].languages: unknown language "java"; want c, cpp or rust`}},
		{"policy", strings.Replace(customRule(""), "policy: false", "policy: maybe", 1), []string{
			`f.yml:13: custom_rules[0].policy: want true or false, got "maybe"; write policy: true or policy: false`}},
		{"not a list", "version: 1\ncustom_rules:\n  id: custom.a.b\n", []string{
			`f.yml:3: custom_rules: want a list, got a mapping; write each rule as a list item starting with "- id: custom.<project>.<name>" (see config/example.jsec.yml)`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse("f.yml", []byte(tc.src))
			if err == nil {
				t.Fatalf("accepted\n%s", tc.src)
			}
			for _, w := range tc.want {
				if !slices.Contains(strings.Split(err.Error(), "\n"), w) {
					t.Errorf("missing line\n  %s\nin\n  %s", w, strings.ReplaceAll(err.Error(), "\n", "\n  "))
				}
			}
		})
	}
	// A broken custom rule's ID is still known to the rules: section.
	_, err := Parse("f.yml", []byte(strings.Replace(customRule(""), `'acme_raw\('`, `'('`, 1)+"rules:\n  severity: {custom.acme.raw-query: low}\n"))
	if err == nil || strings.Count(err.Error(), "\n") != 0 {
		t.Errorf("want only the pattern problem, got\n%v", err)
	}
	c, err := Parse("f.yml", []byte(customRule("")+"rules:\n  disable: [custom.acme.raw-query]\n"))
	if err != nil {
		t.Fatal(err)
	}
	if c.LookupCustom("custom.acme.raw-query") == nil || c.RuleEnabled("custom.acme.raw-query") {
		t.Error("a custom rule's ID is not a known rule ID for rules.disable")
	}
}

func TestWarnings(t *testing.T) {
	src := "version: 1\nrules:\n  disable: [c.apii.*, c.buffer.gets]\n  enable: [c.buffer.gets, zz.*]\n"
	c, err := Parse("f.yml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, w := range c.Warnings {
		got = append(got, w.Error())
	}
	want := []string{
		"f.yml:3: rules.disable: pattern c.apii.* matches no rule; did you mean c.api.*?",
		"f.yml:3: c.buffer.gets is both enabled and disabled, and disable wins; remove it from one of the lists",
		"f.yml:4: rules.enable: pattern zz.* matches no rule; run 'jsec rules' for the rule IDs",
	}
	if !slices.Equal(got, want) {
		t.Errorf("warnings:\n  %s\nwant\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}
}

func TestRuleSelection(t *testing.T) {
	c, err := Parse("f.yml", []byte(`version: 1
rules:
  enable: [c.buffer.*, c.api.strtok, rust.*]
  disable: [c.buffer.gets, rust.panic.*]
  severity:
    c.*: low
    c.buffer.*: medium
    c.buffer.strcpy: critical
`))
	if err != nil {
		t.Fatal(err)
	}
	for id, want := range map[string]bool{
		"c.buffer.strcpy": true, "c.buffer.gets": false, "c.api.strtok": true, "c.exec.system": false,
		"rust.unsafe.transmute": true, "rust.panic.unwrap": false,
	} {
		if got := c.RuleEnabled(id); got != want {
			t.Errorf("RuleEnabled(%s) = %v, want %v", id, got, want)
		}
	}
	for id, want := range map[string]issue.Severity{
		"c.buffer.strcpy": issue.SeverityCritical, "c.buffer.sprintf": issue.SeverityMedium,
		"c.exec.system": issue.SeverityLow, "rust.panic.unwrap": issue.SeverityHigh,
	} {
		if got := c.SeverityFor(id, issue.SeverityHigh); got != want {
			t.Errorf("SeverityFor(%s) = %v, want %v", id, got, want)
		}
	}
	var none *Config
	if !none.RuleEnabled("c.buffer.gets") || none.SeverityFor("c.buffer.gets", issue.SeverityLow) != issue.SeverityLow ||
		none.CustomRules() != nil || !none.Included("a.c") {
		t.Error("a nil *Config changes something")
	}
	empty, err := Parse("f.yml", []byte("version: 1\n"))
	if err != nil || !empty.RuleEnabled("c.buffer.gets") || empty.FailOn != nil || empty.Jobs != nil || empty.Exclude != nil {
		t.Errorf("a minimal file sets something: %+v %v", empty, err)
	}
}

func TestAliases(t *testing.T) {
	c, err := Parse("f.yml", []byte("version: 1\nexclude: &ex [tests/]\ninclude: *ex\nverify:\n  max_turns: &n 3\n  max_candidates: *n\n"))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(c.Include, []string{"tests/"}) || *c.Verify.MaxCandidates != 3 {
		t.Errorf("aliases: %+v", c)
	}
}

func TestNeverAndZeroValues(t *testing.T) {
	c, err := Parse("f.yml", []byte("version: 1\nfail_on: never\nmin_confidence: 0\nexclude: []\nverify:\n  max_candidates: 0\n  mask_secrets: false\n"))
	if err != nil {
		t.Fatal(err)
	}
	if c.FailOn == nil || *c.FailOn != 0 || c.MinConfidence == nil || *c.MinConfidence != 0 || c.Exclude == nil ||
		c.Verify.MaxCandidates == nil || *c.Verify.MaxCandidates != 0 || c.Verify.MaskSecrets == nil || *c.Verify.MaskSecrets {
		t.Errorf("set-to-zero values are lost: %+v", c)
	}
}

func TestIncluded(t *testing.T) {
	c, err := Parse("f.yml", []byte("version: 1\ninclude: [src/, '*.rs', '!src/gen/', main.c]\n"))
	if err != nil {
		t.Fatal(err)
	}
	for rel, want := range map[string]bool{
		"src/a.c": true, "src/x/y.c": true, "src/gen/a.c": false, "lib/a.c": false, "lib/a.rs": true,
		"main.c": true, "tools/main.c": true, "srcx/a.c": false,
	} {
		if got := c.Included(rel); got != want {
			t.Errorf("Included(%s) = %v, want %v", rel, got, want)
		}
	}
}

func TestParseSize(t *testing.T) {
	for in, want := range map[string]int64{"10MB": 10 << 20, "512k": 512 << 10, "1048576": 1 << 20, "1.5g": 3 << 29, " 2 KB ": 2048, "100b": 100, "10 MiB": 10 << 20, "1kib": 1024} {
		if got, err := ParseSize(in); err != nil || got != want {
			t.Errorf("ParseSize(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, in := range []string{"", "MB", "-1", "0", "ten", "NaN", "inf", "InfMB", "0x10", "1e30", "10 MiBB"} {
		if n, err := ParseSize(in); err == nil {
			t.Errorf("ParseSize(%q) = %d, want an error", in, n)
		}
	}
}

func TestFindAndResolve(t *testing.T) {
	dir := t.TempDir()
	if _, ok := Find(dir); ok {
		t.Error("found a file in an empty directory")
	}
	c, err := Resolve(dir, "")
	if err != nil || c == nil || c.Path != "" {
		t.Errorf("Resolve without a file: %+v, %v", c, err)
	}
	_, err = Resolve(dir, filepath.Join(dir, "missing.yml"))
	if !errors.Is(err, fs.ErrNotExist) || !strings.Contains(err.Error(), "missing.yml: config file does not exist; check the path given to --config") {
		t.Errorf("missing explicit file: %v", err)
	}
	write := func(name, src string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	yamlPath := write(".jsec.yaml", "version: 1\njobs: 3\n")
	if p, ok := Find(dir); !ok || p != yamlPath {
		t.Errorf("Find = %q, %v; want %q", p, ok, yamlPath)
	}
	ymlPath := write(".jsec.yml", "version: 1\njobs: 2\n")
	src := write("a.c", "int x;\n")
	for _, root := range []string{dir, src} {
		if p, ok := Find(root); !ok || p != ymlPath {
			t.Errorf("Find(%s) = %q, %v; want %q (.jsec.yml first)", root, p, ok, ymlPath)
		}
	}
	c, err = Resolve(dir, "")
	if err != nil || *c.Jobs != 2 || c.Path != ymlPath {
		t.Errorf("Resolve default: %+v, %v", c, err)
	}
	c, err = Resolve(dir, yamlPath)
	if err != nil || *c.Jobs != 3 {
		t.Errorf("Resolve explicit: %+v, %v", c, err)
	}
	bad := write("bad.yml", "version: 1\njobs: x\n")
	if _, err := Load(bad); err == nil || !strings.HasPrefix(err.Error(), bad+":2: jobs: ") {
		t.Errorf("Load names the file and line: %v", err)
	}
	if _, err := Load(dir); err == nil {
		t.Error("Load of a directory succeeded")
	}
}

func TestSuggest(t *testing.T) {
	names := []string{"exclude", "include", "languages", "fail_on"}
	for in, want := range map[string]string{"exlude": "exclude", "EXCLUDE": "exclude", "langauges": "languages", "failon": "fail_on", "xyz": "", "colour": ""} {
		if got := suggest(in, names); got != want {
			t.Errorf("suggest(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestProblemCap(t *testing.T) {
	src := "version: 1\n" + strings.Repeat("jobz: 1\n", maxProblems+7)
	_, err := Parse("f.yml", []byte(src))
	lines := strings.Split(err.Error(), "\n")
	if len(lines) != maxProblems+1 || lines[maxProblems] != fmt.Sprintf("f.yml:%d: 7 more problems not shown; fix the ones above and run again", maxProblems+2) {
		t.Errorf("%d lines, last %q", len(lines), lines[len(lines)-1])
	}
}

// TestDocumented checks that the package doc and the example show every
// key of the schema.
func TestDocumented(t *testing.T) {
	doc, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	example, err := os.ReadFile("example.jsec.yml")
	if err != nil {
		t.Fatal(err)
	}
	keys := []string{"version", "include", "exclude", "languages", "fail_on", "min_confidence", "max_file_size", "jobs",
		"rules", "disable", "enable", "severity", "llm", "provider", "base_url", "model", "timeout", "tool_protocol",
		"verify", "min_severity", "max_candidates", "max_turns", "max_tokens", "candidate_timeout", "mask_secrets",
		"allow_policy_dismiss", "custom_rules", "id", "title", "cwe", "category", "confidence", "description",
		"suggestion", "doc", "policy", "pattern"}
	for _, k := range keys {
		re := regexp.MustCompile(`(?m)^[\s/\-]*` + k + `:`)
		if !re.Match(doc) {
			t.Errorf("doc.go does not show %s:", k)
		}
		if !re.Match(example) {
			t.Errorf("example.jsec.yml does not show %s:", k)
		}
	}
}
