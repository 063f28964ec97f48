package checkers

import (
	"context"
	"fmt"
	"runtime/debug"
	"sort"
	"sync/atomic"

	"github.com/jsec/jsec/checkers/syntax"
)

// Language binds a grammar, a lexer and the checkers of one language.
type Language struct {
	// Name is the language reported on issues: "c", "cpp" or "rust".
	Name    string
	Grammar syntax.Lang
	// Lex tokenizes a file and delimits its items; it must never fail.
	Lex func(src []byte) *Lexed
	// IdentByte reports whether b may occur in an identifier; a trigger
	// only counts when it is a whole identifier.
	IdentByte func(b byte) bool
	Checkers  []*Checker
}

// Analyzer runs one language's checkers over files. It is immutable and
// safe for concurrent use; the Parser passed to Analyze is not.
type Analyzer struct {
	lang    *Language
	words   *wordTable
	byWord  [][]*Checker
	enabled func(rule string) bool
	// filtered is the last Lexed.WordFilter found to cover words.
	filtered atomic.Pointer[WordFilter]
}

// NewAnalyzer compiles the trigger prefilter of lang's checkers. enabled
// selects rules (nil means all); a checker none of whose rules is enabled
// is left out, so its triggers cost nothing.
func NewAnalyzer(lang *Language, enabled func(rule string) bool) *Analyzer {
	if enabled == nil {
		enabled = func(string) bool { return true }
	}
	a := &Analyzer{lang: lang, enabled: enabled}
	index := map[string]int{}
	var words []string
	for _, c := range lang.Checkers {
		on := false
		for _, r := range c.Rules {
			on = on || enabled(r)
		}
		if !on {
			continue
		}
		for _, w := range c.Triggers {
			id, ok := index[w]
			if !ok {
				id = len(words)
				index[w] = id
				words = append(words, w)
				a.byWord = append(a.byWord, nil)
			}
			a.byWord[id] = append(a.byWord[id], c)
		}
	}
	a.words = newWordTable(words)
	return a
}

// Language returns the analyzer's language.
func (a *Analyzer) Language() *Language { return a.lang }

// Analysis is what analyzing one file produced.
type Analysis struct {
	Findings []Located
	// Parsed is the number of bytes handed to tree-sitter.
	Parsed int
	// Problems are non-fatal failures (a checker panic, a parse timeout):
	// the file's other findings still stand.
	Problems []string
}

// Located is a finding with what the engine adds: the enclosing function
// and whether it lies in test code.
type Located struct {
	Finding
	Function string
	Test     bool
}

type pending struct {
	c    *Checker
	tok  int
	word string
}

// Analyze runs the checkers over f. Only the items that hold a trigger
// are parsed.
func (a *Analyzer) Analyze(ctx context.Context, f *File, parser *syntax.Parser) (*Analysis, error) {
	return a.AnalyzeProfiled(ctx, f, parser, nil)
}

