// Package config reads jsec's configuration file, .jsec.yml (or
// .jsec.yaml) at the scanned root, or the file named by --config.
//
// Precedence is flags > file > built-in defaults: every optional field is a
// pointer (or a nil slice) so that the CLI can tell "not in the file" from a
// zero value, and a flag overrides the file only when it was given.
//
// # Schema
//
// Every key is optional except version. Unknown keys are errors (with a
// "did you mean" suggestion), and so is a key given twice.
//
//	version: 1                  # required; the only version there is
//
//	include: [src/, lib/**/*.c] # gitignore-style patterns, relative to the
//	                            # scanned root: when set, only matching paths
//	                            # are scanned (a directory pattern covers what
//	                            # is under it; "!" re-excludes)
//	exclude: [tests/, "*.gen.c"] # gitignore-style patterns to skip, added to
//	                            # the default excludes and .gitignore (--exclude)
//	languages: [c, cpp, rust]   # languages to scan (--lang)
//	fail_on: high               # critical, high, medium, low or never (--fail-on)
//	min_confidence: 0.5         # 0..1: drop findings below it (--min-confidence)
//	max_file_size: 10MB         # bytes, or with a K, M or G suffix (KB, MiB …)
//	                            # (--max-file-size)
//	jobs: 8                     # files analysed in parallel, at least 1 (--jobs)
//
//	rules:
//	  disable: [c.api.*, rust.panic.unwrap]  # rule IDs or prefix patterns
//	  enable: [c.*, custom.*]   # when set, only these rules run (custom
//	                            # rules too: list custom.* to keep them)
//	  severity:                 # override a rule's default severity
//	    c.random.*: low
//	    c.buffer.strcpy: critical
//
//	llm:                        # the verifier's model; never keys
//	  provider: openai          # openai (any OpenAI-compatible server) or
//	                            # anthropic (--llm-provider)
//	  base_url: http://localhost:11434/v1  # http(s) URL (--llm-base-url)
//	  model: qwen2.5-coder:32b  # (--llm-model)
//	  timeout: 2m               # per request, a Go duration (--llm-timeout)
//	  tool_protocol: native     # native or text (--llm-tool-protocol)
//
//	verify:                     # the --verify stage
//	  min_severity: medium      # critical, high, medium or low
//	                            # (--verify-min-severity)
//	  max_candidates: 500       # 0: no limit (--max-candidates)
//	  max_turns: 8              # at least 1 (--max-turns)
//	  max_tokens: 0             # 0: no limit (--max-tokens)
//	  candidate_timeout: 10m    # a Go duration (--candidate-timeout)
//	  mask_secrets: true        # false is --no-mask-secrets
//	  allow_policy_dismiss: false  # (--allow-policy-dismiss)
//
//	custom_rules:               # rules of the project's own, in the
//	  - id: custom.acme.raw-query  # catalogue's schema plus a pattern
//	    title: Raw SQL built by hand
//	    cwe: 89
//	    category: injection     # one of rules.Categories
//	    severity: high          # critical, high, medium or low
//	    confidence: 0.6         # (0, 1]
//	    languages: [c, cpp]     # c, cpp, rust
//	    description: ...
//	    suggestion: ...
//	    doc: ...                # optional long-form documentation
//	    policy: false           # optional: a verifier may not dismiss it
//	    pattern: '\bacme_raw_query\s*\('  # Go RE2, matched per line of code
//
// # Rule patterns
//
// The entries of rules.disable, rules.enable and the keys of rules.severity
// are a rule ID (built-in or custom) or a prefix ending in "*" ("c.api.*",
// "rust.*", "*"); "*" is allowed only at the end. An ID that names no rule
// is an error (with the closest ID as a suggestion), a retired ID and a
// pattern that matches no rule are warnings. A rule runs when rules.enable
// is unset or one of its entries matches, and no rules.disable entry
// matches: disable wins. In rules.severity an exact ID beats a pattern and
// a longer pattern beats a shorter one.
//
// # Custom rules
//
// IDs follow the catalogue's grammar with the "custom." prefix:
// custom.<project>.<name>, lower-case letters and digits, the name with
// inner hyphens. They may not repeat, nor name a built-in or retired rule.
// The pattern is compiled once; a pattern that matches an empty line (".*",
// "x?") is refused because it would flag every line.
//
// # Secrets
//
// API keys are read from JSEC_LLM_API_KEY (or OPENAI_API_KEY /
// ANTHROPIC_API_KEY) and never from this file: a key that looks like a
// secret (api_key, token, password …) anywhere in the file, and a base_url
// with a password in it, are refused.
//
// # Errors
//
// Load collects every problem instead of stopping at the first, and joins
// them, one per line, as "<file>:<line>: <problem>; <fix>". Each is a
// *Problem; warnings land in Config.Warnings in the same form.
package config
