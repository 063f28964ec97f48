package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	goio "io"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/jsec/jsec/checkers"
	"github.com/jsec/jsec/issue"
	"github.com/jsec/jsec/report"
	"github.com/jsec/jsec/rules"
)

type mergeOptions struct {
	Dirs   []string
	Out    string
	FailOn string
	Quiet  bool
}

func newMergeCmd(io streams) *cobra.Command {
	opts := &mergeOptions{}
	cmd := &cobra.Command{
		Use:   "merge DIR... --out DIR",
		Short: "Combine the reports of sharded scans into one",
		Long: `Merge reads the output directories of 'jsec scan --shard K/N' runs (or any
scans of disjoint parts of a tree) and writes one set of reports: the
issues of all, summaries recomputed, skipped files and verification
journals (progress.jsonl) combined. It exits like scan: 1 when a finding
is at or above --fail-on.`,
		Example: `  jsec merge shard-0 shard-1 shard-2 shard-3 --out jsec-out`,
		Args:    argsError(cobra.MinimumNArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Dirs = args
			return runMerge(io, opts)
		},
	}
	cmd.Flags().StringVarP(&opts.Out, "out", "o", "jsec-out", "directory to write the merged reports into")
	cmd.Flags().StringVar(&opts.FailOn, "fail-on", "high", "exit 1 when a finding has this severity or higher: critical, high, medium, low or never")
	cmd.Flags().BoolVarP(&opts.Quiet, "quiet", "q", false, "print nothing but errors")
	return cmd
}

func runMerge(io streams, o *mergeOptions) error {
	var failOn issue.Severity
	if o.FailOn != "never" {
		s, err := issue.ParseSeverity(o.FailOn)
		if err != nil {
			return usagef("--fail-on: %v, or never", err)
		}
		failOn = s
	}
	var parts []*report.Report
	for _, d := range o.Dirs {
		r, err := report.ReadJSON(filepath.Join(d, "report.json"))
		if err != nil {
			return usagef("merge %s: %v", d, errorText(err))
		}
		parts = append(parts, r)
	}
	merged := mergeReports(parts)
	if err := checkOutDir(o.Out); err != nil {
		return err
	}
	if err := os.MkdirAll(o.Out, 0o755); err != nil {
		return fmt.Errorf("create output directory: %w", err)
	}
	if err := mergeJournals(o.Dirs, filepath.Join(o.Out, "progress.jsonl")); err != nil {
		return err
	}
	if err := writeReports(o.Out, merged, merged.Tool.Root); err != nil {
		return err
	}
	if !o.Quiet {
		s := merged.Summary
		fmt.Fprintf(io.Out, "jsec: merged %s: %s (%d critical, %d high, %d medium, %d low) in %s → %s\n",
			count(len(parts), "report"), count(s.Total, "issue"), s.BySeverity["critical"], s.BySeverity["high"], s.BySeverity["medium"], s.BySeverity["low"],
			count(s.FilesScanned, "file"), o.Out)
	}
	if failOn != 0 {
		if n := countAtOrAbove(merged.Issues, failOn); n > 0 {
			return findingsError{n}
		}
	}
	return nil
}

// mergeReports combines reports of disjoint parts of a tree.
func mergeReports(parts []*report.Report) *report.Report {
	out := &report.Report{Tool: parts[0].Tool}
	if out.Tool.InformationURI == "" {
		out.Tool.InformationURI = homepage // reports of jsec versions before it was recorded
	}
	seenIssue := map[string]bool{}
	seenErr := map[string]bool{}
	var ver *report.VerificationSummary
	for _, p := range parts {
		for _, is := range p.Issues {
			if k := is.ID + "\x00" + is.File; !seenIssue[k] {
				seenIssue[k] = true
				out.Issues = append(out.Issues, is)
			}
		}
		for _, e := range p.Errors {
			if k := e.File + "\x00" + e.Reason; !seenErr[k] {
				seenErr[k] = true
				out.Errors = append(out.Errors, e)
			}
		}
		out.Summary.FilesScanned += p.Summary.FilesScanned
		out.Summary.BytesScanned += p.Summary.BytesScanned
		out.Summary.FilesSkipped += p.Summary.FilesSkipped
		out.Summary.DurationMS = max(out.Summary.DurationMS, p.Summary.DurationMS)
		if v := p.Summary.Verification; v != nil {
			if ver == nil {
				ver = &report.VerificationSummary{Model: v.Model}
			}
			ver.Candidates += v.Candidates
			ver.Confirmed += v.Confirmed
			ver.FalsePositive += v.FalsePositive
			ver.Uncertain += v.Uncertain
			ver.Error += v.Error
			ver.Unverified += v.Unverified
			ver.Resumed += v.Resumed
			ver.Tokens += v.Tokens
			ver.DurationMS = max(ver.DurationMS, v.DurationMS)
		}
	}
	checkers.SortIssues(out.Issues)
	scan := out.Summary
	out.Summary = report.Summarize(out.Issues)
	out.Summary.FilesScanned, out.Summary.BytesScanned, out.Summary.FilesSkipped, out.Summary.DurationMS = scan.FilesScanned, scan.BytesScanned, scan.FilesSkipped, scan.DurationMS
	out.Summary.Verification = ver
	used := map[string]bool{}
	for _, is := range out.Issues {
		used[is.Rule] = true
		if is.Suppressed != nil {
			out.Summary.Suppressed++
		}
		if is.Baselined {
			out.Summary.Baselined++
		}
	}
	for _, r := range rules.All() {
		if used[r.ID] {
			out.Rules = append(out.Rules, ruleInfo(r))
		}
	}
	return out
}

// mergeJournals concatenates the shards' progress.jsonl files, keeping
// the last record of each fingerprint.
func mergeJournals(dirs []string, out string) error {
	var order []string
	recs := map[string][]byte{}
	for _, d := range dirs {
		data, err := os.ReadFile(filepath.Join(d, "progress.jsonl"))
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		if err != nil {
			return fmt.Errorf("merge journal: %w", err)
		}
		// Split by hand, as verify's loadJournal does: a scanner's line
		// limit would drop every record after a long line.
		for rest := data; len(rest) > 0; {
			var line []byte
			line, rest, _ = bytes.Cut(rest, []byte{'\n'})
			var r struct {
				Fingerprint string `json:"fingerprint"`
			}
			line = bytes.TrimSpace(line)
			if json.Unmarshal(line, &r) != nil || r.Fingerprint == "" {
				continue // torn or foreign line
			}
			if _, ok := recs[r.Fingerprint]; !ok {
				order = append(order, r.Fingerprint)
			}
			recs[r.Fingerprint] = append([]byte(nil), line...)
		}
	}
	if len(order) == 0 {
		return nil
	}
	var buf bytes.Buffer
	for _, fp := range order {
		buf.Write(recs[fp])
		buf.WriteByte('\n')
	}
	return report.WriteAtomic(out, func(w goio.Writer) error { _, err := w.Write(buf.Bytes()); return err })
}
