package sarif

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/jsec/jsec/issue"
	"github.com/jsec/jsec/report"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/golden")

// sourceDir holds the files the fixture's issues point into.
const sourceDir = "testdata/src"

// context returns lines line-3 … line+3 of a fixture source file, as the
// scanner would attach them.
func context(t testing.TB, file string, line int) *issue.Snippet {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(sourceDir, file))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	from, to := max(1, line-3), min(len(lines), line+3)
	return &issue.Snippet{StartLine: from, Lines: lines[from-1 : to]}
}

func fixture(t testing.TB) *report.Report {
	t.Helper()
	doc := "`gets` reads a line of any length into a fixed buffer.\n\n```c\nfgets(line, sizeof line, stdin);\n```"
	rules := []issue.RuleInfo{
		{ID: "c.buffer.gets", Title: "Use of gets", CWE: "CWE-242", Category: "buffer_overflow", Severity: issue.SeverityCritical,
			Confidence: 0.95, Description: "gets cannot bound its input.", Suggestion: "Use fgets.", Doc: doc},
		{ID: "c.buffer.strcpy", Title: "Unbounded string copy", CWE: "CWE-120", Category: "buffer_overflow",
			Severity: issue.SeverityHigh, Confidence: 0.8, Description: "strcpy does not check the destination size.", Suggestion: "Use strlcpy or snprintf."},
		{ID: "c.buffer.sprintf", Title: "Formatted write may overflow its destination", CWE: "CWE-787", Category: "buffer_overflow",
			Severity: issue.SeverityHigh, Confidence: 0.7, Description: "sprintf does not bound its output.", Suggestion: "Use snprintf."},
		{ID: "rust.unsafe.transmute", Title: "mem::transmute between types", CWE: "CWE-843", Category: "type_safety",
			Severity: issue.SeverityMedium, Confidence: 0.6, Description: "transmute reinterprets bits."},
		{ID: "rust.unsafe.block-no-safety", Title: "unsafe block without a SAFETY comment", CWE: "CWE-758", Category: "unsafe_code",
			Severity: issue.SeverityLow, Confidence: 0.5, Description: "unsafe block has no SAFETY comment.", Policy: true},
	}
	is := []issue.Issue{
		{ID: "a1", Rule: "c.buffer.gets", Title: "Use of gets", Language: "c", Category: "buffer_overflow", CWE: "CWE-242",
			File: "src/net.c", Line: 7, Column: 2, EndLine: 7, EndColumn: 12, Function: "read_request", Evidence: "gets(line);",
			Description: "gets() reads unbounded input into line", Suggestion: "Use fgets(line, sizeof line, stdin).",
			Confidence: 0.95, Severity: issue.SeverityCritical, Context: context(t, "src/net.c", 7),
			Verification: &issue.Verification{Verdict: issue.VerdictConfirmed, Confidence: 0.9, Reason: "line comes from stdin", Model: "qwen3"}},
		{ID: "a2", Rule: "c.buffer.strcpy", Title: "Unbounded string copy", Language: "c", Category: "buffer_overflow", CWE: "CWE-120",
			File: "src/net.c", Line: 8, Column: 2, EndLine: 8, EndColumn: 19, Function: "read_request", Evidence: "strcpy(out, line);",
			Description: "strcpy into out of unknown size", Confidence: 0.8, Severity: issue.SeverityHigh,
			Context: context(t, "src/net.c", 8), Baselined: true},
		{ID: "a3", Rule: "c.buffer.sprintf", Title: "Formatted write may overflow its destination", Language: "c", Category: "buffer_overflow",
			CWE: "CWE-787", File: "src/net.c", Line: 13, Column: 2, EndLine: 13, EndColumn: 30, Function: "log_request",
			Evidence: `sprintf(msg, "req=%s", req);`, Description: "sprintf into msg[32]", Confidence: 0.7, Severity: issue.SeverityHigh,
			Context:    context(t, "src/net.c", 13),
			Suppressed: &issue.Suppression{Kind: "inSource", Justification: "req is at most 16 bytes"}},
		{ID: "a4", Rule: "c.buffer.strcpy", Title: "Unbounded string copy", Language: "c", Category: "buffer_overflow", CWE: "CWE-120",
			File: "src/my file.c", Line: 4, Column: 5, EndLine: 4, EndColumn: 21, Function: "copy_name", Evidence: "strcpy(dst, src);",
			Description: "strcpy into dst of unknown size", Confidence: 0.8, Severity: issue.SeverityHigh,
			Context: context(t, "src/my file.c", 4),
			Verification: &issue.Verification{Verdict: issue.VerdictFalsePositive, Confidence: 0.85, Model: "qwen3",
				Reason: "every caller sizes dst from strlen(src)+1", Dismissed: true}},
		{ID: "a5", Rule: "rust.unsafe.transmute", Title: "mem::transmute between types", Language: "rust", Category: "type_safety",
			CWE: "CWE-843", File: "rust/lib.rs", Line: 5, Column: 14, EndLine: 5, EndColumn: 46, Function: "decode",
			Evidence: "unsafe { mem::transmute::<u32, f32>(bits) }", Description: "transmute from u32 to f32",
			Confidence: 0.6, Severity: issue.SeverityMedium, Context: context(t, "rust/lib.rs", 5),
			Verification: &issue.Verification{Verdict: issue.VerdictUncertain, Confidence: 0.5, Reason: "depends on the wire format"}},
		{ID: "a6", Rule: "rust.unsafe.block-no-safety", Title: "unsafe block without a SAFETY comment", Language: "rust",
			Category: "unsafe_code", CWE: "CWE-758", File: "rust/lib.rs", Line: 5, Column: 5, EndLine: 5, EndColumn: 11,
			Function: "decode", Evidence: "unsafe { mem::transmute::<u32, f32>(bits) }",
			Description: "unsafe block in decode has no // SAFETY: comment", Confidence: 0.5, Severity: issue.SeverityLow,
			Context: context(t, "rust/lib.rs", 5),
			Verification: &issue.Verification{Verdict: issue.VerdictFalsePositive, Confidence: 0.7, Reason: "trivially sound",
				Model: "qwen3", PolicyKept: true}},
		// A rule the catalogue does not describe, and no context.
		{ID: "a7", Rule: "custom.puts", Title: "puts of a request", Language: "c", Category: "logging", CWE: "CWE-117",
			File: "src/net.c", Line: 14, Column: 2, EndLine: 14, EndColumn: 12, Evidence: "puts(msg);",
			Description: "request logged unescaped", Confidence: 0.3, Severity: issue.SeverityLow},
	}
	return &report.Report{
		Tool:    report.Tool{Name: "jsec", Version: "v1.2.0", InformationURI: "https://github.com/jsec/jsec", Root: "/src/project"},
		Issues:  is,
		Summary: report.Summarize(is),
		Rules:   rules,
		Errors: []report.Error{
			{File: "vendor/big.c", Reason: "file too large", Kind: "skipped"},
			{File: "src/broken.c", Reason: "read: permission denied\nmore detail", Kind: "error"},
		},
	}
}

