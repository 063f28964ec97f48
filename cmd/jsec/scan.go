package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/jsec/jsec/checkers"
	cchk "github.com/jsec/jsec/checkers/c"
	"github.com/jsec/jsec/checkers/ignore"
	rustchk "github.com/jsec/jsec/checkers/rust"
	"github.com/jsec/jsec/config"
	"github.com/jsec/jsec/issue"
	"github.com/jsec/jsec/report"
	"github.com/jsec/jsec/report/html"
	"github.com/jsec/jsec/report/markdown"
	"github.com/jsec/jsec/report/sarif"
	"github.com/jsec/jsec/rules"
)

// scanOptions are the parsed flags of 'jsec scan'.
type scanOptions struct {
	Root              string
	Out               string
	FailOn            string
	Jobs              int
	Exclude           []string
	Langs             []string
	MinConfidence     float64
	MaxFileSize       string
	NoIgnore          bool
	NoDefaultExcludes bool
	Quiet             bool
	Baseline          string
	Diff              string
	Shard             string
	NoSuppress        bool
	ConfigFile        string
	Time              bool
	Verify            verifyOptions
	changed           func(string) bool
	// jobsSet records whether --jobs was given: it then also sizes the
	// verification pool (default 4).
	jobsSet bool
}

// newScanCmd builds 'jsec scan'. runF replaces the run function in tests
// that only check flag parsing.
func newScanCmd(io streams, runF func(context.Context, *scanOptions) error) *cobra.Command {
	opts := &scanOptions{}
	cmd := &cobra.Command{
		Use:   "scan PATH",
		Short: "Scan C, C++ and Rust code for security defects",
		Long: `Scan walks PATH (a directory or one file), analyses every C, C++ and Rust
file in parallel and writes report.json, report.md, report.sarif and
report.html into the output directory.

Files are chosen by extension (.c .h .cc .cpp .cxx .hh .hpp .hxx .rs; a .h
file is C++ when its code says so). .gitignore and .jsecignore files are
honoured, and directories named .git, vendor, third_party, node_modules,
target and build are skipped. Binary, oversized, unreadable and special
files are skipped and listed in the report's "errors" with the reason.

With --verify, each finding of --verify-min-severity or above goes to its
own read-only LLM agent (any OpenAI-compatible server or Anthropic; see
the --llm-* flags and JSEC_LLM_API_KEY), which returns a verdict: confirmed,
false_positive or uncertain. Verdicts are journaled in <out>/progress.jsonl;
running the same command again resumes without asking again.

For CI: --fail-on sets the gate; --baseline ignores findings an earlier
report already had; // jsec:ignore <rule> -- <reason> comments suppress
single findings; --diff REV reports only changed lines; --shard K/N with
'jsec merge' splits a large tree across machines. Suppressed, baselined
and verifier-dismissed findings stay in the reports but do not fail.

Exit status: 0 when no finding is at or above --fail-on, 1 when some are,
2 for usage or configuration errors, 3 for internal errors (and when
interrupted).`,
		Example: `  jsec scan .
  jsec scan src --fail-on critical --out /tmp/jsec
  jsec scan . --lang rust --min-confidence 0.6
  jsec scan . --exclude 'tests/' --exclude '*.gen.c' --jobs 8
  jsec scan . --diff origin/main --baseline main-report.json
  JSEC_LLM_BASE_URL=http://localhost:11434/v1 JSEC_LLM_MODEL=qwen2.5-coder jsec scan . --verify`,
		Args: argsError(cobra.ExactArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Root = args[0]
			opts.jobsSet = cmd.Flags().Changed("jobs")
			opts.changed = changedFunc(cmd.Flags())
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return runScan(cmd.Context(), io, opts)
		},
	}
	f := cmd.Flags()
	f.StringVarP(&opts.Out, "out", "o", "jsec-out", "directory to write the reports into")
	f.StringVar(&opts.FailOn, "fail-on", "high", "exit 1 when a finding has this severity or higher: critical, high, medium, low or never")
	f.IntVarP(&opts.Jobs, "jobs", "j", cpus, "files analysed at once (default: the number of CPUs); with --verify also the findings verified at once (else 4)")
	f.StringArrayVar(&opts.Exclude, "exclude", nil, "gitignore-style pattern of paths to skip (repeatable)")
	f.StringSliceVar(&opts.Langs, "lang", []string{"c", "cpp", "rust"}, "languages to scan: c, cpp, rust")
	f.Float64Var(&opts.MinConfidence, "min-confidence", 0, "drop findings whose confidence is below this (0..1)")
	f.StringVar(&opts.MaxFileSize, "max-file-size", "10MB", "skip files larger than this (bytes, or with K, M, G suffix)")
	f.BoolVar(&opts.NoIgnore, "no-ignore", false, "do not honour .gitignore and .jsecignore files")
	f.BoolVar(&opts.NoDefaultExcludes, "no-default-excludes", false, "also scan .git, vendor, third_party, node_modules, target and build directories")
	f.BoolVarP(&opts.Quiet, "quiet", "q", false, "print nothing but errors")
	f.StringVar(&opts.Baseline, "baseline", "", "an earlier report.json: its findings are marked baselined and do not fail the run")
	f.StringVar(&opts.Diff, "diff", "", "only report findings on lines added or changed since this git revision (scans only changed files)")
	f.StringVar(&opts.Shard, "shard", "", "scan shard K of N (K/N, 0 <= K < N, or auto/N for JOB_COMPLETION_INDEX); combine with 'jsec merge'")
	f.BoolVar(&opts.NoSuppress, "no-suppress", false, "ignore jsec:ignore comments and report everything (audit)")
	f.StringVar(&opts.ConfigFile, "config", "", "configuration file (default: .jsec.yml at the scanned root, if any); flags override it")
	f.BoolVar(&opts.Time, "time", false, "print where the scan's time went, by phase and by checker, to standard error (costs a few percent)")
	opts.Verify.register(f)
	return cmd
}

