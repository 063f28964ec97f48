package config

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"gopkg.in/yaml.v3"

	"github.com/jsec/jsec/issue"
)

// decoder walks a yaml.Node tree against the schema, collecting problems
// instead of stopping at the first.
type decoder struct {
	file     string
	problems []*Problem
	warnings []*Problem
	// refs are the rule IDs and patterns of the rules: section, checked
	// once the custom rules are known.
	refs []ruleRef
	// customIDs maps each custom rule ID to its line.
	customIDs map[string]int
	// dropped counts the problems past maxProblems, the first of them at
	// droppedLine.
	dropped, droppedLine int
	// warnDropped and warnDroppedLine do the same for warnings.
	warnDropped, warnDroppedLine int
}

// maxProblems caps the problems reported for one file.
const maxProblems = 50

func (d *decoder) fail(n *yaml.Node, fix, format string, a ...any) {
	if d.full() {
		if d.dropped++; d.dropped == 1 {
			d.droppedLine = lineOf(n)
		}
		return
	}
	d.problems = append(d.problems, &Problem{File: d.file, Line: lineOf(n), Msg: oneLine(fmt.Sprintf(format, a...)), Fix: oneLine(fix)})
}

// oneLine escapes line breaks, which values from the file may hold, so
// that each problem stays on its own line.
func oneLine(s string) string {
	return strings.NewReplacer("\n", `\n`, "\r", `\r`).Replace(s)
}

// full reports whether no more problems will be reported, so that the
// caller can skip the work of describing one.
func (d *decoder) full() bool { return len(d.problems) >= maxProblems }

func (d *decoder) warn(n *yaml.Node, fix, format string, a ...any) {
	if len(d.warnings) >= maxProblems {
		if d.warnDropped++; d.warnDropped == 1 {
			d.warnDroppedLine = lineOf(n)
		}
		return
	}
	d.warnings = append(d.warnings, &Problem{File: d.file, Line: lineOf(n), Msg: oneLine(fmt.Sprintf(format, a...)), Fix: oneLine(fix)})
}

func lineOf(n *yaml.Node) int {
	if n == nil {
		return 0
	}
	return n.Line
}

// sorted returns ps in line order, followed by a note of the n problems
// (the first at line) that were not kept.
func sorted(ps []*Problem, n, line int, file, what string) []*Problem {
	sort.SliceStable(ps, func(i, j int) bool { return ps[i].Line < ps[j].Line })
	if n > 0 {
		ps = append(ps, &Problem{File: file, Line: line, Msg: fmt.Sprintf("%d more %s not shown", n, what), Fix: "fix the ones above and run again"})
	}
	return ps
}

// document parses data and decodes its one document.
func (d *decoder) document(data []byte) *Config {
	c := &Config{}
	root, ok := d.parseYAML(data)
	if !ok {
		return c
	}
	if root == nil {
		d.problems = append(d.problems, &Problem{File: d.file, Line: 1, Msg: "the file is empty", Fix: "start it with version: 1"})
		return c
	}
	d.top(c, root)
	return c
}

var yamlLineRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^yaml: line (\d+): (.*)$`) })

// parseYAML returns the root node of the only document in data, nil for
// an empty document; ok is false after a syntax error.
func (d *decoder) parseYAML(data []byte) (root *yaml.Node, ok bool) {
	defer func() {
		// The parser is third-party code: a panic in it is a bad file,
		// not a crash.
		if r := recover(); r != nil {
			d.problems = append(d.problems, &Problem{File: d.file, Line: 1, Msg: fmt.Sprintf("the YAML parser failed: %v", r), Fix: "check the YAML syntax"})
			root, ok = nil, false
		}
	}()
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, true
		}
		d.yamlError(err, data)
		return nil, false
	}
	var extra yaml.Node
	if err := dec.Decode(&extra); err == nil {
		d.fail(&extra, "keep one document: remove the --- line and merge what follows it", "a second YAML document")
		return nil, false
	} else if !errors.Is(err, io.EOF) {
		d.yamlError(err, data)
		return nil, false
	}
	if len(doc.Content) == 0 {
		return nil, true
	}
	root = deref(doc.Content[0])
	if root.Kind == yaml.ScalarNode && root.Tag == "!!null" {
		return nil, true
	}
	return root, true
}

// parserErrors are the messages of yaml.v3's parser (as opposed to its
// scanner), whose "line N" is 0-based and names where the enclosing block
// starts; without "line N" they are on the first line.
var parserErrors = map[string]bool{
	"did not find expected ',' or ']'": true, "did not find expected ',' or '}'": true,
	"did not find expected '-' indicator": true, "did not find expected <document start>": true,
	"did not find expected <stream-start>": true, "did not find expected key": true,
	"did not find expected node content": true, "found duplicate %TAG directive": true,
	"found duplicate %YAML directive": true, "found incompatible YAML document": true,
	"found undefined tag handle": true,
}

var unknownAnchorRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^unknown anchor '(.*)' referenced$`) })

