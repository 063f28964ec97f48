package checkers

import (
	"cmp"
	"slices"
	"sync"
	"time"
)

// Profile collects where a scan's time goes, checker by checker: what
// 'jsec scan --time' prints. Set Options.Profile to a new Profile to
// collect; it is safe for concurrent use. Collecting costs two clock
// reads per trigger and per check, a few percent of a scan.
type Profile struct {
	mu     sync.Mutex
	byName map[string]*CheckerTime
	total  ProfileTotals
}

// ProfileTotals is the time of the scan's phases summed over every file
// (CPU time of the workers, not wall time).
type ProfileTotals struct {
	Files int
	// Lex is the time spent tokenizing (and classifying .h files).
	Lex time.Duration
	// Parse is tree-sitter's time; Parses and ParsedBytes count its calls
	// and the bytes it was given.
	Parse       time.Duration
	Parses      int
	ParsedBytes int64
	// Triage and Check sum the checkers' times.
	Triage, Check time.Duration
}

// CheckerTime is one checker's share of a scan.
type CheckerTime struct {
	Checker string
	// Triggers counts the occurrences of its trigger words, Kept those
	// its triage passed on to the parse and check, Reported the findings
	// its checks reported (before deduplication and filters).
	Triggers, Kept, Reported int
	Triage, Check            time.Duration
	// AloneBytes counts the bytes parsed only because of this checker:
	// items that no other checker needed.
	AloneBytes int64
}

// NewProfile returns an empty profile.
func NewProfile() *Profile { return &Profile{byName: map[string]*CheckerTime{}} }

// Totals returns the scan-wide sums.
func (p *Profile) Totals() ProfileTotals {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.total
}

// Checkers returns each checker that saw a trigger, the costliest (triage
// and check) first.
func (p *Profile) Checkers() []CheckerTime {
	p.mu.Lock()
	out := make([]CheckerTime, 0, len(p.byName))
	for _, c := range p.byName {
		out = append(out, *c)
	}
	p.mu.Unlock()
	slices.SortFunc(out, func(a, b CheckerTime) int {
		if c := cmp.Compare(b.Triage+b.Check, a.Triage+a.Check); c != 0 {
			return c
		}
		return cmp.Compare(a.Checker, b.Checker)
	})
	return out
}

// addLex records lexing done outside Analyze (a header lexed to decide
// its language).
func (p *Profile) addLex(d time.Duration) {
	p.mu.Lock()
	p.total.Lex += d
	p.mu.Unlock()
}

// fileProfile gathers one file's figures, merged into the Profile once.
type fileProfile struct {
	total  ProfileTotals
	byName map[*Checker]*CheckerTime
	owner  []*CheckerTime // by item: the one checker that needs it; shared when several do
}

// shared marks an item that more than one checker needs.
var shared = &CheckerTime{}

func (f *fileProfile) of(c *Checker) *CheckerTime {
	t := f.byName[c]
	if t == nil {
		if f.byName == nil {
			f.byName = map[*Checker]*CheckerTime{}
		}
		t = &CheckerTime{Checker: c.Name}
		f.byName[c] = t
	}
	return t
}

// need records that checker t needs item (of n items).
func (f *fileProfile) need(t *CheckerTime, item, n int) {
	if f.owner == nil {
		f.owner = make([]*CheckerTime, n)
	}
	switch o := f.owner[item]; {
	case o == nil:
		f.owner[item] = t
	case o != t:
		f.owner[item] = shared
	}
}

// attribute credits each item needed by one checker alone to it.
func (f *fileProfile) attribute(lx *Lexed) {
	for i, o := range f.owner {
		if o != nil && o != shared {
			o.AloneBytes += int64(lx.Items[i].End - lx.Items[i].Start)
		}
	}
}

func (p *Profile) merge(f *fileProfile) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.total.Files++
	p.total.Lex += f.total.Lex
	p.total.Parse += f.total.Parse
	p.total.Parses += f.total.Parses
	p.total.ParsedBytes += f.total.ParsedBytes
	for _, t := range f.byName {
		p.total.Triage += t.Triage
		p.total.Check += t.Check
		s := p.byName[t.Checker]
		if s == nil {
			s = &CheckerTime{Checker: t.Checker}
			p.byName[t.Checker] = s
		}
		s.Triggers += t.Triggers
		s.Kept += t.Kept
		s.Reported += t.Reported
		s.Triage += t.Triage
		s.Check += t.Check
		s.AloneBytes += t.AloneBytes
	}
}

// now reads the clock when f collects (the zero time otherwise).
func (f *fileProfile) now() time.Time {
	if f == nil {
		return time.Time{}
	}
	return time.Now()
}

// since adds the time from t0 to *d when f collects.
func (f *fileProfile) since(t0 time.Time, d *time.Duration) {
	if f != nil {
		*d += time.Since(t0)
	}
}

// triage runs c's triage on the occurrence at tok, timing and counting
// it, and records the item as needed by c when kept.
func (f *fileProfile) triage(c *Checker, lx *Lexed, tok, item int) bool {
	t := f.of(c)
	t.Triggers++
	t0 := time.Now()
	keep := c.Triage == nil || triage(c, lx, tok)
	t.Triage += time.Since(t0)
	if keep {
		t.Kept++
		f.need(t, item, len(lx.Items))
	}
	return keep
}