// goldenOptions renders the fixture the way 'jsec scan' should: with the
// files at hand, from a repository root above the scanned directory.
func goldenOptions() Options {
	return Options{
		Source:     os.DirFS(sourceDir),
		SourceRoot: "/src",
		HelpURI:    func(id string) string { return "https://github.com/jsec/jsec/blob/main/rules/docs/" + id + ".md" },
	}
}

// render writes r with o, checks the document against the SARIF schema,
// and decodes it.
func render(t *testing.T, o Options, r *report.Report) ([]byte, *sarifLog) {
	t.Helper()
	var b bytes.Buffer
	if err := o.Write(&b, r); err != nil {
		t.Fatal(err)
	}
	validate(t, b.Bytes())
	var doc sarifLog
	if err := json.Unmarshal(b.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Runs) != 1 {
		t.Fatalf("%d runs, want 1", len(doc.Runs))
	}
	return b.Bytes(), &doc
}

func TestGolden(t *testing.T) {
	for name, o := range map[string]Options{
		"report.sarif": goldenOptions(),
		// Write's defaults: hashes from the context lines, URIs relative
		// to the scanned root (it is not below the working directory).
		"report-defaults.sarif": {},
	} {
		t.Run(name, func(t *testing.T) {
			got, _ := render(t, o, fixture(t))
			path := filepath.Join("testdata", "golden", name)
			if *update {
				if err := os.WriteFile(path, got, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go test -update to create it)", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("%s differs from the output; run go test ./report/sarif -update and review the diff", path)
			}
		})
	}
}

