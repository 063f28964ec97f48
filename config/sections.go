package config

import (
	"errors"
	"fmt"
	"math"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/jsec/jsec/checkers/ignore"
	"github.com/jsec/jsec/issue"
)

// Version is the only config file version there is.
const Version = 1

// topHints maps command-line flag names (and keys of nested sections
// written at the top) to where they live in the file.
var topHints = map[string]string{
	"lang": "languages", "language": "languages",
	"provider": "llm.provider", "base_url": "llm.base_url", "model": "llm.model", "timeout": "llm.timeout",
	"tool_protocol": "llm.tool_protocol", "llm_provider": "llm.provider", "llm_base_url": "llm.base_url",
	"llm_model": "llm.model", "llm_timeout": "llm.timeout", "llm_tool_protocol": "llm.tool_protocol",
	"min_severity": "verify.min_severity", "verify_min_severity": "verify.min_severity",
	"max_candidates": "verify.max_candidates", "max_turns": "verify.max_turns", "max_tokens": "verify.max_tokens",
	"candidate_timeout": "verify.candidate_timeout", "mask_secrets": "verify.mask_secrets",
	"no_mask_secrets": "verify.mask_secrets: false", "allow_policy_dismiss": "verify.allow_policy_dismiss",
	"disable": "rules.disable", "enable": "rules.enable", "severity": "rules.severity",
	"custom": "custom_rules", "rule": "custom_rules", "custom_rule": "custom_rules",
}

// top decodes the root mapping.
func (d *decoder) top(c *Config, root *yaml.Node) {
	var version *yaml.Node
	ok := d.mapping("", root, []field{
		{"version", func(p string, v *yaml.Node) { version = v; d.version(p, v, c) }},
		{"include", func(p string, v *yaml.Node) { c.Include = d.globs(p, v, false) }},
		{"exclude", func(p string, v *yaml.Node) { c.Exclude = d.globs(p, v, true) }},
		{"languages", func(p string, v *yaml.Node) { c.Languages = d.languages(p, v) }},
		{"fail_on", func(p string, v *yaml.Node) { c.FailOn = d.severity(p, v, true) }},
		{"min_confidence", func(p string, v *yaml.Node) { c.MinConfidence = d.fraction(p, v, false, "min_confidence: 0.5") }},
		{"max_file_size", func(p string, v *yaml.Node) { c.MaxFileSize = d.size(p, v) }},
		{"jobs", func(p string, v *yaml.Node) { c.Jobs = d.integer(p, v, 1, "jobs: 8") }},
		{"rules", func(p string, v *yaml.Node) { d.rules(p, v, &c.Rules) }},
		{"llm", func(p string, v *yaml.Node) { d.llm(p, v, &c.LLM) }},
		{"verify", func(p string, v *yaml.Node) { d.verify(p, v, &c.Verify) }},
		{"custom_rules", func(p string, v *yaml.Node) { c.Custom = d.customRules(p, v) }},
	}, topHints)
	if !ok {
		return
	}
	if version == nil {
		d.fail(root, fmt.Sprintf("add version: %d as the first line", Version), "version is missing")
	}
	d.checkRefs(c)
}

func (d *decoder) version(path string, v *yaml.Node, c *Config) {
	fix := fmt.Sprintf("write version: %d", Version)
	n := d.integer(path, v, 0, fmt.Sprintf("version: %d", Version))
	switch {
	case n == nil:
	case *n != Version:
		d.fail(v, fmt.Sprintf("this jsec reads version %d: upgrade jsec, or %s and follow config/example.jsec.yml", Version, fix),
			"unsupported version %d", *n)
	default:
		c.Version = *n
	}
}

// globs returns a list of gitignore-style patterns; an empty list is a
// problem unless mayBeEmpty.
func (d *decoder) globs(path string, v *yaml.Node, mayBeEmpty bool) []string {
	ns, ok := d.items(path, v)
	if !ok {
		return nil
	}
	if len(v.Content) == 0 && !mayBeEmpty {
		d.fail(v, "list the paths to scan, or remove the key", "%s is empty, so nothing would be scanned", path)
		return nil
	}
	for _, n := range ns {
		d.glob(path, n)
	}
	return values(ns)
}

