package sarif

import (
	"io/fs"
	"path"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/jsec/jsec/issue"
)

type result struct {
	RuleID              string            `json:"ruleId"`
	RuleIndex           int               `json:"ruleIndex"`
	Level               string            `json:"level"`
	Message             message           `json:"message"`
	Locations           []location        `json:"locations,omitempty"`
	PartialFingerprints map[string]string `json:"partialFingerprints"`
	Fingerprints        map[string]string `json:"fingerprints,omitempty"`
	Suppressions        []suppression     `json:"suppressions,omitempty"`
	Properties          resultProps       `json:"properties"`
}

type location struct {
	PhysicalLocation physicalLocation `json:"physicalLocation"`
}

type physicalLocation struct {
	ArtifactLocation artifactLoc `json:"artifactLocation"`
	Region           *region     `json:"region,omitempty"`
}

type artifactLoc struct {
	URI       string `json:"uri"`
	URIBaseID string `json:"uriBaseId,omitempty"`
}

type region struct {
	StartLine   int      `json:"startLine"`
	StartColumn int      `json:"startColumn"`
	EndLine     int      `json:"endLine,omitempty"`
	EndColumn   int      `json:"endColumn,omitempty"`
	Snippet     *message `json:"snippet,omitempty"`
}

type suppression struct {
	Kind          string          `json:"kind"`
	Status        string          `json:"status"`
	Justification string          `json:"justification"`
	Properties    suppressionFrom `json:"properties"`
}

// suppressionFrom says which jsec mechanism suppressed the result, since
// baselines and verifier dismissals share SARIF's kind "external".
type suppressionFrom struct {
	Source string `json:"source"`
	Model  string `json:"model,omitempty"`
}

type resultProps struct {
	Confidence   float64            `json:"confidence"`
	Severity     string             `json:"severity"`
	Category     string             `json:"category,omitempty"`
	Language     string             `json:"language,omitempty"`
	Function     string             `json:"function,omitempty"`
	Gating       bool               `json:"gating"`
	Verification *verificationProps `json:"verification,omitempty"`
}

type verificationProps struct {
	Verdict    string  `json:"verdict"`
	Confidence float64 `json:"confidence"`
	Reason     string  `json:"reason,omitempty"`
	Model      string  `json:"model,omitempty"`
	Severity   string  `json:"severity,omitempty"`
	Dismissed  bool    `json:"dismissed,omitempty"`
	PolicyKept bool    `json:"policyKept,omitempty"`
	Error      string  `json:"error,omitempty"`
}

// Fingerprint keys: GitHub's line hash, and jsec's own stable id (see
// issue.Fingerprint) under a versioned name.
const (
	LineHashKey = "primaryLocationLineHash"
	JsecIDKey   = "jsecId/v" + issue.FingerprintVersion
)

func toResult(is issue.Issue, ruleIndex int, loc locator, hashes map[string]map[int]string) result {
	msg := nonEmpty(is.Description, is.Title, is.Rule)
	if is.Suggestion != "" {
		msg = strings.TrimRight(msg, ". ") + ". Suggestion: " + is.Suggestion
	}
	res := result{
		RuleID: is.Rule, RuleIndex: ruleIndex, Level: Level(is.Severity),
		Message:             message{Text: msg},
		PartialFingerprints: map[string]string{},
		Suppressions:        suppressions(&is),
		Properties: resultProps{
			Confidence: is.Confidence, Severity: severityOf(is.Severity).String(), Category: is.Category,
			Language: is.Language, Function: is.Function, Gating: is.Gating(), Verification: verification(is.Verification),
		},
	}
	if is.File != "" {
		res.Locations = []location{{PhysicalLocation: physicalLocation{
			ArtifactLocation: loc.artifact(is.File), Region: toRegion(&is),
		}}}
		if h := lineHash(&is, hashes); h != "" {
			res.PartialFingerprints[LineHashKey] = h
		}
	}
	if is.ID != "" {
		// The id is a complete identity, so it also goes where the SARIF
		// spec puts those; consumers that read only partial fingerprints
		// find it there.
		res.PartialFingerprints[JsecIDKey] = is.ID
		res.Fingerprints = map[string]string{JsecIDKey: is.ID}
	}
	return res
}

func toRegion(is *issue.Issue) *region {
	reg := &region{StartLine: max(1, is.Line), StartColumn: max(1, is.Column)}
	if is.EndLine > reg.StartLine || is.EndLine == reg.StartLine && is.EndColumn > reg.StartColumn {
		reg.EndLine = is.EndLine
		reg.EndColumn = max(1, is.EndColumn)
	}
	if is.Evidence != "" {
		reg.Snippet = &message{Text: is.Evidence}
	}
	return reg
}