func TestPackageWriteIsDefaultOptions(t *testing.T) {
	var a, b bytes.Buffer
	if err := Write(&a, fixture(t)); err != nil {
		t.Fatal(err)
	}
	if err := (Options{}).Write(&b, fixture(t)); err != nil {
		t.Fatal(err)
	}
	if a.String() != b.String() {
		t.Error("Write and Options{}.Write differ")
	}
	var w report.Writer = goldenOptions().Write // a method value is a report.Writer
	if err := w(&bytes.Buffer{}, fixture(t)); err != nil {
		t.Fatal(err)
	}
}

func TestRuleIndexPointsAtTheRule(t *testing.T) {
	r := fixture(t)
	// Catalogue order differs from issue order, and a rule appears twice.
	r.Rules = append([]issue.RuleInfo{r.Rules[4], r.Rules[2]}, r.Rules...)
	_, doc := render(t, Options{}, r)
	run := doc.Runs[0]
	seen := map[string]bool{}
	for _, rl := range run.Tool.Driver.Rules {
		if seen[rl.ID] {
			t.Errorf("rule %s listed twice", rl.ID)
		}
		seen[rl.ID] = true
	}
	if len(run.Results) != len(r.Issues) {
		t.Fatalf("%d results for %d issues", len(run.Results), len(r.Issues))
	}
	for _, res := range run.Results {
		if res.RuleIndex < 0 || res.RuleIndex >= len(run.Tool.Driver.Rules) || run.Tool.Driver.Rules[res.RuleIndex].ID != res.RuleID {
			t.Errorf("%s: ruleIndex %d does not point at its rule", res.RuleID, res.RuleIndex)
		}
	}
	if !seen["custom.puts"] {
		t.Error("a rule missing from the catalogue got no descriptor")
	}
}

func TestRuleDescriptors(t *testing.T) {
	_, doc := render(t, goldenOptions(), fixture(t))
	rules := map[string]rule{}
	for _, rl := range doc.Runs[0].Tool.Driver.Rules {
		rules[rl.ID] = rl
		if rl.Name == "" || rl.ShortDescription.Text == "" || rl.FullDescription.Text == "" || rl.Help.Text == "" || rl.Help.Markdown == "" {
			t.Errorf("%s: a required text is empty: %+v", rl.ID, rl)
		}
		if rl.Properties.Tags[0] != "security" {
			t.Errorf("%s: tags %v do not start with security", rl.ID, rl.Properties.Tags)
		}
		if u, err := url.Parse(rl.HelpURI); err != nil || u.Scheme != "https" {
			t.Errorf("%s: helpUri %q", rl.ID, rl.HelpURI)
		}
	}
	gets := rules["c.buffer.gets"]
	if got := strings.Join(gets.Properties.Tags, ","); got != "security,external/cwe/cwe-242,buffer_overflow" {
		t.Errorf("gets tags = %s", got)
	}
	if gets.Properties.SecuritySeverity != "9.5" || gets.Properties.Precision != "very-high" || gets.DefaultConfiguration.Level != "error" {
		t.Errorf("gets properties: %+v %+v", gets.Properties, gets.DefaultConfiguration)
	}
	if !strings.Contains(gets.Help.Markdown, "```c") || !strings.Contains(gets.Help.Markdown, "**Fix:** Use fgets.") ||
		!strings.Contains(gets.Help.Markdown, "https://cwe.mitre.org/data/definitions/242.html") {
		t.Errorf("gets help.markdown lacks the doc, the fix or the CWE link:\n%s", gets.Help.Markdown)
	}
	if strings.Contains(gets.Help.Text, "**") {
		t.Errorf("help.text carries Markdown emphasis: %q", gets.Help.Text)
	}
	long := issue.RuleInfo{ID: "x.long", Title: strings.Repeat("t", 2000), Description: strings.Repeat("d", 2000), CWE: "CWE-120, cwe-787"}
	rl := toRule(long)
	if n := len([]rune(rl.ShortDescription.Text)); n > maxDescription {
		t.Errorf("shortDescription has %d characters", n)
	}
	if n := len([]rune(rl.FullDescription.Text)); n > maxDescription {
		t.Errorf("fullDescription has %d characters", n)
	}
	if got := strings.Join(rl.Properties.Tags, ","); got != "security,external/cwe/cwe-120,external/cwe/cwe-787" {
		t.Errorf("tags for two CWEs = %s", got)
	}
}