// scanConfig is scanOptions validated and resolved.
type scanConfig struct {
	failOn   issue.Severity // 0: never
	maxSize  int64
	langs    map[string]*checkers.Language
	startedA time.Time
}

func (o *scanOptions) resolve() (*scanConfig, error) {
	cfg := &scanConfig{}
	if o.FailOn != "never" {
		s, err := issue.ParseSeverity(o.FailOn)
		if err != nil {
			return nil, usagef("--fail-on: %v, or never", err)
		}
		cfg.failOn = s
	}
	if o.Jobs < 1 {
		return nil, usagef("--jobs %d: must be at least 1", o.Jobs)
	}
	if !(o.MinConfidence >= 0 && o.MinConfidence <= 1) { // NaN too
		return nil, usagef("--min-confidence %v: must be between 0 and 1", o.MinConfidence)
	}
	size, err := config.ParseSize(o.MaxFileSize)
	if err != nil {
		return nil, usagef("--max-file-size: %v", err)
	}
	cfg.maxSize = size
	for _, p := range o.Exclude {
		if _, errs := ignore.Parse([]byte(p)); len(errs) > 0 {
			err := errs[0]
			if inner := errors.Unwrap(err); inner != nil {
				err = inner // without Parse's "line 1: "
			}
			return nil, usagef("--exclude %q: %v (patterns are gitignore-style: escape a literal [ as \\[)", p, err)
		}
	}
	all := map[string]func() *checkers.Language{"c": cchk.C, "cpp": cchk.CPP, "rust": rustchk.Rust}
	cfg.langs = map[string]*checkers.Language{}
	for _, l := range o.Langs {
		name := normalizeLang(l)
		mk, ok := all[name]
		if !ok {
			return nil, usagef("--lang %q: want c, cpp or rust", l)
		}
		cfg.langs[name] = mk()
	}
	if len(cfg.langs) == 0 {
		return nil, usagef("--lang: no language selected")
	}
	return cfg, nil
}

func errorText(err error) string {
	var pe *os.PathError
	if ok := asPathError(err, &pe); ok {
		return pe.Err.Error()
	}
	return err.Error()
}

func asPathError(err error, pe **os.PathError) bool {
	p, ok := err.(*os.PathError)
	if ok {
		*pe = p
	}
	return ok
}

// scanPlan is what prepareScan worked out and checked before the scan.
type scanPlan struct {
	conf    *config.Config
	cfg     *scanConfig
	opt     checkers.Options
	changed changes        // --diff: the changed lines, else nil
	base    *report.Report // --baseline, else nil
}

