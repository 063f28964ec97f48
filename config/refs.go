package config

import (
	"slices"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/jsec/jsec/rules"
)

// ruleRef is a rule ID or pattern named in the rules: section.
type ruleRef struct {
	node *yaml.Node
	path string // "rules.disable"
	pat  string
}

// matchPattern reports whether pattern pat (an ID, or a prefix ending in
// "*") matches rule id.
func matchPattern(pat, id string) bool {
	if prefix, ok := strings.CutSuffix(pat, "*"); ok {
		return strings.HasPrefix(id, prefix)
	}
	return pat == id
}

func matchAny(pats []string, id string) bool {
	return slices.ContainsFunc(pats, func(p string) bool { return matchPattern(p, id) })
}

// knownIDs returns the built-in and custom rule IDs, sorted. A custom rule
// with other problems still counts, so that its ID is not reported again.
func (d *decoder) knownIDs() []string {
	var ids []string
	for _, r := range rules.All() {
		ids = append(ids, r.ID)
	}
	for id := range d.customIDs {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	return ids
}

// families returns every prefix of an ID that ends at a dot ("c.",
// "c.api."), as patterns ("c.*", "c.api.*").
func families(ids []string) []string {
	var out []string
	for _, id := range ids {
		for i := range len(id) {
			if id[i] == '.' {
				out = append(out, id[:i+1]+"*")
			}
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// checkRefs checks every rule ID and pattern of the rules: section against
// the built-in and custom rules.
func (d *decoder) checkRefs(c *Config) {
	if len(d.refs) == 0 {
		return
	}
	ids := d.knownIDs()
	fams := families(ids)
	for _, r := range d.refs {
		d.checkRef(r, ids, fams)
	}
	enabled := map[string]bool{}
	for _, pat := range c.Rules.Enable {
		enabled[pat] = true
	}
	for _, r := range d.refs {
		if r.path == "rules.disable" && enabled[r.pat] {
			d.warn(r.node, "remove it from one of the lists", "%s is both enabled and disabled, and disable wins", r.pat)
		}
	}
}

func (d *decoder) checkRef(r ruleRef, ids, fams []string) {
	pat := r.pat
	if i := strings.IndexByte(pat, '*'); i >= 0 && i != len(pat)-1 {
		d.fail(r.node, "a pattern is a prefix ending in *, as in c.api.*", "%s: %q has a * before its end", r.path, pat)
		return
	}
	if prefix, ok := strings.CutSuffix(pat, "*"); ok {
		if slices.ContainsFunc(ids, func(id string) bool { return strings.HasPrefix(id, prefix) }) {
			return
		}
		fix := "run 'jsec rules' for the rule IDs"
		if len(d.warnings) < maxProblems {
			if s := suggest(pat, fams); s != "" {
				fix = "did you mean " + s + "?"
			}
		}
		d.warn(r.node, fix, "%s: pattern %s matches no rule", r.path, pat)
		return
	}
	if _, ok := slices.BinarySearch(ids, pat); ok {
		return
	}
	if slices.Contains(rules.Retired(), pat) {
		d.warn(r.node, "remove it", "%s: rule %s was retired and no longer exists", r.path, pat)
		return
	}
	fix := "run 'jsec rules' for the rule IDs"
	if !d.full() {
		if s := suggest(pat, ids); s != "" {
			fix = "did you mean " + s + "?"
		}
	}
	d.fail(r.node, fix, "%s: unknown rule %s", r.path, pat)
}
