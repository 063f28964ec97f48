package verify

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/jsec/jsec/agent"
	"github.com/jsec/jsec/agent/llm"
	"github.com/jsec/jsec/agent/tool"
	"github.com/jsec/jsec/agent/tool/code"
	"github.com/jsec/jsec/issue"
)

// Options configure a verification run.
type Options struct {
	// Root is the scanned root; the agents can read nothing else.
	Root string
	// Journal is the path of progress.jsonl.
	Journal string
	// Fresh ignores and empties the journal.
	Fresh bool
	Model llm.Model
	// Protocol carries tool calls (nil: native function calling).
	Protocol agent.Protocol
	// Jobs bounds the agents running at once (default 4).
	Jobs int
	// MaxTurns bounds each candidate's model calls (default 8).
	MaxTurns int
	// CandidateTimeout bounds each candidate (default 10 minutes).
	CandidateTimeout time.Duration
	// MaxTokens is the run's token budget (0: none); candidates that
	// cannot start within it are reported unverified.
	MaxTokens int
	// MinSeverity and MaxCandidates select the candidates.
	MinSeverity   issue.Severity
	MaxCandidates int
	// MaskSecrets hides the values found by the secrets rules from the
	// model (see the package doc).
	MaskSecrets bool
	// Policy reports whether a rule is a policy rule, whose findings a
	// model may not dismiss unless AllowPolicyDismiss.
	Policy             func(rule string) bool
	AllowPolicyDismiss bool
	// Progress, when set, is called after each candidate finishes.
	Progress func(Stats)
}

// Stats summarise a run.
type Stats struct {
	Model      string
	Total      int // candidates considered
	Done       int // finished so far (verdicts and errors, resumed included)
	Confirmed  int
	FalsePos   int
	Uncertain  int
	Errors     int
	Unverified int
	Resumed    int
	Tokens     int
	Duration   time.Duration
	// BadJournalLines counts unreadable lines of the journal (other than
	// a torn last line).
	BadJournalLines int
}

// Run verifies issues in place: each selected issue gets a Verification.
// It returns the run's statistics; the error is non-nil only when ctx
// was cancelled or the journal could not be written, and the issues hold
// what finished before.
func Run(ctx context.Context, issues []issue.Issue, o Options) (Stats, error) {
	start := time.Now()
	v, err := newVerifier(issues, o)
	if err != nil {
		return Stats{}, err
	}
	defer v.root.Close()
	stats := Stats{Model: o.Model.Name()}
	cands, skipped := v.select_(issues)
	for _, i := range skipped {
		issues[i].Verification = &issue.Verification{Verdict: issue.VerdictUnverified, Reason: "over --max-candidates", Model: stats.Model}
	}
	stats.Total = len(cands) + len(skipped)
	stats.Unverified = len(skipped)

	done, bad, err := loadJournal(o.Journal)
	if err != nil {
		return stats, err
	}
	if o.Fresh {
		done, bad = map[string]Record{}, 0
	}
	stats.BadJournalLines = bad
	j, err := openJournal(o.Journal, o.Fresh)
	if err != nil {
		return stats, err
	}
	runErr := v.pool(ctx, issues, cands, done, j, &stats)
	if cerr := j.close(); runErr == nil && cerr != nil {
		runErr = cerr
	}
	for _, c := range cands {
		if issues[c.index].Verification == nil {
			why := "not verified: the run was interrupted"
			if runErr == nil {
				why = "not verified: the token budget (--max-tokens) ran out"
			}
			issues[c.index].Verification = &issue.Verification{Verdict: issue.VerdictUnverified, Reason: why, Model: stats.Model}
			stats.Unverified++
		}
	}
	stats.Duration = time.Since(start)
	return stats, runErr
}

// verifier holds what all candidates share.
type verifier struct {
	o      Options
	root   *code.Root
	files  *os.Root
	masker *masker
	used   atomic.Int64 // tokens
}