// prepareScan reads the configuration and checks everything a
// configuration error can come from, the flags that only the end of a run
// uses included, so that none is found after the scan.
func prepareScan(ctx context.Context, io streams, o *scanOptions) (*scanPlan, error) {
	if o.changed == nil {
		o.changed = func(string) bool { return false }
	}
	fi, err := os.Stat(o.Root)
	if err != nil {
		return nil, usagef("scan %s: %v", o.Root, errorText(err))
	}
	if !fi.IsDir() && checkers.Extensions[strings.ToLower(filepath.Ext(o.Root))] == "" {
		return nil, usagef("scan %s: not a directory and not a C, C++ or Rust file (.c .h .cc .cpp .cxx .c++ .hh .hpp .hxx .h++ .rs)", o.Root)
	}
	conf, err := loadConfig(io, o, o.changed)
	if err != nil {
		return nil, err
	}
	cfg, err := o.resolve()
	if err != nil {
		return nil, err
	}
	shard, err := parseShard(o.Shard, os.Getenv)
	if err != nil {
		return nil, err
	}
	walk := checkers.WalkOptions{Exclude: o.Exclude, NoDefaultExcludes: o.NoDefaultExcludes, NoIgnoreFiles: o.NoIgnore}
	if conf.Include != nil {
		walk.Include = conf.Included
	}
	p := &scanPlan{conf: conf, cfg: cfg}
	if o.Diff != "" {
		if p.changed, err = gitChanges(ctx, o.Root, o.Diff); err != nil {
			return nil, err
		}
		walk.Files = p.changed.files()
	}
	if o.Verify.Enabled {
		if err := o.Verify.check(); err != nil {
			return nil, err
		}
	}
	if o.Baseline != "" {
		if p.base, err = loadBaseline(o.Baseline); err != nil {
			return nil, err
		}
	}
	p.opt = checkers.Options{
		Walk: walk, Jobs: o.Jobs, MaxFileSize: cfg.maxSize, Languages: cfg.langs, ClassifyHeader: cchk.ClassifyHeader,
		MinConfidence: o.MinConfidence, NoSuppress: o.NoSuppress, Shard: shard,
	}
	if err := ruleOptions(conf, &p.opt); err != nil {
		return nil, err
	}
	if o.Time {
		p.opt.Profile = checkers.NewProfile()
	}
	// Last: the only check that touches the file system (and undoes it).
	if err := checkOutDir(o.Out); err != nil {
		return nil, err
	}
	return p, nil
}

func runScan(ctx context.Context, io streams, o *scanOptions) error {
	p, err := prepareScan(ctx, io, o)
	if err != nil {
		return err
	}
	conf, cfg, scanOpt, changed := p.conf, p.cfg, p.opt, p.changed
	prog := &checkers.Progress{}
	scanOpt.Progress = prog
	stopProgress := startProgress(io, prog, o.Quiet)
	res, err := checkers.Scan(ctx, o.Root, scanOpt)
	stopProgress()
	if err != nil {
		return err
	}
	if o.Time {
		printTimes(io.Err, scanOpt.Profile, res, scanOpt.Jobs)
	}
	if changed != nil {
		kept := res.Issues[:0]
		for i := range res.Issues {
			if changed.keep(&res.Issues[i]) {
				kept = append(kept, res.Issues[i])
			}
		}
		res.Issues = kept
	}
	baselined := 0
	if p.base != nil {
		baselined = applyBaseline(p.base, res.Issues)
	}
	rep := buildReport(o.Root, res, conf)
	rep.Summary.Baselined = baselined
	var verifyErr error
	if o.Verify.Enabled {
		jobs := 4
		if o.jobsSet {
			jobs = o.Jobs
		}
		if verifyErr = runVerify(ctx, io, o, jobs, rep); verifyErr != nil && !errors.Is(verifyErr, context.Canceled) {
			return verifyErr
		}
	}
	if err := writeReports(o.Out, rep, o.Root); err != nil {
		return err
	}
	if verifyErr != nil {
		fmt.Fprintf(io.Err, "jsec: interrupted; the reports hold the verdicts so far and 'jsec scan --verify' resumes\n")
		return verifyErr
	}
	if !o.Quiet {
		printSummary(io, o, rep, res)
		if res.Files == 0 && o.Diff == "" && o.Shard == "" { // a diff or a shard may hold no file
			fmt.Fprintf(io.Err, "jsec: warning: no %s file was scanned under %s; check the path, --lang, --exclude and the .gitignore files (--no-ignore, --no-default-excludes)\n",
				langNames(cfg.langs), o.Root)
		}
	}
	if cfg.failOn != 0 {
		if n := countAtOrAbove(rep.Issues, cfg.failOn); n > 0 {
			if !o.Quiet {
				fmt.Fprintf(io.Err, "jsec: %d findings at or above %s (--fail-on %s)\n", n, cfg.failOn, o.FailOn)
			}
			return findingsError{n}
		}
	}
	return nil
}

// writeReports writes the report files of r into dir with the collector
// off (unless $GOGC set it): writing them is the last thing a run does,
// and a collection then only frees memory the process is about to give
// back, while it takes the writers' CPU (on 2 cores the phase took 3-4 ms
// less of its 13-22 ms, median of 12 runs on curl and git). The memory
// limit still bounds the heap (debug.SetMemoryLimit in main).
func writeReports(dir string, r *report.Report, root string) error {
	if os.Getenv("GOGC") == "" {
		defer debug.SetGCPercent(debug.SetGCPercent(-1))
	}
	return report.WriteFiles(dir, r, reportFiles(root))
}

