// Package report holds the report model that every output format renders,
// the summary computed from issues, the canonical JSON writer, and atomic
// writing of report files. Each other format lives in its own package
// behind the same signature: Write(w io.Writer, r *Report) error.
package report

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"sync"

	"github.com/jsec/jsec/issue"
)

// Report is the content of report.json.
type Report struct {
	Tool    Tool          `json:"tool"`
	Issues  []issue.Issue `json:"issues"`
	Summary Summary       `json:"summary"`
	Errors  []Error       `json:"errors"`
	// Rules describes the rules that issues refer to (for SARIF and the
	// Markdown report); it is not part of report.json.
	Rules []issue.RuleInfo `json:"-"`
}

// Tool identifies the producer.
type Tool struct {
	Name           string `json:"name"`
	Version        string `json:"version"`
	InformationURI string `json:"information_uri,omitempty"`
	// Root is the scanned root as given on the command line.
	Root string `json:"root"`
}

// Error is a file that was skipped or failed, with the reason.
type Error struct {
	File   string `json:"file"`
	Reason string `json:"reason"`
	// Kind is "skipped" (jsec chose not to read it) or "error".
	Kind string `json:"kind"`
}

// Summary aggregates the issues.
type Summary struct {
	Total        int            `json:"total"`
	BySeverity   map[string]int `json:"by_severity"`
	ByLanguage   map[string]int `json:"by_language"`
	ByCategory   map[string]int `json:"by_category"`
	TopRiskFiles []FileRisk     `json:"top_risk_files"`
	// FilesScanned and BytesScanned count what was read and analysed.
	FilesScanned int   `json:"files_scanned"`
	BytesScanned int64 `json:"bytes_scanned"`
	FilesSkipped int   `json:"files_skipped"`
	DurationMS   int64 `json:"duration_ms"`
	// Suppressed and Baselined count issues that are reported but do not
	// fail the run.
	Suppressed int `json:"suppressed"`
	Baselined  int `json:"baselined"`
	// Verification is set when the verifier ran.
	Verification *VerificationSummary `json:"verification,omitempty"`
}

// VerificationSummary counts the verifier's outcomes.
type VerificationSummary struct {
	Model         string `json:"model"`
	Candidates    int    `json:"candidates"`
	Confirmed     int    `json:"confirmed"`
	FalsePositive int    `json:"false_positive"`
	Uncertain     int    `json:"uncertain"`
	Error         int    `json:"error"`
	Unverified    int    `json:"unverified"`
	// Resumed counts verdicts reused from progress.jsonl.
	Resumed    int   `json:"resumed"`
	Tokens     int   `json:"tokens"`
	DurationMS int64 `json:"duration_ms"`
}

// FileRisk ranks a file by its issues.
type FileRisk struct {
	File   string  `json:"file"`
	Issues int     `json:"issues"`
	Score  float64 `json:"score"`
}

// severityWeight weighs severities for the risk score.
var severityWeight = map[issue.Severity]float64{
	issue.SeverityCritical: 10, issue.SeverityHigh: 5, issue.SeverityMedium: 2, issue.SeverityLow: 1,
}

// TopFiles is the number of files listed in TopRiskFiles.
const TopFiles = 10

// Summarize computes the issue counts and the top risk files; the scan
// counters are left for the caller.
func Summarize(issues []issue.Issue) Summary {
	s := Summary{
		Total:      len(issues),
		BySeverity: map[string]int{"critical": 0, "high": 0, "medium": 0, "low": 0},
		ByLanguage: map[string]int{},
		ByCategory: map[string]int{},
	}
	risk := map[string]*FileRisk{}
	for _, is := range issues {
		s.BySeverity[is.Severity.String()]++
		s.ByLanguage[is.Language]++
		s.ByCategory[is.Category]++
		fr := risk[is.File]
		if fr == nil {
			fr = &FileRisk{File: is.File}
			risk[is.File] = fr
		}
		fr.Issues++
		fr.Score += severityWeight[is.Severity] * is.Confidence
	}
	for _, fr := range risk {
		fr.Score = float64(int(fr.Score*100+0.5)) / 100
		s.TopRiskFiles = append(s.TopRiskFiles, *fr)
	}
	sort.Slice(s.TopRiskFiles, func(i, j int) bool {
		a, b := s.TopRiskFiles[i], s.TopRiskFiles[j]
		if a.Score != b.Score {
			return a.Score > b.Score
		}
		return a.File < b.File
	})
	if len(s.TopRiskFiles) > TopFiles {
		s.TopRiskFiles = s.TopRiskFiles[:TopFiles]
	}
	if s.TopRiskFiles == nil {
		s.TopRiskFiles = []FileRisk{}
	}
	return s
}

// WriteJSON writes the canonical report.json.
func WriteJSON(w io.Writer, r *Report) error {
	out := *r
	if out.Issues == nil {
		out.Issues = []issue.Issue{}
	}
	if out.Errors == nil {
		out.Errors = []Error{}
	}
	return EncodeJSON(w, &out)
}

// ReadJSON reads a report.json (a baseline, a shard to merge).
func ReadJSON(path string) (*Report, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var r Report
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, fmt.Errorf("%s: not a jsec report.json: %w", path, err)
	}
	return &r, nil
}

// Writer renders a report in one format.
type Writer func(w io.Writer, r *Report) error

// WriteFiles renders r into dir, one file per entry of files (name →
// writer). Each file is written to a temporary name in dir, synced and
// renamed, so a reader never sees a half-written report.
func WriteFiles(dir string, r *Report, files map[string]Writer) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("create output directory: %w", err)
	}
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	// The writers only read r, so they run at once; the first error in
	// name order is returned, so that a failing run always says the same.
	errs := make([]error, len(names))
	var wg sync.WaitGroup
	for i, name := range names {
		wg.Go(func() {
			errs[i] = WriteAtomic(filepath.Join(dir, name), func(w io.Writer) error { return files[name](w, r) })
		})
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// WriteAtomic writes path through a temporary file and a rename.
func WriteAtomic(path string, write func(io.Writer) error) (err error) {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if err = write(tmp); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err = tmp.Sync(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err = tmp.Close(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err = os.Chmod(tmp.Name(), 0o644); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err = os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}