func (d *decoder) glob(path string, n *yaml.Node) {
	p := n.Value
	if strings.ContainsAny(p, "\r\n") {
		d.fail(n, "give each pattern its own list item", "%s: pattern %q spans lines", path, p)
		return
	}
	m, errs := ignore.Parse([]byte(p))
	switch {
	case len(errs) > 0:
		err := errs[0]
		if u := errors.Unwrap(err); u != nil {
			err = u
		}
		d.fail(n, `close the character class, or escape the "[" as "\["`, "%s: bad pattern: %v", path, err)
	case m.Len() == 0 && strings.HasPrefix(p, "#"):
		d.fail(n, `escape it as "\`+p+`"`, "%s: pattern %q is a comment in gitignore syntax and matches nothing", path, p)
	case m.Len() == 0:
		d.fail(n, "remove it", "%s: pattern %q matches nothing", path, p)
	}
}

var languageHints = map[string]string{"c++": "cpp", "cxx": "cpp", "cc": "cpp", "hpp": "cpp", "rs": "rust"}

// languages returns a non-empty list of c, cpp and rust, without repeats.
func (d *decoder) languages(path string, v *yaml.Node) []string {
	ns, ok := d.items(path, v)
	if !ok {
		return nil
	}
	if len(v.Content) == 0 {
		d.fail(v, "list at least one of c, cpp or rust, or remove the key", "%s is empty", path)
		return nil
	}
	out := []string{}
	for _, n := range ns {
		l := strings.ToLower(strings.TrimSpace(n.Value))
		switch {
		case languageHints[l] != "":
			d.fail(n, "write "+languageHints[l], "%s: unknown language %q", path, n.Value)
		case l != "c" && l != "cpp" && l != "rust":
			d.fail(n, "want c, cpp or rust", "%s: unknown language %q", path, n.Value)
		case !slices.Contains(out, l):
			out = append(out, l)
		}
	}
	return out
}

// size returns max_file_size in bytes: a whole number of bytes or a
// string for ParseSize.
func (d *decoder) size(path string, v *yaml.Node) *int64 {
	const example = "max_file_size: 10MB"
	if !d.scalar(path, v, "a size", example) {
		return nil
	}
	n, err := ParseSize(v.Value)
	if err != nil {
		d.fail(v, "write "+example, "%s: %v", path, err)
		return nil
	}
	return &n
}

// ParseSize parses a positive size: bytes ("1048576"), or a number with a
// K, KB, KiB, M, MB, MiB, G, GB or GiB suffix (case-insensitive, all powers
// of 1024: "10MB", "1.5g", "512k").
func ParseSize(s string) (int64, error) {
	t := strings.ToUpper(strings.TrimSpace(s))
	mult := 1.0
	for _, suf := range []struct {
		s string
		m float64
	}{{"GIB", 1 << 30}, {"MIB", 1 << 20}, {"KIB", 1 << 10}, {"GB", 1 << 30}, {"MB", 1 << 20}, {"KB", 1 << 10}, {"G", 1 << 30}, {"M", 1 << 20}, {"K", 1 << 10}, {"B", 1}} {
		if strings.HasSuffix(t, suf.s) {
			t, mult = strings.TrimSuffix(t, suf.s), suf.m
			break
		}
	}
	t = strings.TrimSpace(t)
	n, err := strconv.ParseFloat(t, 64)
	if err != nil || t == "" || strings.ContainsAny(t, "INFXP") || math.IsNaN(n) {
		return 0, fmt.Errorf("%q is not a size (want bytes, or a number with a K, M or G suffix, such as 10MB)", s)
	}
	b := n * mult
	if b < 1 || b > 1<<50 {
		return 0, fmt.Errorf("%q is out of range (want 1 byte up to 1PB)", s)
	}
	return int64(b), nil
}

// rules decodes the rules: section; the IDs and patterns are checked by
// checkRefs once the custom rules are known.
func (d *decoder) rules(path string, v *yaml.Node, r *Rules) {
	d.mapping(path, v, []field{
		{"disable", func(p string, v *yaml.Node) { r.Disable = d.ruleList(p, v, true) }},
		{"enable", func(p string, v *yaml.Node) { r.Enable = d.ruleList(p, v, false) }},
		{"severity", func(p string, v *yaml.Node) { r.Severity = d.severityMap(p, v) }},
	}, map[string]string{"disabled": "disable", "enabled": "enable", "severities": "severity", "only": "enable"})
}

func (d *decoder) ruleList(path string, v *yaml.Node, mayBeEmpty bool) []string {
	ns, ok := d.items(path, v)
	if !ok {
		return nil
	}
	if len(v.Content) == 0 && !mayBeEmpty {
		d.fail(v, "list the rules to run, or remove the key to run them all", "%s is empty, so no rule would run", path)
		return nil
	}
	for _, n := range ns {
		d.refs = append(d.refs, ruleRef{node: n, path: path, pat: strings.TrimSpace(n.Value)})
	}
	out := values(ns)
	for i := range out {
		out[i] = strings.TrimSpace(out[i])
	}
	return out
}

// severityMap decodes rule ID or pattern → severity.
func (d *decoder) severityMap(path string, v *yaml.Node) map[string]issue.Severity {
	if v.Kind != yaml.MappingNode {
		d.fail(v, "write one rule per line, as in  c.buffer.strcpy: critical", "%s: want a mapping, got %s", path, describe(v))
		return nil
	}
	out := map[string]issue.Severity{}
	seen := map[string]int{}
	for i := 0; i+1 < len(v.Content); i += 2 {
		k, val := deref(v.Content[i]), deref(v.Content[i+1])
		if k.Kind != yaml.ScalarNode || strings.TrimSpace(k.Value) == "" {
			d.fail(k, "keys are rule IDs or patterns such as c.api.*", "%s: a key that is %s", path, describe(k))
			continue
		}
		id := strings.TrimSpace(k.Value)
		if first, dup := seen[id]; dup {
			d.fail(k, "remove one of them", "%s: %s given twice (first at line %d)", path, id, first)
			continue
		}
		seen[id] = k.Line
		d.refs = append(d.refs, ruleRef{node: k, path: path, pat: id})
		if s := d.severity(path+"."+id, val, false); s != nil {
			out[id] = *s
		}
	}
	return out
}

func (d *decoder) llm(path string, v *yaml.Node, l *LLM) {
	d.mapping(path, v, []field{
		{"provider", func(p string, v *yaml.Node) { l.Provider = d.choicePtr(p, v, []string{"openai", "anthropic"}) }},
		{"base_url", func(p string, v *yaml.Node) { l.BaseURL = d.baseURL(p, v) }},
		{"model", func(p string, v *yaml.Node) { l.Model = d.strPtr(p, v, "model: gpt-4o") }},
		{"timeout", func(p string, v *yaml.Node) { l.Timeout = d.duration(p, v, "timeout: 2m") }},
		{"tool_protocol", func(p string, v *yaml.Node) { l.ToolProtocol = d.choicePtr(p, v, []string{"native", "text"}) }},
	}, map[string]string{"url": "base_url", "baseurl": "base_url", "endpoint": "base_url", "protocol": "tool_protocol", "name": "model"})
}

// HTTPURL reports whether s is an absolute http or https URL with a host,
// as a model server's base URL must be (llm.base_url, --llm-base-url).
func HTTPURL(s string) bool {
	u, err := url.Parse(strings.TrimSpace(s))
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != ""
}

// baseURL returns an http(s) URL without credentials in it.
func (d *decoder) baseURL(path string, v *yaml.Node) *string {
	const example = "base_url: http://localhost:11434/v1"
	s, ok := d.str(path, v, example)
	if !ok {
		return nil
	}
	s = strings.TrimSpace(s)
	if !HTTPURL(s) {
		d.fail(v, "write "+example+" (an http or https URL; for OpenAI-compatible servers it ends in /v1)", "%s: %s is not an http(s) URL", path, describe(v))
		return nil
	}
	u, _ := url.Parse(s)
	if u.User != nil {
		d.fail(v, secretFix, "%s carries credentials (user:password@) and is refused", path)
		return nil
	}
	for q := range u.Query() {
		if looksSecret(q) {
			d.fail(v, secretFix, "%s carries a secret in its query (%s=) and is refused", path, q)
			return nil
		}
	}
	return &s
}

func (d *decoder) verify(path string, v *yaml.Node, vo *Verify) {
	if v.Kind == yaml.ScalarNode && v.Tag == "!!bool" {
		d.fail(v, "verification is turned on with --verify; this section only tunes it (min_severity, max_turns …)", "%s: want a mapping, got %s", path, describe(v))
		return
	}
	d.mapping(path, v, []field{
		{"min_severity", func(p string, v *yaml.Node) { vo.MinSeverity = d.severity(p, v, false) }},
		{"max_candidates", func(p string, v *yaml.Node) { vo.MaxCandidates = d.integer(p, v, 0, "max_candidates: 500") }},
		{"max_turns", func(p string, v *yaml.Node) { vo.MaxTurns = d.integer(p, v, 1, "max_turns: 8") }},
		{"max_tokens", func(p string, v *yaml.Node) { vo.MaxTokens = d.integer(p, v, 0, "max_tokens: 2000000") }},
		{"candidate_timeout", func(p string, v *yaml.Node) { vo.CandidateTimeout = d.duration(p, v, "candidate_timeout: 10m") }},
		{"mask_secrets", func(p string, v *yaml.Node) { vo.MaskSecrets = d.boolean(p, v) }},
		{"allow_policy_dismiss", func(p string, v *yaml.Node) { vo.AllowPolicyDismiss = d.boolean(p, v) }},
	}, map[string]string{"no_mask_secrets": "mask_secrets: false", "verify_min_severity": "min_severity", "timeout": "candidate_timeout", "turns": "max_turns"})
}