// suppressions lists why the issue does not gate: a justified jsec:ignore
// directive (inSource), the baseline (external, "baseline") and a
// verifier's dismissal (external, the verdict's reason). All are accepted.
func suppressions(is *issue.Issue) []suppression {
	var out []suppression
	if s := is.Suppressed; s != nil {
		kind := s.Kind
		if kind != "inSource" && kind != "external" {
			kind = "inSource"
		}
		out = append(out, suppression{Kind: kind, Status: "accepted",
			Justification: nonEmpty(s.Justification, "jsec:ignore"), Properties: suppressionFrom{Source: "jsec:ignore"}})
	}
	if is.Baselined {
		out = append(out, suppression{Kind: "external", Status: "accepted", Justification: "baseline",
			Properties: suppressionFrom{Source: "baseline"}})
	}
	if is.Dismissed() {
		v := is.Verification
		out = append(out, suppression{Kind: "external", Status: "accepted",
			Justification: nonEmpty(v.Reason, "the verifier judged it a false positive"),
			Properties:    suppressionFrom{Source: "verifier", Model: v.Model}})
	}
	return out
}

func verification(v *issue.Verification) *verificationProps {
	if v == nil {
		return nil
	}
	return &verificationProps{
		Verdict: string(v.Verdict), Confidence: v.Confidence, Reason: v.Reason, Model: v.Model,
		Severity: v.Severity, Dismissed: v.Dismissed, PolicyKept: v.PolicyKept, Error: v.Error,
	}
}

// capResults returns at most limit issues, in their original order. When
// it must drop some, it keeps gating issues first, then the most severe,
// then the most confident.
func capResults(issues []issue.Issue, limit int) []issue.Issue {
	if len(issues) <= limit {
		return issues
	}
	order := make([]int, len(issues))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool {
		x, y := &issues[order[a]], &issues[order[b]]
		if gx, gy := x.Gating(), y.Gating(); gx != gy {
			return gx
		}
		if sx, sy := severityOf(x.Severity), severityOf(y.Severity); sx != sy {
			return sx > sy
		}
		return x.Confidence > y.Confidence
	})
	keep := order[:limit]
	sort.Ints(keep)
	out := make([]issue.Issue, 0, limit)
	for _, i := range keep {
		out = append(out, issues[i])
	}
	return out
}

// fileLineHashes reads each file that has issues once from src and
// returns the primaryLocationLineHash of every flagged line, by file and
// line. Files that cannot be read are left out.
func fileLineHashes(src fs.FS, issues []issue.Issue) map[string]map[int]string {
	if src == nil {
		return nil
	}
	want := map[string]map[int]bool{}
	for _, is := range issues {
		if is.File == "" || is.LineHash != "" {
			continue // the scan hashed it while it had the file
		}
		if want[is.File] == nil {
			want[is.File] = map[int]bool{}
		}
		want[is.File][max(1, is.Line)] = true
	}
	// Files are hashed in parallel, each only as far as its last result
	// line (the occurrence counts need every line before it).
	type job struct {
		file  string
		lines map[int]bool
	}
	jobs := make(chan job)
	var mu sync.Mutex
	var wg sync.WaitGroup
	out := map[string]map[int]string{}
	for range min(runtime.GOMAXPROCS(0), len(want)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range jobs {
				if got, ok := hashFile(src, j.file, j.lines); ok {
					mu.Lock()
					out[j.file] = got
					mu.Unlock()
				}
			}
		}()
	}
	for file, lines := range want {
		jobs <- job{file, lines}
	}
	close(jobs)
	wg.Wait()
	return out
}

// hashFile returns the line hashes of the wanted lines of one file.
func hashFile(src fs.FS, file string, lines map[int]bool) (map[int]string, bool) {
	name := path.Clean(strings.TrimPrefix(strings.ReplaceAll(file, "\\", "/"), "./"))
	if !fs.ValidPath(name) {
		return nil, false
	}
	data, err := fs.ReadFile(src, name)
	if err != nil {
		return nil, false
	}
	return issue.LineHashesAt(data, lines), true
}

// lineHash is the issue's primaryLocationLineHash: from the file when it
// was read, else from the issue's context lines, else "".
func lineHash(is *issue.Issue, hashes map[string]map[int]string) string {
	if is.LineHash != "" {
		return is.LineHash
	}
	line := max(1, is.Line)
	if h, ok := hashes[is.File][line]; ok {
		return h
	}
	if is.Context == nil {
		return ""
	}
	return issue.SnippetLineHash(is.Context.StartLine, is.Context.Lines, line)
}

func itoa(n int) string { return strconv.Itoa(n) }
