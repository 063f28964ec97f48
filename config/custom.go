package config

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

	"gopkg.in/yaml.v3"

	"github.com/jsec/jsec/rules"
)

// customIDRE is the catalogue's ID grammar (rules/rules_test.go) under the
// "custom." prefix: custom.<project>.<name>.
var customIDRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^custom\.[a-z0-9]+\.[a-z0-9]+(-[a-z0-9]+)*$`) })

// anyIDRE is the catalogue's grammar with any first element.
var anyIDRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[a-z0-9]+\.[a-z0-9]+\.[a-z0-9]+(-[a-z0-9]+)*$`) })

var cweRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i)^\s*cwe-(\d+)\s*$`) })

// requiredCustom are the keys a custom rule must have.
var requiredCustom = []string{"id", "title", "cwe", "category", "severity", "confidence", "languages", "description", "suggestion", "pattern"}

var customHints = map[string]string{
	"regex": "pattern", "regexp": "pattern", "re": "pattern", "match": "pattern",
	"message": "description", "msg": "description", "desc": "description",
	"fix": "suggestion", "remediation": "suggestion", "recommendation": "suggestion",
	"lang": "languages", "language": "languages", "name": "title", "docs": "doc",
	"level": "severity", "risk": "severity",
}

// customRules decodes the custom_rules: list.
func (d *decoder) customRules(path string, v *yaml.Node) []CustomRule {
	if v.Kind != yaml.SequenceNode {
		d.fail(v, "write each rule as a list item starting with \"- id: custom.<project>.<name>\" (see config/example.jsec.yml)", "%s: want a list, got %s", path, describe(v))
		return nil
	}
	if d.customIDs == nil {
		d.customIDs = map[string]int{}
	}
	out := []CustomRule{}
	for i, it := range v.Content {
		if cr, ok := d.customRule(fmt.Sprintf("%s[%d]", path, i), deref(it)); ok {
			out = append(out, cr)
		}
	}
	return out
}

// customRule decodes one custom rule; ok is false when it has problems.
func (d *decoder) customRule(path string, n *yaml.Node) (CustomRule, bool) {
	before := len(d.problems)
	r := &rules.Rule{}
	cr := CustomRule{Rule: r, Line: n.Line}
	set := func(dst *string) func(string, *yaml.Node) {
		return func(p string, v *yaml.Node) {
			if s, ok := d.str(p, v, leaf(p)+": ..."); ok {
				*dst = strings.TrimSpace(s)
			}
		}
	}
	ok := d.mapping(path, n, []field{
		{"id", func(p string, v *yaml.Node) { r.ID = d.customID(p, v) }},
		{"title", set(&r.Title)},
		{"cwe", func(p string, v *yaml.Node) { r.CWE = d.cwe(p, v) }},
		{"category", func(p string, v *yaml.Node) { r.Category, _ = d.choice(p, v, rules.Categories) }},
		{"severity", func(p string, v *yaml.Node) {
			if s := d.severity(p, v, false); s != nil {
				r.Severity = *s
			}
		}},
		{"confidence", func(p string, v *yaml.Node) {
			if f := d.fraction(p, v, true, "confidence: 0.6"); f != nil {
				r.Confidence = *f
			}
		}},
		{"languages", func(p string, v *yaml.Node) { r.Languages = d.languages(p, v) }},
		{"description", set(&r.Description)},
		{"suggestion", set(&r.Suggestion)},
		{"doc", set(&r.Doc)},
		{"policy", func(p string, v *yaml.Node) {
			if b := d.boolean(p, v); b != nil {
				r.Policy = *b
			}
		}},
		{"pattern", func(p string, v *yaml.Node) { cr.Pattern = d.pattern(p, v) }},
	}, customHints)
	if !ok {
		return cr, false
	}
	d.requireKeys(path, n)
	return cr, len(d.problems) == before
}

// requireKeys reports the required keys a custom rule lacks.
func (d *decoder) requireKeys(path string, n *yaml.Node) {
	var missing []string
	for _, k := range requiredCustom {
		if !slices.ContainsFunc(pairs(n), func(kv [2]*yaml.Node) bool { return kv[0].Value == k }) {
			missing = append(missing, k)
		}
	}
	if len(missing) == 0 {
		return
	}
	if len(missing) == 1 {
		d.fail(n, "add it, as in config/example.jsec.yml", "%s lacks the required key %s", path, missing[0])
		return
	}
	d.fail(n, "add them, as in config/example.jsec.yml", "%s lacks the required keys %s", path, strings.Join(missing, ", "))
}

func pairs(n *yaml.Node) [][2]*yaml.Node {
	var out [][2]*yaml.Node
	for i := 0; i+1 < len(n.Content); i += 2 {
		out = append(out, [2]*yaml.Node{deref(n.Content[i]), deref(n.Content[i+1])})
	}
	return out
}

// customID checks a custom rule's ID: the grammar, no built-in, retired or
// repeated ID.
func (d *decoder) customID(path string, v *yaml.Node) string {
	id, ok := d.str(path, v, "id: custom.<project>.<name>")
	if !ok {
		return ""
	}
	id = strings.TrimSpace(id)
	rest := id[strings.IndexByte(id, '.')+1:]
	switch {
	case rules.Lookup(id) != nil:
		d.fail(v, "give it an ID of its own, such as custom.<project>."+leaf(id)+
			"; to change the built-in rule use rules.severity or rules.disable", "%s: %s is a built-in rule", path, id)
	case slices.Contains(rules.Retired(), id):
		d.fail(v, "give it an ID of its own, such as custom.<project>."+leaf(id), "%s: %s is a retired built-in rule, and IDs are never reused", path, id)
	case customIDRE().MatchString(id):
		if first, dup := d.customIDs[id]; dup {
			d.fail(v, "give each custom rule an ID of its own", "%s: id %s given twice (first at line %d)", path, id, first)
			return ""
		}
		d.customIDs[id] = v.Line
		return id
	case !strings.HasPrefix(id, "custom.") && anyIDRE().MatchString(id):
		d.fail(v, "custom rule IDs start with custom.: write id: custom."+rest, "%s: %q is not a custom rule ID", path, id)
	default:
		d.fail(v, "use custom.<project>.<name> in lower-case letters and digits, the name with inner hyphens, e.g. custom.acme.raw-query",
			"%s: %q is not a valid rule ID", path, id)
	}
	return ""
}

func (d *decoder) cwe(path string, v *yaml.Node) int {
	if v.Kind == yaml.ScalarNode && v.Tag == "!!str" {
		if m := cweRE().FindStringSubmatch(v.Value); m != nil {
			d.fail(v, "write cwe: "+m[1], "%s: want the CWE number, got %s", path, describe(v))
			return 0
		}
	}
	n := d.integer(path, v, 1, "cwe: 89")
	if n == nil {
		return 0
	}
	return *n
}

// pattern compiles a custom rule's regular expression.
func (d *decoder) pattern(path string, v *yaml.Node) *regexp.Regexp {
	s, ok := d.str(path, v, `pattern: '\bacme_raw_query\s*\('`)
	if !ok {
		return nil
	}
	re, err := regexp.Compile(s)
	if err != nil {
		d.fail(v, "fix the regular expression (Go RE2 syntax: no lookaround, no backreferences; single-quote it in YAML so that backslashes stay)",
			"%s: %v", path, err)
		return nil
	}
	if re.MatchString("") {
		d.fail(v, `make it require the code it looks for, e.g. '\bgets\s*\('`, "%s: %s matches an empty line, so it would flag every line", path, strconv.Quote(s))
		return nil
	}
	return re
}