// reportFiles returns the files 'jsec scan' and 'jsec merge' write. The
// SARIF writer reads the scanned files (when root is a readable
// directory) to compute GitHub's primaryLocationLineHash exactly.
func reportFiles(root string) map[string]report.Writer {
	opts := sarif.Options{}
	if dir := sourceDir(root); dir != "" {
		opts.Source = os.DirFS(dir)
	}
	return map[string]report.Writer{
		"report.json":  report.WriteJSON,
		"report.md":    markdown.Write,
		"report.sarif": opts.Write,
		html.FileName:  html.Write,
	}
}

// sourceDir is the directory the issues' paths are relative to: the
// scanned root, or the directory of the one file scanned ("" when root
// is neither a directory nor a file).
func sourceDir(root string) string {
	info, err := os.Stat(root)
	switch {
	case err != nil:
		return ""
	case info.IsDir():
		return root
	case info.Mode().IsRegular():
		return filepath.Dir(root)
	}
	return ""
}

func buildReport(root string, res *checkers.Result, conf *config.Config) *report.Report {
	rep := &report.Report{
		Tool:   report.Tool{Name: "jsec", Version: version, InformationURI: homepage, Root: filepath.ToSlash(root)},
		Issues: res.Issues,
	}
	rep.Summary = report.Summarize(res.Issues)
	for _, is := range res.Issues {
		if is.Suppressed != nil {
			rep.Summary.Suppressed++
		}
	}
	rep.Summary.FilesScanned = res.Files
	rep.Summary.BytesScanned = res.Bytes
	rep.Summary.DurationMS = res.Duration.Milliseconds()
	files := map[string]bool{}
	for _, s := range res.Skips {
		rep.Errors = append(rep.Errors, report.Error{File: s.Path, Reason: s.Reason, Kind: s.Kind})
		if s.Kind == "skipped" && !files[s.Path] {
			files[s.Path] = true
		}
	}
	rep.Summary.FilesSkipped = len(files)
	used := map[string]bool{}
	var ids []string
	for _, is := range res.Issues {
		if !used[is.Rule] {
			used[is.Rule] = true
			ids = append(ids, is.Rule)
		}
	}
	sort.Strings(ids)
	for _, id := range ids {
		if ri, ok := ruleInfoFor(conf, id); ok {
			rep.Rules = append(rep.Rules, ri)
		}
	}
	return rep
}

func ruleInfo(r *rules.Rule) issue.RuleInfo {
	return issue.RuleInfo{
		ID: r.ID, Title: r.Title, CWE: r.CWEString(), Category: r.Category, Severity: r.Severity,
		Confidence: r.Confidence, Languages: slices.Clone(r.Languages), Description: r.Description,
		Suggestion: r.Suggestion, Doc: r.Doc, Policy: r.Policy,
	}
}

func countAtOrAbove(is []issue.Issue, s issue.Severity) int {
	n := 0
	for _, x := range is {
		if x.Severity >= s && x.Gating() {
			n++
		}
	}
	return n
}

func printSummary(io streams, o *scanOptions, rep *report.Report, res *checkers.Result) {
	s := rep.Summary
	mbps := float64(res.Bytes) / (1 << 20) / max(res.Duration.Seconds(), 1e-6)
	fmt.Fprintf(io.Out, "jsec: %s (%d critical, %d high, %d medium, %d low) in %s, %.1f MB, %.2fs (%.0f MB/s)\n",
		count(s.Total, "issue"), s.BySeverity["critical"], s.BySeverity["high"], s.BySeverity["medium"], s.BySeverity["low"],
		count(s.FilesScanned, "file"), float64(res.Bytes)/(1<<20), res.Duration.Seconds(), mbps)
	if len(rep.Errors) > 0 {
		fmt.Fprintf(io.Out, "jsec: %s skipped or failed (listed in report.json \"errors\")\n", count(len(rep.Errors), "file"))
	}
	if v := s.Verification; v != nil {
		fmt.Fprintf(io.Out, "jsec: verified %d findings with %s: %d confirmed, %d false positive, %d uncertain, %d error, %d unverified (%d reused from progress.jsonl, %d tokens, %.1fs)\n",
			v.Candidates, v.Model, v.Confirmed, v.FalsePositive, v.Uncertain, v.Error, v.Unverified, v.Resumed, v.Tokens, float64(v.DurationMS)/1000)
	}
	fmt.Fprintf(io.Out, "jsec: reports in %s: report.json, report.md, report.sarif, report.html\n", o.Out)
}

// count is "1 issue", "2 issues".
func count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}

// langNames is "C, C++ or Rust" for the selected languages.
func langNames(langs map[string]*checkers.Language) string {
	var names []string
	for _, l := range []struct{ key, name string }{{"c", "C"}, {"cpp", "C++"}, {"rust", "Rust"}} {
		if langs[l.key] != nil {
			names = append(names, l.name)
		}
	}
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}
