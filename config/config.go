package config

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/jsec/jsec/checkers/ignore"
	"github.com/jsec/jsec/issue"
	"github.com/jsec/jsec/rules"
)

// Names are the default file names, looked up in this order at the
// scanned root.
var Names = []string{".jsec.yml", ".jsec.yaml"}

// maxFileBytes caps the size of a config file.
const maxFileBytes = 1 << 20

// Config is a parsed and validated configuration file. A nil pointer or a
// nil slice means "not in the file". The zero Config (and a nil *Config)
// is valid and changes nothing.
type Config struct {
	// Path is the file it was read from.
	Path    string
	Version int

	// Include and Exclude are gitignore-style patterns relative to the
	// scanned root; see Included.
	Include   []string
	Exclude   []string
	Languages []string // "c", "cpp", "rust"
	// FailOn is fail_on; 0 means "never".
	FailOn        *issue.Severity
	MinConfidence *float64
	// MaxFileSize is max_file_size in bytes.
	MaxFileSize *int64
	Jobs        *int

	Rules  Rules
	LLM    LLM
	Verify Verify
	Custom []CustomRule

	// Warnings are problems that do not stop the scan (a pattern that
	// matches no rule, a retired rule ID); the CLI prints them.
	Warnings []*Problem

	include *ignore.Matcher
}

// Rules is the rules: section.
type Rules struct {
	Disable []string
	// Enable, when not nil, lists the only rules that run.
	Enable []string
	// Severity maps a rule ID or pattern to the severity that replaces the
	// rule's default.
	Severity map[string]issue.Severity
}

// LLM is the llm: section, the verifier's model. It never holds a key.
type LLM struct {
	Provider     *string // "openai" or "anthropic"
	BaseURL      *string
	Model        *string
	Timeout      *time.Duration
	ToolProtocol *string // "native" or "text"
}

// Verify is the verify: section.
type Verify struct {
	MinSeverity        *issue.Severity
	MaxCandidates      *int // 0: no limit
	MaxTurns           *int
	MaxTokens          *int // 0: no limit
	CandidateTimeout   *time.Duration
	MaskSecrets        *bool
	AllowPolicyDismiss *bool
}

// CustomRule is a rule of the project's own: a catalogue row and its
// compiled pattern, matched per line of code.
type CustomRule struct {
	Rule    *rules.Rule
	Pattern *regexp.Regexp
	// Line is where the rule starts in the config file.
	Line int
}

// Find returns the default config file for a scan of root (a directory,
// or a file whose directory is used): .jsec.yml, else .jsec.yaml. ok is
// false when neither exists. A name that exists but cannot be examined is
// returned, so that Load reports why.
func Find(root string) (path string, ok bool) {
	dir := root
	if fi, err := os.Stat(root); err == nil && !fi.IsDir() {
		dir = filepath.Dir(root)
	}
	for _, name := range Names {
		p := filepath.Join(dir, name)
		if _, err := os.Stat(p); err == nil || !errors.Is(err, fs.ErrNotExist) {
			return p, true
		}
	}
	return "", false
}

// Resolve returns the configuration for a scan of root: the file named by
// explicit (the --config flag) when it is not empty, which must exist;
// otherwise the default file at root when there is one; otherwise an
// empty Config.
func Resolve(root, explicit string) (*Config, error) {
	if explicit != "" {
		return Load(explicit)
	}
	if p, ok := Find(root); ok {
		return Load(p)
	}
	return &Config{}, nil
}

// Load reads and validates the config file at path. Every problem is
// reported, each as a *Problem, joined with errors.Join.
func Load(path string) (*Config, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, openProblem(path, err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxFileBytes+1))
	if err != nil {
		return nil, &Problem{File: path, Msg: "cannot read the file: " + errText(err), Fix: "check that it is a readable file", Err: err}
	}
	if len(data) > maxFileBytes {
		return nil, &Problem{File: path, Msg: "file is larger than 1 MiB", Fix: "a config file is a few dozen lines; check the path"}
	}
	return Parse(path, data)
}

func openProblem(path string, err error) *Problem {
	if errors.Is(err, fs.ErrNotExist) {
		return &Problem{File: path, Msg: "config file does not exist", Fix: "check the path given to --config", Err: err}
	}
	return &Problem{File: path, Msg: "cannot open the file: " + errText(err), Fix: "check its permissions", Err: err}
}

func errText(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

// Parse validates data, the contents of the config file named name (used
// in messages only).
func Parse(name string, data []byte) (*Config, error) {
	d := &decoder{file: name}
	c := d.document(data)
	if len(d.problems) > 0 {
		var errs []error
		for _, p := range sorted(d.problems, d.dropped, d.droppedLine, name, "problems") {
			errs = append(errs, p)
		}
		return nil, errors.Join(errs...)
	}
	c.Path = name
	c.Warnings = sorted(d.warnings, d.warnDropped, d.warnDroppedLine, name, "warnings")
	if c.Include != nil {
		c.include, _ = ignore.Parse([]byte(strings.Join(c.Include, "\n")))
	}
	return c, nil
}

// Included reports whether the root-relative, slash-separated path rel of
// a file is selected by include: true when include is not set; otherwise
// the file or its deepest directory that a pattern matches decides, the
// last matching pattern winning ("!" excludes again).
func (c *Config) Included(rel string) bool {
	if c == nil || c.include == nil {
		return true
	}
	if inc, ok := c.include.Match(rel, false); ok {
		return inc
	}
	for dir := rel; ; {
		i := strings.LastIndexByte(dir, '/')
		if i <= 0 {
			return false
		}
		dir = dir[:i]
		if inc, ok := c.include.Match(dir, true); ok {
			return inc
		}
	}
}

// RuleEnabled reports whether rule id runs: rules.enable is unset or
// matches it, and rules.disable does not.
func (c *Config) RuleEnabled(id string) bool {
	if c == nil {
		return true
	}
	if c.Rules.Enable != nil && !matchAny(c.Rules.Enable, id) {
		return false
	}
	return !matchAny(c.Rules.Disable, id)
}

// SeverityFor returns the severity of rule id: rules.severity's entry for
// the ID, else its longest matching pattern, else def.
func (c *Config) SeverityFor(id string, def issue.Severity) issue.Severity {
	if c == nil {
		return def
	}
	if s, ok := c.Rules.Severity[id]; ok {
		return s
	}
	best := -1
	for pat, s := range c.Rules.Severity {
		if len(pat) > best && matchPattern(pat, id) {
			best, def = len(pat), s
		}
	}
	return def
}

// CustomRules returns the custom rules' catalogue rows, in file order.
func (c *Config) CustomRules() []*rules.Rule {
	if c == nil {
		return nil
	}
	out := make([]*rules.Rule, len(c.Custom))
	for i, cr := range c.Custom {
		out[i] = cr.Rule
	}
	return out
}

// LookupCustom returns the custom rule with the given ID, or nil.
func (c *Config) LookupCustom(id string) *CustomRule {
	if c == nil {
		return nil
	}
	for i := range c.Custom {
		if c.Custom[i].Rule.ID == id {
			return &c.Custom[i]
		}
	}
	return nil
}