func TestDriver(t *testing.T) {
	for _, c := range []struct{ version, semantic, info, wantInfo string }{
		{"v1.2.0", "1.2.0", "https://github.com/jsec/jsec", "https://github.com/jsec/jsec"},
		{"1.2.0-rc.1+build.5", "1.2.0-rc.1+build.5", "http://example.com/jsec", "http://example.com/jsec"},
		{"dev", "", "not a url", ""},
		{"1.2", "", "ftp://example.com/jsec", ""},
		{"(devel)", "", "javascript:alert(1)", ""},
		{"", "", "", ""},
	} {
		r := fixture(t)
		r.Tool.Version, r.Tool.InformationURI = c.version, c.info
		_, doc := render(t, Options{}, r)
		d := doc.Runs[0].Tool.Driver
		if d.Name != "jsec" || d.Version != c.version || d.SemanticVer != c.semantic || d.InformationURI != c.wantInfo {
			t.Errorf("version %q, uri %q: got %+v", c.version, c.info, d)
		}
	}
	r := fixture(t)
	r.Tool.Name = ""
	if _, doc := render(t, Options{HelpURI: func(string) string { return "/docs/x" }}, r); doc.Runs[0].Tool.Driver.Name != "jsec" ||
		doc.Runs[0].Tool.Driver.Rules[0].HelpURI != "" {
		t.Errorf("empty tool name or relative helpUri kept: %+v", doc.Runs[0].Tool.Driver.Rules[0])
	}
}

// strictURIRef is a path-only relative reference by RFC 3986: unreserved
// characters, sub-delimiters, ":", "@", "/" and percent-escapes.
var strictURIRef = regexp.MustCompile(`^(?:[A-Za-z0-9\-._~!$&'()*+,;=:@/]|%[0-9A-F]{2})*$`)

