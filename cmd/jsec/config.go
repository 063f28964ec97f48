package main

import (
	"fmt"
	"strconv"

	"github.com/spf13/pflag"

	"github.com/jsec/jsec/checkers"
	"github.com/jsec/jsec/config"
	"github.com/jsec/jsec/issue"
	"github.com/jsec/jsec/rules"
	"github.com/jsec/jsec/rules/grep"
)

// loadConfig reads --config or the root's .jsec.yml and fills every
// option the command line did not set. Flags win over the file.
func loadConfig(io streams, o *scanOptions, changed func(string) bool) (*config.Config, error) {
	cfg, err := config.Resolve(o.Root, o.ConfigFile)
	if err != nil {
		return nil, usageError{err}
	}
	if !o.Quiet {
		for _, w := range cfg.Warnings {
			fmt.Fprintf(io.Err, "jsec: warning: %v\n", w)
		}
	}
	setString := func(flag string, dst *string, v *string) {
		if !changed(flag) && v != nil {
			*dst = *v
		}
	}
	if !changed("fail-on") && cfg.FailOn != nil {
		o.FailOn = "never"
		if *cfg.FailOn != 0 {
			o.FailOn = cfg.FailOn.String()
		}
	}
	if !changed("min-confidence") && cfg.MinConfidence != nil {
		o.MinConfidence = *cfg.MinConfidence
	}
	if !changed("max-file-size") && cfg.MaxFileSize != nil {
		o.MaxFileSize = strconv.FormatInt(*cfg.MaxFileSize, 10)
	}
	if !changed("jobs") && cfg.Jobs != nil {
		o.Jobs, o.jobsSet = *cfg.Jobs, true
	}
	if !changed("lang") && cfg.Languages != nil {
		o.Langs = cfg.Languages
	}
	o.Exclude = append(append([]string{}, cfg.Exclude...), o.Exclude...)
	l, c := &o.Verify.LLM, cfg.LLM
	setString("llm-provider", &l.Provider, c.Provider)
	setString("llm-base-url", &l.BaseURL, c.BaseURL)
	setString("llm-model", &l.Model, c.Model)
	setString("llm-tool-protocol", &l.Protocol, c.ToolProtocol)
	if !changed("llm-timeout") && c.Timeout != nil {
		l.Timeout = *c.Timeout
	}
	applyVerifyConfig(&o.Verify, cfg.Verify, changed)
	return cfg, nil
}

func applyVerifyConfig(v *verifyOptions, c config.Verify, changed func(string) bool) {
	if !changed("verify-min-severity") && c.MinSeverity != nil {
		v.MinSeverity = c.MinSeverity.String()
	}
	setInt := func(flag string, dst *int, val *int) {
		if !changed(flag) && val != nil {
			*dst = *val
		}
	}
	setInt("max-candidates", &v.MaxCandidates, c.MaxCandidates)
	setInt("max-turns", &v.MaxTurns, c.MaxTurns)
	setInt("max-tokens", &v.MaxTokens, c.MaxTokens)
	if !changed("candidate-timeout") && c.CandidateTimeout != nil {
		v.CandidateTimeout = *c.CandidateTimeout
	}
	if !changed("no-mask-secrets") && c.MaskSecrets != nil {
		v.NoMaskSecrets = !*c.MaskSecrets
	}
	if !changed("allow-policy-dismiss") && c.AllowPolicyDismiss != nil {
		v.AllowPolicyDismiss = *c.AllowPolicyDismiss
	}
}

// ruleOptions turns the configuration's rule settings into the scan's:
// which rules run, severity overrides, the custom regex rules and a
// lookup that knows them.
func ruleOptions(cfg *config.Config, opt *checkers.Options) error {
	opt.Enabled = cfg.RuleEnabled
	opt.Severity = cfg.SeverityFor
	opt.Lookup = func(id string) *rules.Rule {
		if cr := cfg.LookupCustom(id); cr != nil {
			return cr.Rule
		}
		return rules.Lookup(id)
	}
	for _, cr := range cfg.Custom {
		if !cfg.RuleEnabled(cr.Rule.ID) {
			continue
		}
		p, err := grep.Compile(cr.Pattern.String())
		if err != nil {
			return usagef("%s:%d: %v", cfg.Path, cr.Line, err)
		}
		opt.Custom = append(opt.Custom, checkers.CustomRule{ID: cr.Rule.ID, Languages: cr.Rule.Languages, Pattern: p})
	}
	return nil
}

// ruleInfoFor finds a rule's row, built-in or custom, for the report.
func ruleInfoFor(cfg *config.Config, id string) (issue.RuleInfo, bool) {
	if cr := cfg.LookupCustom(id); cr != nil {
		return ruleInfo(cr.Rule), true
	}
	if r := rules.Lookup(id); r != nil {
		return ruleInfo(r), true
	}
	return issue.RuleInfo{}, false
}

// changedFunc reports which flags the command line set.
func changedFunc(fs *pflag.FlagSet) func(string) bool {
	return func(name string) bool { return fs.Changed(name) }
}