// yamlError turns a parser error ("yaml: line 3: ...") into a Problem with
// the best line it can find.
func (d *decoder) yamlError(err error, data []byte) {
	p := &Problem{File: d.file, Msg: strings.TrimPrefix(err.Error(), "yaml: "), Err: err,
		Fix: "fix the YAML syntax (indent with spaces; quote values that contain \": \" or start with * & ! % @)"}
	m := yamlLineRE().FindStringSubmatch(err.Error())
	if m != nil {
		p.Line, _ = strconv.Atoi(m[1])
		p.Msg = m[2]
	}
	switch a := unknownAnchorRE().FindStringSubmatch(p.Msg); {
	case parserErrors[p.Msg]:
		p.Line++
	case a != nil:
		p.Line = lineAt(data, bytes.Index(data, []byte("*"+a[1])))
		p.Fix = "define the anchor (&" + a[1] + ") before using it, or write the value out"
	case m == nil:
		if off := badChar(data); off >= 0 {
			p.Line = lineAt(data, off)
			p.Fix = "save the file as UTF-8 text without control characters"
		}
	}
	last := max(1, bytes.Count(bytes.TrimSuffix(data, []byte("\n")), []byte("\n"))+1)
	p.Line = min(max(p.Line, 1), last)
	if lines := bytes.Split(data, []byte("\n")); bytes.HasPrefix(bytes.TrimLeft(lines[p.Line-1], " "), []byte("\t")) {
		p.Fix = "indent with spaces: YAML does not allow tabs"
	}
	p.Msg = oneLine(p.Msg)
	d.problems = append(d.problems, p)
}

// lineAt returns the 1-based line of byte offset off (line 1 for off < 0).
func lineAt(data []byte, off int) int {
	if off < 0 {
		return 1
	}
	return bytes.Count(data[:off], []byte("\n")) + 1
}

// badChar returns the offset of the first byte that is not valid UTF-8 or
// is a character YAML does not allow, or -1.
func badChar(data []byte) int {
	for i := 0; i < len(data); {
		r, size := utf8.DecodeRune(data[i:])
		ok := r >= 0x20 && r < 0x7f || r == '\t' || r == '\n' || r == '\r' || r == 0x85 ||
			r >= 0xa0 && r <= 0xd7ff || r >= 0xe000 && r <= 0xfffd || r >= 0x10000 && r <= 0x10ffff
		if !ok || r == utf8.RuneError && size == 1 {
			return i
		}
		i += size
	}
	return -1
}

// deref resolves an alias (*name) to the node it names.
func deref(n *yaml.Node) *yaml.Node {
	for i := 0; n != nil && n.Kind == yaml.AliasNode && n.Alias != nil && i < 8; i++ {
		n = n.Alias
	}
	return n
}

// describe names what a node is, for "want X, got Y".
func describe(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.ScalarNode:
		if n.Tag == "!!null" {
			return "nothing"
		}
		v := n.Value
		if r := []rune(v); len(r) > 40 {
			v = string(r[:40]) + "…"
		}
		return strconv.Quote(v)
	}
	return "something else"
}

func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

// leaf is the last element of a dotted path.
func leaf(path string) string {
	if i := strings.LastIndexByte(path, '.'); i >= 0 {
		return path[i+1:]
	}
	return path
}

// field is one known key of a mapping and what to do with its value.
type field struct {
	name string
	set  func(path string, v *yaml.Node)
}