func newVerifier(issues []issue.Issue, o Options) (*verifier, error) {
	if o.Model == nil {
		return nil, errors.New("verify: no model")
	}
	if o.Jobs <= 0 {
		o.Jobs = 4
	}
	if o.MaxTurns <= 0 {
		o.MaxTurns = 8
	}
	if o.CandidateTimeout <= 0 {
		o.CandidateTimeout = 10 * time.Minute
	}
	if o.Protocol == nil {
		o.Protocol = agent.Native{}
	}
	if o.Policy == nil {
		o.Policy = func(string) bool { return false }
	}
	root, err := code.OpenRoot(o.Root, code.Limits{})
	if err != nil {
		return nil, fmt.Errorf("verify: %w", err)
	}
	files, err := os.OpenRoot(o.Root)
	if err != nil {
		root.Close()
		return nil, fmt.Errorf("verify: %w", err)
	}
	return &verifier{o: o, root: root, files: files, masker: newMasker(issues, o.MaskSecrets)}, nil
}

// candidate is an issue chosen for verification.
type candidate struct {
	index       int
	fingerprint string
	src         []byte
}

// select_ picks the candidates: at or above MinSeverity, not suppressed
// or baselined, most severe and most confident first, at most
// MaxCandidates (the rest are returned as skipped).
func (v *verifier) select_(issues []issue.Issue) (cands []candidate, skipped []int) {
	var idx []int
	for i := range issues {
		is := &issues[i]
		if is.Severity < v.o.MinSeverity || is.Suppressed != nil || is.Baselined {
			continue
		}
		idx = append(idx, i)
	}
	sort.SliceStable(idx, func(a, b int) bool {
		x, y := &issues[idx[a]], &issues[idx[b]]
		if x.Severity != y.Severity {
			return x.Severity > y.Severity
		}
		return x.Confidence > y.Confidence
	})
	if v.o.MaxCandidates > 0 && len(idx) > v.o.MaxCandidates {
		skipped = idx[v.o.MaxCandidates:]
		idx = idx[:v.o.MaxCandidates]
	}
	for _, i := range idx {
		src, _ := v.files.ReadFile(filepath.FromSlash(issues[i].File))
		cands = append(cands, candidate{index: i, src: src, fingerprint: v.fingerprint(&issues[i], src)})
	}
	return cands, skipped
}

// fingerprint identifies a candidate's question to the model: the same
// finding, in the same file content, asked with the same prompt of the
// same model.
func (v *verifier) fingerprint(is *issue.Issue, src []byte) string {
	fh := sha256.Sum256(src)
	h := sha256.New()
	for _, s := range []string{is.ID, is.Rule, hex.EncodeToString(fh[:]), PromptVersion, v.o.Model.Name()} {
		h.Write([]byte(s))
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil)[:16])
}