// AnalyzeProfiled is Analyze, adding the file's figures to prof when it
// is not nil.
func (a *Analyzer) AnalyzeProfiled(ctx context.Context, f *File, parser *syntax.Parser, prof *Profile) (*Analysis, error) {
	res := &Analysis{}
	if len(a.byWord) == 0 {
		return res, nil
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var fp *fileProfile
	if prof != nil {
		fp = &fileProfile{}
		defer prof.merge(fp)
	}
	lx := f.lexed
	if lx == nil {
		t0 := fp.now()
		lx = a.lang.Lex(f.Src)
		if fp != nil {
			fp.since(t0, &fp.total.Lex)
		}
		defer lx.Recycle() // nothing returned points into its buffers
	}
	work, needed := a.triage(f, lx, fp)
	if len(work) == 0 {
		return res, nil
	}
	ranges := ParseRanges(lx, needed)
	for _, r := range ranges {
		res.Parsed += r.End - r.Start
	}
	t0 := fp.now()
	tree, err := parser.Parse(f.Src, ranges)
	if fp != nil {
		fp.since(t0, &fp.total.Parse)
		fp.total.Parses++
		fp.total.ParsedBytes += int64(res.Parsed)
		fp.attribute(lx)
	}
	if err != nil {
		res.Problems = append(res.Problems, fmt.Sprintf("parse: %v; rules that need the syntax tree were skipped", err))
		return res, nil
	}
	p := &Pass{File: f, Lex: lx, Tree: tree}
	for _, w := range work {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		p.Item = &lx.Items[lx.ItemOf(w.tok)]
		p.checker = w.c
		hit := Hit{Word: w.word, Tok: w.tok, Node: leafAt(tree, int(lx.Tokens[w.tok].Start))}
		t0, n := fp.now(), len(p.findings)
		if msg := runCheck(p, hit); msg != "" {
			res.Problems = append(res.Problems, msg)
		}
		if fp != nil {
			t := fp.of(w.c)
			fp.since(t0, &t.Check)
			t.Reported += len(p.findings) - n
		}
	}
	res.Findings = a.locate(p)
	return res, nil
}

// triage looks every identifier token (never one in a comment, a string,
// a directive or dead code) up among the trigger words and asks each of
// the word's checkers whether the occurrence needs the syntax tree. It
// returns the occurrences to check and the items to parse.
func (a *Analyzer) triage(f *File, lx *Lexed, fp *fileProfile) (work []pending, needed []bool) {
	var list []int32 // nil: every token
	if a.usesFilter(lx) {
		list = lx.MayBeWords
	}
	if fp == nil {
		// One deferred recover for the file instead of one per question:
		// a Triage that panics is answered "yes" and the walk goes on
		// from the next question.
		w := triageWalk{a: a, f: f, lx: lx, list: list}
		for !w.run() {
			w.keep(w.pos, w.ci)
			w.ci++
		}
		return w.work, w.needed
	}
	n := len(lx.Tokens)
	if list != nil {
		n = len(list)
	}
	for i := range n {
		tok := i
		if list != nil {
			tok = int(list[i])
		}
		if lx.Tokens[tok].Kind == TokIdent {
			work, needed = a.triageAt(f, lx, fp, tok, work, needed)
		}
	}
	return work, needed
}

// triageWalk is Analyzer.triage without a profile, resumable after a
// Triage panics: pos is the position in list (or the token, when list is
// nil) and ci the checker of the word there being asked.
type triageWalk struct {
	a       *Analyzer
	f       *File
	lx      *Lexed
	list    []int32
	pos, ci int
	work    []pending
	needed  []bool
}

// run asks the questions from (pos, ci) on and reports whether it got
// through them all; false means a Triage panicked at (pos, ci).
func (w *triageWalk) run() (done bool) {
	defer func() {
		if recover() != nil {
			done = false
		}
	}()
	lx, toks := w.lx, w.lx.Tokens
	n := len(toks)
	if w.list != nil {
		n = len(w.list)
	}
	for ; w.pos < n; w.pos, w.ci = w.pos+1, 0 {
		tok := w.pos
		if w.list != nil {
			tok = int(w.list[w.pos])
		}
		t := &toks[tok]
		if t.Kind != TokIdent {
			continue
		}
		wd := w.a.words.lookupAt(w.f.Src, int(t.Start), int(t.End))
		if wd < 0 || lx.ItemOf(tok) < 0 {
			continue
		}
		for cs := w.a.byWord[wd]; w.ci < len(cs); w.ci++ {
			if c := cs[w.ci]; c.Triage == nil || c.Triage(lx, tok) {
				w.keep(w.pos, w.ci)
			}
		}
	}
	return true
}

// keep records that checker ci of the word at position pos needs its
// occurrence checked.
func (w *triageWalk) keep(pos, ci int) {
	tok := pos
	if w.list != nil {
		tok = int(w.list[pos])
	}
	t := &w.lx.Tokens[tok]
	wd := w.a.words.lookupAt(w.f.Src, int(t.Start), int(t.End))
	if w.needed == nil {
		w.needed = make([]bool, len(w.lx.Items))
	}
	w.work = append(w.work, pending{w.a.byWord[wd][ci], tok, w.a.words.words[wd]})
	w.needed[w.lx.ItemOf(tok)] = true
}

// usesFilter reports whether the lexer marked the identifiers that may be
// trigger words with a filter that lets all of a's words through.
func (a *Analyzer) usesFilter(lx *Lexed) bool {
	f := lx.WordFilter
	if f == nil {
		return false
	}
	if a.filtered.Load() == f {
		return true
	}
	if !f.covers(a.words) {
		return false
	}
	a.filtered.Store(f)
	return true
}

// triageAt is triage of the identifier token tok.
func (a *Analyzer) triageAt(f *File, lx *Lexed, fp *fileProfile, tok int, work []pending, needed []bool) ([]pending, []bool) {
	t := &lx.Tokens[tok]
	w := a.words.lookupAt(f.Src, int(t.Start), int(t.End))
	if w < 0 {
		return work, needed
	}
	item := lx.ItemOf(tok)
	if item < 0 {
		return work, needed
	}
	for _, c := range a.byWord[w] {
		var keep bool
		if fp == nil {
			keep = c.Triage == nil || triage(c, lx, tok)
		} else {
			keep = fp.triage(c, lx, tok, item)
		}
		if keep {
			if needed == nil {
				needed = make([]bool, len(lx.Items))
			}
			work = append(work, pending{c, tok, a.words.words[w]})
			needed[item] = true
		}
	}
	return work, needed
}

// ParseRanges returns the byte ranges of the needed items, merged where
// adjacent and with dead preprocessor code cut out.
func ParseRanges(lx *Lexed, needed []bool) []syntax.Range {
	var ranges []syntax.Range
	add := func(start, end int) {
		if end <= start {
			return
		}
		if n := len(ranges); n > 0 && ranges[n-1].End == start {
			ranges[n-1].End = end
			return
		}
		ranges = append(ranges, syntax.Range{Start: start, End: end})
	}
	d := 0
	for i, it := range lx.Items {
		if !needed[i] {
			continue
		}
		start := it.Start
		for d < len(lx.Dead) && lx.Dead[d].End <= start {
			d++
		}
		for k := d; k < len(lx.Dead) && lx.Dead[k].Start < it.End; k++ {
			add(start, lx.Dead[k].Start)
			start = max(start, lx.Dead[k].End)
		}
		add(start, it.End)
	}
	return ranges
}

// triage asks a checker whether an occurrence needs the syntax tree; a
// Triage that panics (on truncated code, say) is answered "yes", so that
// Check, whose panics are reported, decides.
func triage(c *Checker, lx *Lexed, tok int) (need bool) {
	defer func() {
		if recover() != nil {
			need = true
		}
	}()
	return c.Triage(lx, tok)
}

// runCheck calls the checker, turning a panic into a problem report so
// that one bad rule cannot take the scan down.
func runCheck(p *Pass, h Hit) (problem string) {
	defer func() {
		if r := recover(); r != nil {
			problem = fmt.Sprintf("checker %s panicked at line %d: %v\n%s", p.checker.Name, p.File.Lines().Line(int(p.Lex.Tokens[h.Tok].Start)), r, debug.Stack())
		}
	}()
	p.checker.Check(p, h)
	return ""
}

// leafAt returns the node that starts at off: the deepest one.
func leafAt(t *syntax.Tree, off int) syntax.Node {
	n := t.NodeAt(off)
	if n.Valid() && n.Start() != off {
		return syntax.Node{}
	}
	return n
}

// locate drops disabled and duplicate findings, sorts the rest and adds
// the enclosing function and test context.
func (a *Analyzer) locate(p *Pass) []Located {
	type key struct {
		rule  string
		start int
	}
	best := map[key]int{}
	var out []Located
	for _, f := range p.findings {
		if !a.enabled(f.Rule) {
			continue
		}
		k := key{f.Rule, f.Span.Start}
		if i, ok := best[k]; ok {
			if f.Adjust > out[i].Adjust {
				out[i].Finding = f
			}
			continue
		}
		n := p.Tree.NodeAt(f.Span.Start)
		item := p.Lex.ItemAt(f.Span.Start)
		test := p.File.Test || item >= 0 && p.Lex.Items[item].Test
		best[k] = len(out)
		fn := f.Function
		if fn == "" {
			fn = FunctionName(n)
		}
		out = append(out, Located{Finding: f, Function: fn, Test: test})
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Span.Start != out[j].Span.Start {
			return out[i].Span.Start < out[j].Span.Start
		}
		return out[i].Rule < out[j].Rule
	})
	return out
}
