// Package sarif renders a report as SARIF 2.1.0, the format GitHub code
// scanning and most CI dashboards ingest. Only the part of the schema jsec
// fills is modelled.
//
// The document is shaped for GitHub's upload to accept it as it is: one run;
// every rule with a name, descriptions, help, security-severity, precision
// and CWE tags; results with a ruleIndex that points at their rule,
// repo-relative percent-encoded URIs, 1-based regions and a
// primaryLocationLineHash computed the way upload-sarif computes it (see
// linehash.go); suppressed, baselined and verifier-dismissed issues kept as
// results with suppressions; at most MaxResults results, the rest dropped
// with a warning in the run's invocation.
package sarif

import (
	"bytes"
	"io"
	"io/fs"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"sync"

	"github.com/jsec/jsec/issue"
	"github.com/jsec/jsec/report"
)

// Schema and version of the documents Write produces.
const (
	SchemaURI = "https://json.schemastore.org/sarif-2.1.0.json"
	Version   = "2.1.0"
)

// MaxResults is the number of results GitHub accepts in one run; an upload
// with more is rejected whole.
const MaxResults = 25000

// SourceRootID is the uriBaseId of every result location.
const SourceRootID = "%SRCROOT%"

// Options tunes the document. The zero value is what Write uses.
type Options struct {
	// Source holds the scanned files, addressed by the issues' root-relative
	// paths (os.DirFS(root) for a scan of root). With it, each result's
	// primaryLocationLineHash is computed from the whole file, exactly as
	// GitHub's upload-sarif computes it. Without it, or when a file cannot
	// be read, the hash is computed from the issue's Context lines as if
	// they were the whole file: the same value as long as the context runs
	// on for 100 non-blank characters after the flagged line (or to the end
	// of the file) and no earlier line of the file has the same hash;
	// otherwise it differs, upload-sarif keeps ours and logs a warning, and
	// alerts are tracked by the context-based value instead. Issues without
	// Context then get no primaryLocationLineHash, and upload-sarif fills it in.
	Source fs.FS
	// SourceRoot is the directory result URIs are relative to: the
	// repository root, which GitHub resolves them against. The default is
	// the working directory when the scanned root lies inside it (CodeQL's
	// --source-root default), else the scanned root. A scanned root that is
	// not inside SourceRoot is used itself.
	SourceRoot string
	// Category goes into the run's automationDetails.id as
	// "jsec/<category>/". GitHub keeps one set of alerts per tool and
	// category, so two uploads for the same commit must differ in it. The
	// default is the scanned root's path below SourceRoot ("services/api"
	// for `jsec scan services/api` from the repository root), none when
	// the whole source root is scanned: the id is then "jsec/".
	Category string
	// MaxResults caps the results; 0 means MaxResults. When there are more
	// issues, the run keeps the gating ones first, then the most severe and
	// the most confident, and a warning notification says how many were left
	// out (report.json still has them all).
	MaxResults int
	// HelpURI, when set, returns the documentation page of a rule. Values
	// that are not absolute http(s) URLs are left out.
	HelpURI func(ruleID string) string
}

type sarifLog struct {
	Schema  string `json:"$schema"`
	Version string `json:"version"`
	Runs    []run  `json:"runs"`
}

type run struct {
	Tool               tool                   `json:"tool"`
	Invocations        []invocation           `json:"invocations"`
	AutomationDetails  automationDetails      `json:"automationDetails"`
	OriginalURIBaseIDs map[string]artifactLoc `json:"originalUriBaseIds,omitempty"`
	ColumnKind         string                 `json:"columnKind"`
	Results            []result               `json:"results"`
}

type tool struct {
	Driver driver `json:"driver"`
}

type driver struct {
	Name           string `json:"name"`
	Version        string `json:"version,omitempty"`
	SemanticVer    string `json:"semanticVersion,omitempty"`
	InformationURI string `json:"informationUri,omitempty"`
	Rules          []rule `json:"rules"`
}

type automationDetails struct {
	ID string `json:"id"`
}

type invocation struct {
	ExecutionSuccessful bool           `json:"executionSuccessful"`
	Notifications       []notification `json:"toolExecutionNotifications,omitempty"`
}