func TestURIs(t *testing.T) {
	for in, want := range map[string]string{
		"src/net.c":          "src/net.c",
		"./src/a b.c":        "src/a%20b.c",
		`src\win\x.c`:        "src/win/x.c",
		"c:odd.c":            "c%3Aodd.c",
		"ü/100%#?.c":         "%C3%BC/100%25%23%3F.c",
		"src//x/../y.c":      "src/y.c",
		"a+b/[x]@y;z,w=1&2$": "a+b/%5Bx%5D@y%3Bz%2Cw=1&2$",
	} {
		got := URI(in)
		if got != want {
			t.Errorf("URI(%q) = %q, want %q", in, got, want)
		}
		if !strictURIRef.MatchString(got) {
			t.Errorf("URI(%q) = %q has characters RFC 3986 does not allow unescaped", in, got)
		}
		u, err := url.Parse(got)
		if err != nil || u.Scheme != "" || u.Host != "" || strings.HasPrefix(got, "/") || strings.HasPrefix(got, "./") {
			t.Errorf("URI(%q) = %q is not a relative reference", in, got)
		}
		if back, _ := url.PathUnescape(got); back != path.Clean(strings.ReplaceAll(in, `\`, "/")) {
			t.Errorf("URI(%q) = %q does not decode back (%q)", in, got, back)
		}
	}
}

func TestLocationsAndSourceRoot(t *testing.T) {
	r := fixture(t)
	r.Issues = append(r.Issues, r.Issues[0], r.Issues[0])
	n := len(r.Issues)
	r.Issues[n-2].File = "/src/project/src/abs.c" // absolute, inside the source root
	r.Issues[n-1].File = "/elsewhere/x.c"         // absolute, outside it
	_, doc := render(t, Options{SourceRoot: "/src"}, r)
	run := doc.Runs[0]
	if got := run.OriginalURIBaseIDs[SourceRootID].URI; got != "file:///src/" {
		t.Errorf("originalUriBaseIds = %q", got)
	}
	if got := run.AutomationDetails.ID; got != "jsec/project/" {
		t.Errorf("automationDetails.id = %q", got)
	}
	uri := func(i int) artifactLoc { return run.Results[i].Locations[0].PhysicalLocation.ArtifactLocation }
	if a := uri(0); a.URI != "project/src/net.c" || a.URIBaseID != SourceRootID {
		t.Errorf("relative path: %+v", a)
	}
	if a := uri(3); a.URI != "project/src/my%20file.c" {
		t.Errorf("path with a space: %+v", a)
	}
	if a := uri(n - 2); a.URI != "project/src/abs.c" || a.URIBaseID != SourceRootID {
		t.Errorf("absolute path inside the root: %+v", a)
	}
	if a := uri(n - 1); a.URI != "file:///elsewhere/x.c" || a.URIBaseID != "" {
		t.Errorf("absolute path outside the root: %+v", a)
	}
	for _, res := range run.Results {
		reg := res.Locations[0].PhysicalLocation.Region
		if reg.StartLine < 1 || reg.StartColumn < 1 {
			t.Errorf("%s: region %+v is not 1-based", res.RuleID, reg)
		}
	}

	// A scanned root outside the source root is its own base; no root at
	// all means no base.
	_, doc = render(t, Options{SourceRoot: "/other"}, fixture(t))
	if got := doc.Runs[0].OriginalURIBaseIDs[SourceRootID].URI; got != "file:///src/project/" || doc.Runs[0].AutomationDetails.ID != "jsec/" {
		t.Errorf("root outside the source root: base %q, id %q", got, doc.Runs[0].AutomationDetails.ID)
	}
	r = fixture(t)
	r.Tool.Root = ""
	_, doc = render(t, Options{}, r)
	if doc.Runs[0].OriginalURIBaseIDs != nil || doc.Runs[0].Results[0].Locations[0].PhysicalLocation.ArtifactLocation.URIBaseID != "" {
		t.Error("a uriBaseId without a known root")
	}
	// An explicit category wins.
	_, doc = render(t, Options{SourceRoot: "/src", Category: "/c-cpp/"}, fixture(t))
	if got := doc.Runs[0].AutomationDetails.ID; got != "jsec/c-cpp/" {
		t.Errorf("explicit category: id %q", got)
	}
}

func TestRegions(t *testing.T) {
	for _, c := range []struct {
		is   issue.Issue
		want region
	}{
		{issue.Issue{Line: 3, Column: 2, EndLine: 3, EndColumn: 9}, region{StartLine: 3, StartColumn: 2, EndLine: 3, EndColumn: 9}},
		{issue.Issue{Line: 3, Column: 2, EndLine: 5, EndColumn: 1}, region{StartLine: 3, StartColumn: 2, EndLine: 5, EndColumn: 1}},
		{issue.Issue{Line: 3, Column: 2, EndLine: 3, EndColumn: 2}, region{StartLine: 3, StartColumn: 2}},
		{issue.Issue{Line: 0, Column: 0}, region{StartLine: 1, StartColumn: 1}},
		{issue.Issue{Line: 4, Column: 1, EndLine: 2, EndColumn: 7}, region{StartLine: 4, StartColumn: 1}},
	} {
		if got := toRegion(&c.is); *got != c.want {
			t.Errorf("%+v: region %+v, want %+v", c.is, *got, c.want)
		}
	}
}

func TestSeverityMapping(t *testing.T) {
	for s, want := range map[issue.Severity]struct {
		lo, hi float64
		level  string
	}{
		issue.SeverityCritical: {9.0, 10.0, "error"},
		issue.SeverityHigh:     {7.0, 8.9, "error"},
		issue.SeverityMedium:   {4.0, 6.9, "warning"},
		issue.SeverityLow:      {0.1, 3.9, "note"},
	} {
		var v float64
		if _, err := fmt.Sscan(SecuritySeverity(s), &v); err != nil {
			t.Fatalf("%v: security-severity %q is not a number", s, SecuritySeverity(s))
		}
		if v < want.lo || v > want.hi {
			t.Errorf("%v: security-severity %v outside [%v, %v]", s, v, want.lo, want.hi)
		}
		if Level(s) != want.level {
			t.Errorf("%v: level %s, want %s", s, Level(s), want.level)
		}
	}
	if SecuritySeverity(0) != SecuritySeverity(issue.SeverityMedium) || Level(0) != "warning" {
		t.Error("an unset severity is not treated as medium")
	}
	for c, want := range map[float64]string{0.95: "very-high", 0.9: "very-high", 0.8: "high", 0.6: "medium", 0.3: "low"} {
		if got := Precision(c); got != want {
			t.Errorf("Precision(%v) = %s, want %s", c, got, want)
		}
	}
	_, doc := render(t, Options{}, fixture(t))
	for _, res := range doc.Runs[0].Results {
		want := map[string]string{"critical": "error", "high": "error", "medium": "warning", "low": "note"}[res.Properties.Severity]
		if res.Level != want {
			t.Errorf("%s (%s): level %s", res.RuleID, res.Properties.Severity, res.Level)
		}
	}
}

func TestSuppressions(t *testing.T) {
	_, doc := render(t, Options{}, fixture(t))
	byID := map[string]result{}
	for _, res := range doc.Runs[0].Results {
		byID[res.Fingerprints[JsecIDKey]] = res
	}
	for id, want := range map[string]suppression{
		"a2": {Kind: "external", Status: "accepted", Justification: "baseline", Properties: suppressionFrom{Source: "baseline"}},
		"a3": {Kind: "inSource", Status: "accepted", Justification: "req is at most 16 bytes", Properties: suppressionFrom{Source: "jsec:ignore"}},
		"a4": {Kind: "external", Status: "accepted", Justification: "every caller sizes dst from strlen(src)+1",
			Properties: suppressionFrom{Source: "verifier", Model: "qwen3"}},
	} {
		got := byID[id].Suppressions
		if len(got) != 1 || got[0] != want {
			t.Errorf("%s: suppressions %+v, want [%+v]", id, got, want)
		}
		if byID[id].Properties.Gating {
			t.Errorf("%s: a suppressed result is marked gating", id)
		}
	}
	// Confirmed, uncertain and policy-kept false positives still count.
	for _, id := range []string{"a1", "a5", "a6", "a7"} {
		if len(byID[id].Suppressions) != 0 || !byID[id].Properties.Gating {
			t.Errorf("%s: suppressions %+v, gating %v", id, byID[id].Suppressions, byID[id].Properties.Gating)
		}
	}
	if v := byID["a6"].Properties.Verification; v == nil || v.Verdict != "false_positive" || !v.PolicyKept {
		t.Errorf("a6: verification %+v", v)
	}
	if v := byID["a1"].Properties.Verification; v == nil || v.Verdict != "confirmed" || v.Model != "qwen3" || v.Reason == "" {
		t.Errorf("a1: verification %+v", v)
	}
	if p := byID["a1"].Properties; p.Function != "read_request" || p.Confidence != 0.95 {
		t.Errorf("a1: properties %+v", p)
	}

	// One issue can be suppressed in several ways at once.
	is := fixture(t).Issues[3]
	is.Baselined = true
	is.Suppressed = &issue.Suppression{Kind: "bogus", Justification: ""}
	got := suppressions(&is)
	if len(got) != 3 || got[0].Kind != "inSource" || got[0].Justification == "" || got[1].Justification != "baseline" || got[2].Properties.Source != "verifier" {
		t.Errorf("three suppressions: %+v", got)
	}
}

func TestFingerprints(t *testing.T) {
	_, withFiles := render(t, goldenOptions(), fixture(t))
	_, fromContext := render(t, Options{}, fixture(t))
	differ := 0
	for i, res := range withFiles.Runs[0].Results {
		id := res.Fingerprints[JsecIDKey]
		if id == "" || res.PartialFingerprints[JsecIDKey] != id {
			t.Errorf("result %d: jsec id missing: %+v %+v", i, res.Fingerprints, res.PartialFingerprints)
		}
		h := res.PartialFingerprints[LineHashKey]
		if h == "" {
			t.Errorf("%s: no primaryLocationLineHash with the files at hand", id)
			continue
		}
		ctx := fromContext.Runs[0].Results[i].PartialFingerprints[LineHashKey]
		is := fixture(t).Issues[i]
		switch {
		case is.Context == nil: // upload-sarif will compute it
			if ctx != "" {
				t.Errorf("%s: a hash without context: %q", id, ctx)
			}
		case windowFits(t, &is):
			if ctx != h {
				t.Errorf("%s: context hash %q, file hash %q", id, ctx, h)
			}
		default:
			// The 100-character window runs past the context: the value
			// is jsec's own, not GitHub's (see Options.Source).
			if ctx == h || ctx == "" {
				t.Errorf("%s: context hash %q, file hash %q: want a different, non-empty value", id, ctx, h)
			}
			differ++
		}
	}
	if differ == 0 {
		t.Error("the fixture no longer shows a context too short for the window")
	}
	// The file-based value is the one the whole-file hash gives that line.
	data, _ := os.ReadFile(filepath.Join(sourceDir, "src/net.c"))
	if got, want := withFiles.Runs[0].Results[0].PartialFingerprints[LineHashKey], issue.LineHashes(data)[6]; got != want {
		t.Errorf("gets on line 7: %q, want %q", got, want)
	}
}

// windowFits reports whether the issue's context holds the whole hash
// window of its line: 100 kept characters from the line's start, or the
// rest of the file.
func windowFits(t *testing.T, is *issue.Issue) bool {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(sourceDir, is.File))
	if err != nil {
		t.Fatal(err)
	}
	fileLines := strings.Count(strings.TrimSuffix(string(data), "\n"), "\n") + 1
	c := is.Context
	if c.StartLine+len(c.Lines)-1 >= fileLines {
		return true
	}
	rest := strings.Join(c.Lines[is.Line-c.StartLine:], "\n") + "\n"
	return len(strings.NewReplacer(" ", "", "\t", "").Replace(rest)) >= 100 // the hash window (issue.HashLines)
}

func TestTruncation(t *testing.T) {
	r := fixture(t)
	base := r.Issues
	r.Issues = nil
	// 10 issues: the 4 kept must be the gating ones with the highest
	// severity, then confidence, in their original order.
	for i, c := range []struct {
		sev    issue.Severity
		conf   float64
		gating bool
	}{
		{issue.SeverityLow, 0.9, true}, {issue.SeverityCritical, 0.5, false}, {issue.SeverityHigh, 0.6, true},
		{issue.SeverityMedium, 0.9, true}, {issue.SeverityCritical, 0.4, true}, {issue.SeverityHigh, 0.9, true},
		{issue.SeverityHigh, 0.5, true}, {issue.SeverityLow, 0.2, true}, {issue.SeverityCritical, 0.9, false},
		{issue.SeverityMedium, 0.95, true},
	} {
		is := base[0]
		is.ID, is.Severity, is.Confidence, is.Verification = fmt.Sprintf("t%d", i), c.sev, c.conf, nil
		if !c.gating {
			is.Baselined = true
		}
		r.Issues = append(r.Issues, is)
	}
	_, doc := render(t, Options{MaxResults: 4}, r)
	var ids []string
	for _, res := range doc.Runs[0].Results {
		ids = append(ids, res.Fingerprints[JsecIDKey])
	}
	if got := strings.Join(ids, ","); got != "t2,t4,t5,t6" {
		t.Errorf("kept %s, want t2,t4,t5,t6", got)
	}
	notes := doc.Runs[0].Invocations[0].Notifications
	if len(notes) != 2 || notes[0].Descriptor.ID != "jsec.sarif.truncated" || notes[0].Level != "warning" {
		t.Fatalf("notifications: %+v", notes)
	}
	if notes[0].Properties["droppedResults"] != 6.0 || notes[0].Properties["totalResults"] != 10.0 ||
		!strings.Contains(notes[0].Message.Text, "6 lowest-ranked") {
		t.Errorf("truncation notice: %+v", notes[0])
	}
	if notes[1].Descriptor.ID != "jsec.file.error" || !strings.Contains(notes[1].Message.Text, "src/broken.c") ||
		strings.Contains(notes[1].Message.Text, "more detail") {
		t.Errorf("file error notice: %+v", notes[1])
	}
	// Without truncation there is no notice.
	_, doc = render(t, Options{MaxResults: 10}, r)
	if len(doc.Runs[0].Results) != 10 || len(doc.Runs[0].Invocations[0].Notifications) != 1 {
		t.Errorf("no truncation expected: %d results, %+v", len(doc.Runs[0].Results), doc.Runs[0].Invocations[0].Notifications)
	}
}

// GitHub rejects a run with more than 25,000 results; the default cap is
// exactly that.
func TestTruncationAtGitHubLimit(t *testing.T) {
	if MaxResults != 25000 {
		t.Fatalf("MaxResults = %d, GitHub's limit is 25000", MaxResults)
	}
	r := &report.Report{Tool: report.Tool{Name: "jsec", Version: "1.0.0"}}
	r.Issues = make([]issue.Issue, MaxResults+1)
	for i := range r.Issues {
		r.Issues[i] = issue.Issue{ID: fmt.Sprint(i), Rule: "c.buffer.gets", File: "a.c", Line: i + 1, Column: 1,
			Severity: issue.SeverityHigh, Confidence: 0.5, Description: "d"}
	}
	r.Issues[7].Severity = issue.SeverityLow // the one to drop
	var b bytes.Buffer
	if err := Write(&b, r); err != nil {
		t.Fatal(err)
	}
	var doc sarifLog
	if err := json.Unmarshal(b.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	run := doc.Runs[0]
	if len(run.Results) != MaxResults {
		t.Fatalf("%d results, want %d", len(run.Results), MaxResults)
	}
	for _, res := range run.Results {
		if res.Fingerprints[JsecIDKey] == "7" {
			t.Fatal("the low-severity issue was kept over high ones")
		}
	}
	if n := run.Invocations[0].Notifications; len(n) != 1 || n[0].Properties["droppedResults"] != 1.0 {
		t.Errorf("notifications: %+v", n)
	}
}

func TestEmptyReport(t *testing.T) {
	_, doc := render(t, Options{}, &report.Report{})
	run := doc.Runs[0]
	if run.Results == nil || run.Tool.Driver.Rules == nil || run.Tool.Driver.Name != "jsec" || run.AutomationDetails.ID != "jsec/" {
		t.Errorf("empty report: %+v", run)
	}
}