// mapping checks that n is a mapping and hands each known key's value to
// its field; unknown, repeated and valueless keys are problems. hints maps
// a likely mistake to the key meant. It returns false when n is not a
// mapping.
func (d *decoder) mapping(path string, n *yaml.Node, fields []field, hints map[string]string) bool {
	n = deref(n)
	if n.Kind != yaml.MappingNode {
		if path == "" {
			d.fail(n, "write key: value lines, starting with version: 1 (see config/example.jsec.yml)", "want a mapping of keys, got %s", describe(n))
			return false
		}
		d.fail(n, "write it as key: value lines under "+leaf(path)+": (see config/example.jsec.yml)", "%s: want a mapping, got %s", path, describe(n))
		return false
	}
	seen := map[string]int{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := deref(n.Content[i]), deref(n.Content[i+1])
		if k.Kind != yaml.ScalarNode {
			where := path
			if where == "" {
				where = "top level"
			}
			d.fail(k, "keys are plain names", "%s: a key that is %s", where, describe(k))
			continue
		}
		full := join(path, k.Value)
		if first, dup := seen[k.Value]; dup {
			d.fail(k, "remove one of them", "%s given twice (first at line %d)", full, first)
			continue
		}
		seen[k.Value] = k.Line
		j := slices.IndexFunc(fields, func(f field) bool { return f.name == k.Value })
		if j < 0 {
			d.unknownKey(path, k, fields, hints)
			continue
		}
		if v.Kind == yaml.ScalarNode && v.Tag == "!!null" {
			d.fail(v, "give it a value or remove the line", "%s has no value", full)
			continue
		}
		fields[j].set(full, v)
	}
	return true
}

// secretFix is the fix for anything that looks like a key.
const secretFix = "remove it: keys are read from JSEC_LLM_API_KEY (or OPENAI_API_KEY / ANTHROPIC_API_KEY), never from the config file"

func (d *decoder) unknownKey(path string, k *yaml.Node, fields []field, hints map[string]string) {
	full := join(path, k.Value)
	if looksSecret(k.Value) {
		d.fail(k, secretFix, "%s looks like a secret and is refused (rotate the key if this file was ever shared)", full)
		return
	}
	if k.Value == "<<" {
		d.fail(k, "write the keys out in full", "%s: merge keys (<<) are not supported", path)
		return
	}
	if d.full() {
		d.fail(k, "", "")
		return
	}
	names := make([]string, len(fields))
	for i, f := range fields {
		names[i] = f.name
	}
	norm := strings.ReplaceAll(strings.ToLower(k.Value), "-", "_")
	fix := ""
	switch {
	case slices.Contains(names, norm):
		fix = "did you mean " + norm + "?"
	case hints[norm] != "":
		fix = "did you mean " + hints[norm] + "?"
	default:
		if s := suggest(k.Value, names); s != "" {
			fix = "did you mean " + s + "?"
		} else {
			fix = "valid keys here: " + strings.Join(names, ", ")
		}
	}
	d.fail(k, fix, "unknown key %s", full)
}

// looksSecret reports whether a key name looks like it holds a
// credential.
func looksSecret(key string) bool {
	k := strings.NewReplacer("_", "", "-", "", ".", "", " ", "").Replace(strings.ToLower(key))
	if strings.HasSuffix(k, "key") {
		return true
	}
	for _, w := range []string{"apikey", "token", "secret", "passw", "pwd", "credential", "bearer", "authoriz"} {
		if strings.Contains(k, w) {
			return true
		}
	}
	return strings.Contains(k, "auth") && !strings.Contains(k, "author")
}

// scalar checks that v is a single value.
func (d *decoder) scalar(path string, v *yaml.Node, want, example string) bool {
	if v.Kind != yaml.ScalarNode {
		d.fail(v, "write "+example, "%s: want %s, got %s", path, want, describe(v))
		return false
	}
	return true
}

// str returns a non-empty string value.
func (d *decoder) str(path string, v *yaml.Node, example string) (string, bool) {
	if !d.scalar(path, v, "a string", example) {
		return "", false
	}
	if strings.TrimSpace(v.Value) == "" {
		d.fail(v, "give it a value or remove the line", "%s is empty", path)
		return "", false
	}
	return v.Value, true
}

func (d *decoder) strPtr(path string, v *yaml.Node, example string) *string {
	if s, ok := d.str(path, v, example); ok {
		return &s
	}
	return nil
}

// integer returns a whole number of at least lo.
func (d *decoder) integer(path string, v *yaml.Node, lo int, example string) *int {
	var n int
	if !d.scalar(path, v, "a whole number", example) {
		return nil
	}
	if v.Tag != "!!int" || v.Decode(&n) != nil {
		d.fail(v, "write "+example, "%s: want a whole number, got %s", path, describe(v))
		return nil
	}
	if n < lo {
		d.fail(v, "write "+example, "%s: %d is less than %d", path, n, lo)
		return nil
	}
	return &n
}