type notification struct {
	Level      string         `json:"level"`
	Message    message        `json:"message"`
	Descriptor *descriptorRef `json:"descriptor,omitempty"`
	Locations  []location     `json:"locations,omitempty"`
	Properties map[string]any `json:"properties,omitempty"`
}

type descriptorRef struct {
	ID string `json:"id"`
}

type message struct {
	Text     string `json:"text"`
	Markdown string `json:"markdown,omitempty"`
}

// Write renders r as SARIF 2.1.0 with the default Options: the
// primaryLocationLineHash values come from the issues' Context lines (see
// Options.Source for when they match GitHub's).
func Write(w io.Writer, r *report.Report) error { return Options{}.Write(w, r) }

// Write renders r as SARIF 2.1.0. A method value such as
// sarif.Options{Source: os.DirFS(root)}.Write is a report.Writer.
func (o Options) Write(w io.Writer, r *report.Report) error {
	log := o.log(r)
	var buf bytes.Buffer
	buf.Grow(4096 + 2048*len(log.Runs[0].Tool.Driver.Rules))
	if err := encodeLog(&buf, log); err != nil {
		return err
	}
	_, err := w.Write(buf.Bytes())
	return err
}

// log builds the SARIF log of r.
func (o Options) log(r *report.Report) sarifLog {
	rules, index := ruleList(r, o.HelpURI)
	loc := o.locator(r.Tool.Root)
	limit := o.MaxResults
	if limit <= 0 {
		limit = MaxResults
	}
	kept := capResults(r.Issues, limit)
	hashes := fileLineHashes(o.Source, kept)
	results := make([]result, 0, len(kept))
	for _, is := range kept {
		results = append(results, toResult(is, index[is.Rule], loc, hashes))
	}
	rn := run{
		Tool: tool{Driver: driver{
			Name: nonEmpty(r.Tool.Name, "jsec"), Version: r.Tool.Version, SemanticVer: semver(r.Tool.Version),
			InformationURI: httpURL(r.Tool.InformationURI), Rules: rules,
		}},
		Invocations:       []invocation{toInvocation(r, len(r.Issues)-len(kept), limit, loc)},
		AutomationDetails: automationDetails{ID: automationID(o.Category, loc.category)},
		ColumnKind:        "unicodeCodePoints",
		Results:           results,
	}
	if loc.rootURI != "" {
		rn.OriginalURIBaseIDs = map[string]artifactLoc{SourceRootID: {URI: loc.rootURI}}
	}
	return sarifLog{Schema: SchemaURI, Version: Version, Runs: []run{rn}}
}

// automationID builds runs[].automationDetails.id: "jsec/" plus the
// category and a slash, which GitHub reads as a category with no run id.
func automationID(explicit, derived string) string {
	c := strings.Trim(explicit, "/")
	if explicit == "" {
		c = derived
	}
	if c == "" {
		return "jsec/"
	}
	return "jsec/" + c + "/"
}

func toInvocation(r *report.Report, dropped, limit int, loc locator) invocation {
	inv := invocation{ExecutionSuccessful: true}
	if dropped > 0 {
		inv.Notifications = append(inv.Notifications, notification{
			Level: "warning",
			Message: message{Text: itoa(len(r.Issues)) + " issues found, but a SARIF run holds at most " + itoa(limit) +
				" results for GitHub code scanning: the " + itoa(dropped) +
				" lowest-ranked (non-gating first, then lowest severity and confidence) are not in this file. report.json lists them all."},
			Descriptor: &descriptorRef{ID: "jsec.sarif.truncated"},
			Properties: map[string]any{"droppedResults": dropped, "totalResults": len(r.Issues), "maxResults": limit},
		})
	}
	for _, e := range r.Errors {
		if e.Kind != "error" {
			continue // skipped files are jsec's choice, listed in report.json
		}
		n := notification{
			Level:      "warning",
			Message:    message{Text: "could not analyse " + e.File + ": " + firstLine(e.Reason)},
			Descriptor: &descriptorRef{ID: "jsec.file.error"},
		}
		if e.File != "" {
			n.Locations = []location{{PhysicalLocation: physicalLocation{ArtifactLocation: loc.artifact(e.File)}}}
		}
		inv.Notifications = append(inv.Notifications, n)
	}
	return inv
}