// pool runs the candidates that the journal does not answer, o.Jobs at a
// time. A candidate's failure is recorded; only cancellation and journal
// failures end the pool early.
func (v *verifier) pool(ctx context.Context, issues []issue.Issue, cands []candidate, done map[string]Record, j *journal, stats *Stats) error {
	var mu sync.Mutex
	finish := func(c candidate, r Record, resumed bool) {
		mu.Lock()
		defer mu.Unlock()
		v.apply(&issues[c.index], r)
		stats.Done++
		if resumed {
			stats.Resumed++
		} else {
			stats.Tokens += r.Tokens
		}
		switch {
		case r.Status == StatusError:
			stats.Errors++
		case r.Verdict == string(issue.VerdictConfirmed):
			stats.Confirmed++
		case r.Verdict == string(issue.VerdictFalsePositive):
			stats.FalsePos++
		default:
			stats.Uncertain++
		}
		if v.o.Progress != nil {
			v.o.Progress(*stats)
		}
	}
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(v.o.Jobs)
	for _, c := range cands {
		if r, ok := done[c.fingerprint]; ok && r.Status == StatusVerdict {
			finish(c, r, true)
			continue
		}
		if gctx.Err() != nil {
			break
		}
		if v.budgetSpent() {
			continue // left unverified
		}
		g.Go(func() error {
			if v.budgetSpent() {
				return nil // the budget ran out while this one waited for a worker
			}
			r, out := v.one(gctx, &issues[c.index], c)
			switch out {
			case outCancelled:
				return nil // not finished, not journaled
			case outBudget:
				// Cut off by the budget: left unverified and out of the
				// journal, so that a run with a larger budget asks again.
				mu.Lock()
				stats.Tokens += r.Tokens
				mu.Unlock()
				return nil
			}
			if err := j.add(r); err != nil {
				return err
			}
			finish(c, r, false)
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return err
	}
	return ctx.Err()
}

// apply writes a record's outcome onto its issue.
func (v *verifier) apply(is *issue.Issue, r Record) {
	ver := &issue.Verification{
		Verdict: issue.Verdict(r.Verdict), Confidence: r.Confidence, Reason: r.Reason, Model: r.Model,
		Evidence: r.Evidence, Severity: r.Severity, Fix: r.Fix, Turns: r.Turns, Tokens: r.Tokens,
		DurationMS: r.DurationMS, Error: r.Error,
	}
	if r.Status == StatusError {
		ver.Verdict = issue.VerdictError
		ver.Reason = r.Error
	}
	if ver.Verdict == issue.VerdictFalsePositive {
		if v.o.Policy(is.Rule) && !v.o.AllowPolicyDismiss {
			ver.PolicyKept = true
		} else {
			ver.Dismissed = true
		}
	}
	is.Verification = ver
}

// context lines around a finding in the candidate message.
const contextLines = 30

// outcome is how a candidate's run ended.
type outcome int

const (
	outFinished  outcome = iota // a verdict or an error, to be journaled
	outCancelled                // ctx ended first
	outBudget                   // the run's token budget ran out first
)

// budgetSpent reports whether the run's token budget is used up.
func (v *verifier) budgetSpent() bool {
	return v.o.MaxTokens > 0 && v.used.Load() >= int64(v.o.MaxTokens)
}

// budgetStop is a stop condition shared by every candidate's agent: it
// charges each model call to the run's budget as it happens, so that
// candidates running at once see each other's spending.
type budgetStop struct {
	v       *verifier
	charged int
	hit     bool
}

func (b *budgetStop) check(steps []agent.Step) (bool, string) {
	total := 0
	for _, s := range steps {
		if s.Response != nil {
			total += s.Response.Usage.Total()
		}
	}
	b.v.used.Add(int64(total - b.charged))
	b.charged = total
	if b.v.budgetSpent() {
		b.hit = true
		return true, fmt.Sprintf("token_budget (%d of %d for the run)", b.v.used.Load(), b.v.o.MaxTokens)
	}
	return false, ""
}

// one runs a candidate's agent. A candidate that ctx or the token budget
// cut off stays unverified and is not journaled.
func (v *verifier) one(ctx context.Context, is *issue.Issue, c candidate) (Record, outcome) {
	start := time.Now()
	rec := Record{ID: is.ID, Rule: is.Rule, File: is.File, Line: is.Line, Fingerprint: c.fingerprint, Model: v.o.Model.Name(), Prompt: PromptVersion}
	cctx, cancel := context.WithTimeout(ctx, v.o.CandidateTimeout)
	defer cancel()
	s := &slot{}
	read := &readSet{}
	var tools []tool.ReadOnlyTool
	for _, t := range v.root.Tools() {
		tools = append(tools, guarded{inner: t, m: v.masker, read: read})
	}
	tools = append(tools, verdictTool(s))
	stop := []agent.StopCondition{agent.ToolCalled("submit_verdict"), agent.MaxSteps(v.o.MaxTurns), agent.RepeatedToolCalls(3)}
	budget := &budgetStop{v: v}
	if v.o.MaxTokens > 0 {
		stop = append(stop, budget.check)
	}
	nudges := 0
	a := &agent.Agent{
		Name: "verify:" + is.ID, Model: v.o.Model, System: systemPrompt, Tools: tool.NewReadOnlyRegistry(tools...),
		Protocol: v.o.Protocol, StopWhen: stop, MaxTokens: 2048, Compaction: agent.Compaction{Threshold: 60000},
		Nudge: func([]agent.Step) string {
			if nudges++; nudges > 2 {
				return ""
			}
			return "You have not submitted a verdict. Call submit_verdict now with your conclusion (use \"uncertain\" if you could not decide)."
		},
	}
	src, from, to := excerpt(c.src, is.Line, contextLines)
	res, err := a.Run(cctx, agent.NewSession(is.ID), userMessage(is, langFence(is.Language), src, from, to, v.masker.mask))
	if res != nil {
		rec.Turns = len(res.Steps)
		rec.Tokens = res.Usage.Total()
		v.used.Add(int64(rec.Tokens - budget.charged)) // what the stop condition did not charge
	}
	rec.DurationMS = time.Since(start).Milliseconds()
	if ctx.Err() != nil {
		return rec, outCancelled
	}
	verdict := s.get()
	if verdict == nil && budget.hit {
		return rec, outBudget
	}
	switch {
	case verdict != nil:
		v.fill(&rec, verdict, c, read)
	case err != nil:
		rec.Status, rec.Error = StatusError, errorText(err, cctx)
	default:
		rec.Status, rec.Error = StatusError, fmt.Sprintf("no valid verdict (%s after %d turns)", res.StopReason, rec.Turns)
	}
	return rec, outFinished
}

// fill copies a verdict into the record, turning it into "uncertain" when
// its quoted evidence is not in the code the agent read.
func (v *verifier) fill(rec *Record, in *VerdictArgs, c candidate, read *readSet) {
	rec.Status = StatusVerdict
	rec.Verdict, rec.Confidence, rec.Reason = in.Verdict, in.Confidence, in.Reason
	rec.Evidence, rec.Severity, rec.Fix = in.Evidence, in.Severity, in.Fix
	texts := []string{string(c.src)}
	for _, p := range read.list() {
		if b, err := v.files.ReadFile(filepath.FromSlash(strings.TrimPrefix(p, "./"))); err == nil {
			texts = append(texts, string(b))
		}
	}
	if missing := missingQuotes(in.Evidence, texts); len(missing) > 0 {
		rec.Verdict = string(issue.VerdictUncertain)
		rec.Reason += fmt.Sprintf(" [jsec: verdict %q downgraded: quoted evidence not found verbatim in the code read: %q]", in.Verdict, missing[0])
	}
}

func errorText(err error, cctx context.Context) string {
	if errors.Is(cctx.Err(), context.DeadlineExceeded) {
		return "candidate timed out: " + err.Error()
	}
	return err.Error()
}

// excerpt returns the lines around line (1-based), each numbered, the
// flagged one marked.
func excerpt(src []byte, line, n int) (string, int, int) {
	if len(src) == 0 {
		return "", 0, 0
	}
	lines := strings.Split(strings.ReplaceAll(string(src), "\r\n", "\n"), "\n")
	from, to := max(1, line-n), min(len(lines), line+n)
	width := len(fmt.Sprint(to))
	var b strings.Builder
	for i := from; i <= to; i++ {
		mark := " "
		if i == line {
			mark = ">"
		}
		fmt.Fprintf(&b, "%s%*d: %s\n", mark, width, i, lines[i-1])
	}
	return strings.TrimRight(b.String(), "\n"), from, to
}

func langFence(lang string) string {
	switch lang {
	case "cpp":
		return "cpp"
	case "rust":
		return "rust"
	}
	return "c"
}