// fraction returns a number in [0, 1], or (0, 1] when positive is set.
func (d *decoder) fraction(path string, v *yaml.Node, positive bool, example string) *float64 {
	var f float64
	if !d.scalar(path, v, "a number", example) {
		return nil
	}
	if (v.Tag != "!!int" && v.Tag != "!!float") || v.Decode(&f) != nil {
		d.fail(v, "write "+example, "%s: want a number between 0 and 1, got %s", path, describe(v))
		return nil
	}
	if math.IsNaN(f) || f < 0 || f > 1 || positive && f == 0 {
		lo := "0"
		if positive {
			lo = "more than 0"
		}
		d.fail(v, "write "+example, "%s: %v is out of range (want %s up to 1)", path, f, lo)
		return nil
	}
	return &f
}

func (d *decoder) boolean(path string, v *yaml.Node) *bool {
	var b bool
	if !d.scalar(path, v, "true or false", leaf(path)+": true") {
		return nil
	}
	if v.Tag != "!!bool" || v.Decode(&b) != nil {
		d.fail(v, "write "+leaf(path)+": true or "+leaf(path)+": false", "%s: want true or false, got %s", path, describe(v))
		return nil
	}
	return &b
}

// duration returns a positive Go duration ("2m", "90s").
func (d *decoder) duration(path string, v *yaml.Node, example string) *time.Duration {
	if !d.scalar(path, v, "a duration", example) {
		return nil
	}
	t, err := time.ParseDuration(v.Value)
	if err != nil {
		fix := "write " + example
		if v.Tag == "!!int" {
			fix = fmt.Sprintf("a bare number has no unit: write %s: %ss", leaf(path), v.Value)
		}
		d.fail(v, fix, "%s: want a duration such as 2m or 90s, got %s", path, describe(v))
		return nil
	}
	if t <= 0 {
		d.fail(v, "write "+example, "%s: %s is not positive", path, v.Value)
		return nil
	}
	return &t
}

// choice returns one of choices (compared case-insensitively).
func (d *decoder) choice(path string, v *yaml.Node, choices []string) (string, bool) {
	s, ok := d.str(path, v, leaf(path)+": "+choices[0])
	if !ok {
		return "", false
	}
	low := strings.ToLower(strings.TrimSpace(s))
	if slices.Contains(choices, low) {
		return low, true
	}
	fix := "want " + orList(choices)
	if g := suggest(low, choices); g != "" {
		fix = "did you mean " + g + "?"
	}
	d.fail(v, fix, "%s: unknown value %s", path, describe(v))
	return "", false
}

func (d *decoder) choicePtr(path string, v *yaml.Node, choices []string) *string {
	if s, ok := d.choice(path, v, choices); ok {
		return &s
	}
	return nil
}

var severityNames = []string{"critical", "high", "medium", "low"}

// severity returns a severity; with never set, "never" is accepted as 0.
func (d *decoder) severity(path string, v *yaml.Node, never bool) *issue.Severity {
	names := severityNames
	if never {
		names = append(slices.Clone(names), "never")
	}
	s, ok := d.choice(path, v, names)
	if !ok {
		return nil
	}
	var sev issue.Severity
	if s != "never" {
		sev, _ = issue.ParseSeverity(s)
	}
	return &sev
}

// items returns the scalar items of a list. A single value in place of a
// list is a problem whose fix shows the list form.
func (d *decoder) items(path string, v *yaml.Node) ([]*yaml.Node, bool) {
	if v.Kind == yaml.ScalarNode {
		d.fail(v, fmt.Sprintf("write %s: [%s]", leaf(path), v.Value), "%s: want a list, got a single value", path)
		return nil, false
	}
	if v.Kind != yaml.SequenceNode {
		d.fail(v, fmt.Sprintf("write %s: [a, b]", leaf(path)), "%s: want a list, got %s", path, describe(v))
		return nil, false
	}
	out := make([]*yaml.Node, 0, len(v.Content))
	for i, it := range v.Content {
		it = deref(it)
		p := fmt.Sprintf("%s[%d]", path, i)
		if it.Kind != yaml.ScalarNode || it.Tag == "!!null" || strings.TrimSpace(it.Value) == "" {
			d.fail(it, "each item is a single value (quote it if it contains \": \" or starts with * or !)", "%s: want a string, got %s", p, describe(it))
			continue
		}
		out = append(out, it)
	}
	return out, true
}

func values(ns []*yaml.Node) []string {
	out := make([]string, len(ns))
	for i, n := range ns {
		out[i] = n.Value
	}
	return out
}

// orList renders "a, b or c".
func orList(xs []string) string {
	if len(xs) < 2 {
		return strings.Join(xs, "")
	}
	return strings.Join(xs[:len(xs)-1], ", ") + " or " + xs[len(xs)-1]
}