// locator maps root-relative issue paths onto result URIs.
type locator struct {
	// prefix is the scanned root's path below the source root, with a
	// trailing slash ("" when they are the same or unknown).
	prefix string
	// rootURI is the source root as a file URI ending in "/", or "".
	rootURI string
	// sourceRoot is the absolute source root, or "".
	sourceRoot string
	// category is the default automation category.
	category string
}

func (o Options) locator(root string) locator {
	if root == "" {
		return locator{}
	}
	scanned, err := filepath.Abs(filepath.FromSlash(root))
	if err != nil {
		return locator{}
	}
	src := o.SourceRoot
	if src == "" {
		if wd, err := os.Getwd(); err == nil {
			src = wd
		}
	}
	rel := "."
	if src != "" {
		if abs, err := filepath.Abs(src); err == nil {
			src = abs
			if r, err := filepath.Rel(src, scanned); err == nil && below(r) {
				rel = r
			}
		}
	}
	if rel == "." {
		src = scanned
	}
	l := locator{rootURI: fileURI(src, true), sourceRoot: src}
	if rel != "." {
		l.category = filepath.ToSlash(rel)
		l.prefix = l.category + "/"
	}
	return l
}

// below reports whether a path made by filepath.Rel stays inside its base.
func below(rel string) bool {
	return rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// artifact returns the artifactLocation of a root-relative path.
func (l locator) artifact(file string) artifactLoc {
	f := strings.ReplaceAll(file, "\\", "/")
	if filepath.IsAbs(file) || strings.HasPrefix(f, "/") {
		if l.sourceRoot != "" {
			if rel, err := filepath.Rel(l.sourceRoot, file); err == nil && below(rel) {
				return l.relative(filepath.ToSlash(rel))
			}
		}
		return artifactLoc{URI: fileURI(file, false)}
	}
	return l.relative(l.prefix + f)
}

func (l locator) relative(p string) artifactLoc {
	a := artifactLoc{URI: URI(p)}
	if l.rootURI != "" {
		a.URIBaseID = SourceRootID
	}
	return a
}

// URI turns a '/'-separated relative path into a relative URI reference:
// cleaned, no leading "./", each segment percent-encoded (":" too, so that
// a first segment is never read as a scheme).
func URI(rel string) string {
	rel = path.Clean(strings.ReplaceAll(rel, "\\", "/"))
	rel = strings.TrimPrefix(rel, "./")
	parts := strings.Split(rel, "/")
	for i, p := range parts {
		parts[i] = strings.ReplaceAll(url.PathEscape(p), ":", "%3A")
	}
	return strings.Join(parts, "/")
}

// fileURI turns an absolute path into a file URI; a directory's ends in
// "/", as originalUriBaseIds requires.
func fileURI(p string, dir bool) string {
	s := filepath.ToSlash(p)
	if !strings.HasPrefix(s, "/") {
		s = "/" + s // Windows: C:/x → /C:/x
	}
	if dir && !strings.HasSuffix(s, "/") {
		s += "/"
	}
	return (&url.URL{Scheme: "file", Path: s}).String()
}

// httpURL returns u when it is an absolute http(s) URL, else "".
func httpURL(u string) string {
	p, err := url.Parse(u)
	if err != nil || (p.Scheme != "http" && p.Scheme != "https") || p.Host == "" {
		return ""
	}
	return p.String()
}

// semverRE is the regular expression semver.org recommends.
var semverRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)` +
		`(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?` +
		`(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?$`)
})

// semver returns v without a leading "v" when that is a semantic version.
func semver(v string) string {
	v = strings.TrimPrefix(v, "v")
	if semverRE().MatchString(v) {
		return v
	}
	return ""
}

func nonEmpty(s ...string) string {
	for _, x := range s {
		if strings.TrimSpace(x) != "" {
			return x
		}
	}
	return "(none)"
}

func firstLine(s string) string {
	if i := strings.IndexAny(s, "\r\n"); i >= 0 {
		return s[:i]
	}
	return s
}

// severityOf returns s, or medium for an unset severity.
func severityOf(s issue.Severity) issue.Severity {
	if s < issue.SeverityLow || s > issue.SeverityCritical {
		return issue.SeverityMedium
	}
	return s
}
