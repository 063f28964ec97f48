package main

import (
	"fmt"
	"io"
	"time"

	"github.com/jsec/jsec/checkers"
)

// timesShown bounds the checkers 'jsec scan --time' lists one by one.
const timesShown = 25

// printTimes writes what --time collected: the phases' CPU time summed
// over the workers, then each checker's triggers, what its triage kept,
// its findings, its time and the bytes parsed for it alone, costliest
// first.
func printTimes(w io.Writer, p *checkers.Profile, res *checkers.Result, jobs int) {
	t := p.Totals()
	fmt.Fprintf(w, "jsec: time by phase (CPU time summed over up to %d workers; the scan took %.2fs)\n", jobs, res.Duration.Seconds())
	fmt.Fprintf(w, "  lex     %s  %d files, %.1f MB\n", msCol(t.Lex), t.Files, float64(res.Bytes)/(1<<20))
	share := 0.0
	if res.Bytes > 0 {
		share = 100 * float64(t.ParsedBytes) / float64(res.Bytes)
	}
	fmt.Fprintf(w, "  parse   %s  %d parses, %.1f MB (%.1f%% of what was read)\n", msCol(t.Parse), t.Parses, float64(t.ParsedBytes)/(1<<20), share)
	fmt.Fprintf(w, "  triage  %s\n", msCol(t.Triage))
	fmt.Fprintf(w, "  checks  %s\n", msCol(t.Check))
	cs := p.Checkers()
	if len(cs) == 0 {
		return
	}
	fmt.Fprintf(w, "%-30s %9s %7s %8s %10s %10s %12s\n", "checker", "triggers", "kept", "reported", "triage ms", "check ms", "parsed alone")
	for i, c := range cs {
		if i == timesShown {
			fmt.Fprintf(w, "(%d more checkers, %.1f ms together)\n", len(cs)-i, restMS(cs[i:]))
			break
		}
		fmt.Fprintf(w, "%-30s %9d %7d %8d %10.1f %10.1f %9.0f KB\n", c.Checker, c.Triggers, c.Kept, c.Reported,
			ms(c.Triage), ms(c.Check), float64(c.AloneBytes)/1024)
	}
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

func msCol(d time.Duration) string { return fmt.Sprintf("%8.1f ms", ms(d)) }

func restMS(cs []checkers.CheckerTime) float64 {
	var d time.Duration
	for _, c := range cs {
		d += c.Triage + c.Check
	}
	return ms(d)
}
