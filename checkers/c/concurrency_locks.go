package c

import (
	"fmt"
	"sort"

	"github.com/jsec/jsec/checkers"
	"github.com/jsec/jsec/checkers/syntax"
)

// The lock rules: double lock, missing unlock (an asymmetric exit) and
// lock-order inversion between two functions of the file. All three read
// the path exploration of every function of the file that takes a lock;
// it runs once per file, at the first lock trigger.

const (
	ruleDoubleLock    = "c.sync.double-lock"
	ruleMissingUnlock = "c.sync.missing-unlock"
	ruleLockOrder     = "c.sync.lock-order"
)

// guardTypes are the C++ RAII lock guards.
var guardTypes = map[string]bool{"lock_guard": true, "unique_lock": true, "scoped_lock": true, "shared_lock": true}

type guardInfo struct {
	guardVar
	op lockOp
}

// guardDecl recognises "std::lock_guard<std::mutex> g(mu);" and its kin
// (tree-sitter reads the most vexing parse as a function declarator, so
// both shapes are handled) and returns the guard's name and operation.
func (b *cfgBuilder) guardDecl(decl syntax.Node) (string, guardInfo, bool) {
	t := decl.Field("type")
	if t.Kind() == "qualified_identifier" {
		t = t.Field("name")
	}
	if t.Kind() == "template_type" {
		t = t.Field("name")
	}
	if !guardTypes[t.Text()] {
		return "", guardInfo{}, false
	}
	d := decl.Field("declarator")
	var name string
	var args []syntax.Node
	switch d.Kind() {
	case "function_declarator":
		name = d.Field("declarator").Text()
		for pd := range d.Field("parameters").NamedChildren() {
			if pd.Kind() == "parameter_declaration" {
				args = append(args, pd)
			}
		}
	case "init_declarator":
		name = declIdent(d.Field("declarator"))
		for a := range d.Field("value").NamedChildren() {
			if a.Kind() != "comment" {
				args = append(args, a)
			}
		}
	default:
		return "", guardInfo{}, false
	}
	gi := guardInfo{op: lockOp{kind: opAcquire, raii: true, node: decl}}
	gi.read = t.Text() == "shared_lock"
	for _, a := range args {
		switch txt := squash(a.Text()); txt {
		case "std::defer_lock", "defer_lock", "std::try_to_lock", "try_to_lock":
			gi.op.kind = 0
		case "std::adopt_lock", "adopt_lock":
			gi.op.adopt = true
		default:
			gi.mutexes = append(gi.mutexes, mutexText(a))
		}
	}
	if len(gi.mutexes) == 0 {
		return name, guardInfo{}, false
	}
	gi.op.mutexes = gi.mutexes
	gi.op.read = gi.read
	return name, gi, true
}

type lockFileKey struct{}

type lockResult struct {
	findings []checkers.Finding
	reported bool
}

// checkLocks reports the lock findings of the whole file at its first
// lock trigger.
func checkLocks(p *checkers.Pass, _ checkers.Hit) {
	r := checkers.Memo(p, lockFileKey{}, func() *lockResult { return analyzeLocks(p) })
	if r.reported {
		return
	}
	r.reported = true
	for _, f := range r.findings {
		p.Report(f)
	}
}

type fnPairs struct {
	fn    syntax.Node
	name  string
	pairs []lockPair
}

func analyzeLocks(p *checkers.Pass) *lockResult {
	r := &lockResult{}
	recursive := fileMentions(p.Lex, "PTHREAD_MUTEX_RECURSIVE", "PTHREAD_MUTEX_RECURSIVE_NP",
		"PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP", "recursive_mutex", "recursive_timed_mutex")
	var all []fnPairs
	p.Tree.Root().Walk(func(n syntax.Node) bool {
		if n.Kind() != "function_definition" {
			return true
		}
		if hasLockOps(n) {
			g := buildCFG(p, n, nil)
			facts := exploreLocks(g)
			name := checkers.FunctionName(n)
			if !recursive {
				r.findings = append(r.findings, doubleFindings(p, facts)...)
			}
			if facts.complete {
				r.findings = append(r.findings, missingUnlockFindings(p, n, name, g, facts)...)
			}
			all = append(all, fnPairs{n, name, facts.mustPairs()})
		}
		return true // methods inside class bodies
	})
	r.findings = append(r.findings, lockOrderFindings(p, all)...)
	return r
}

// hasLockOps reports whether fn takes a lock in a way the graph models.
func hasLockOps(fn syntax.Node) bool { return containsLockOps(fn.Field("body")) }

func containsLockOps(body syntax.Node) bool {
	found := false
	body.Walk(func(n syntax.Node) bool {
		if deadBranch(n) == 1 {
			found = found || containsLockOps(n.Field("alternative"))
			return false
		}
		switch n.Kind() {
		case "call_expression":
			name := CalleeName(n)
			if acquireFns[name] || tryFns[name] {
				found = true
			}
			if f := n.Field("function"); f.Kind() == "field_expression" {
				switch f.Field("field").Text() {
				case "lock", "try_lock", "lock_shared":
					found = true
				}
			}
		case "declaration":
			t := n.Field("type")
			if t.Kind() == "qualified_identifier" {
				t = t.Field("name")
			}
			if t.Kind() == "template_type" {
				t = t.Field("name")
			}
			found = found || guardTypes[t.Text()]
		}
		return !found
	})
	return found
}

func doubleFindings(p *checkers.Pass, f *pathFacts) []checkers.Finding {
	var out []checkers.Finding
	for _, d := range f.doubles {
		if f.unheld[acquisition{d.at.Index(), d.m}] {
			continue // another path gets here without the lock: not straight-line
		}
		out = append(out, checkers.Finding{Rule: ruleDoubleLock, Span: checkers.NodeSpan(d.at),
			Message: fmt.Sprintf("'%s' is locked again while this path already holds it (locked at line %d): a non-recursive mutex deadlocks here",
				d.m, srcLine(p, d.first.Start()))})
	}
	return out
}

// missingUnlockFindings reports exits that hold a mutex which other paths
// of the same function release. A function whose final exit always holds
// the mutex and that returns a value is taken to return locked by
// contract (its early exits that unlock are its failure paths); a void
// function has no way to tell its caller, so any asymmetry counts.
func missingUnlockFindings(p *checkers.Pass, fn syntax.Node, name string, g *lockGraph, f *pathFacts) []checkers.Finding {
	final := finalExit(g, f)
	void := voidFunction(fn)
	var mutexes []string
	released := map[string]bool{}
	for _, arrivals := range f.arrivals {
		for _, locks := range arrivals {
			for _, l := range locks {
				if l.opaque {
					continue
				}
				if l.st == stReleased {
					released[l.m] = true
				}
				if l.st == stHeld && !l.raii && !hasString(mutexes, l.m) {
					mutexes = append(mutexes, l.m)
				}
			}
		}
	}
	sort.Strings(mutexes)
	exits := make([]int32, 0, len(f.arrivals))
	for e := range f.arrivals {
		exits = append(exits, e)
	}
	sort.Slice(exits, func(i, j int) bool { return exits[i] < exits[j] })
	var out []checkers.Finding
	seen := map[int]bool{}
	for _, m := range mutexes {
		if !released[m] || !void && final >= 0 && alwaysHeld(f.arrivals[final], m) {
			continue
		}
		for _, e := range exits {
			for _, locks := range f.arrivals[e] {
				for _, l := range locks {
					if l.m != m || l.st != stHeld || l.raii || l.touched {
						continue
					}
					at, msg := exitMessage(p, g.nodes[e], l, name)
					if at.Valid() && !seen[at.Index()] {
						seen[at.Index()] = true
						out = append(out, checkers.Finding{Rule: ruleMissingUnlock, Span: checkers.NodeSpan(at), Message: msg})
					}
				}
			}
		}
	}
	return out
}

func exitMessage(p *checkers.Pass, e graphNode, l heldLock, fn string) (syntax.Node, string) {
	lockLine := srcLine(p, l.at.Start())
	switch {
	case l.via.Valid():
		return l.via, fmt.Sprintf("'goto %s' leaves '%s' locked (locked at line %d): the code after the label exits without unlocking it, while other paths of '%s' unlock it",
			l.via.Field("label").Text(), l.m, lockLine, fn)
	case e.exit == exitFallOff:
		return e.at, fmt.Sprintf("'%s' can reach its end with '%s' still locked (locked at line %d), while other paths unlock it", fn, l.m, lockLine)
	}
	return e.at, fmt.Sprintf("returns with '%s' still locked (locked at line %d), while other paths of '%s' unlock it", l.m, lockLine, fn)
}

func alwaysHeld(arrivals [][]heldLock, m string) bool {
	if len(arrivals) == 0 {
		return false
	}
	for _, locks := range arrivals {
		held := false
		for _, l := range locks {
			held = held || l.m == m && l.st == stHeld
		}
		if !held {
			return false
		}
	}
	return true
}

// finalExit is the function's normal exit: its end when reachable, else
// its last return statement.
func finalExit(g *lockGraph, f *pathFacts) int32 {
	best := int32(-1)
	for e := range f.arrivals {
		n := g.nodes[e]
		if n.exit == exitFallOff {
			return e
		}
		if best < 0 || n.at.Start() > g.nodes[best].at.Start() {
			best = e
		}
	}
	return best
}

// voidFunction reports whether fn returns nothing (constructors and
// destructors included).
func voidFunction(fn syntax.Node) bool {
	t := fn.Field("type")
	if !t.Valid() {
		return true
	}
	return t.Text() == "void" && fn.Field("declarator").Kind() == "function_declarator"
}

// lockOrderFindings reports nested acquisitions that two functions of the
// file make in opposite orders. When more functions agree on one order,
// the functions of the other (the odd ones out) are reported; on a tie,
// the orientation met last in the file is.
func lockOrderFindings(p *checkers.Pass, fns []fnPairs) []checkers.Finding {
	type use struct {
		fn   int
		pair lockPair
	}
	byOrder := map[[2]string][]use{}
	var keys [][2]string
	for i, f := range fns {
		for _, pr := range f.pairs {
			k := [2]string{pr.a, pr.b}
			if _, ok := byOrder[k]; !ok {
				keys = append(keys, k)
			}
			byOrder[k] = append(byOrder[k], use{i, pr})
		}
	}
	var out []checkers.Finding
	for _, k := range keys {
		mine, other := byOrder[k], byOrder[[2]string{k[1], k[0]}]
		if len(other) == 0 {
			continue
		}
		if len(mine) > len(other) || len(mine) == len(other) && mine[len(mine)-1].fn < other[len(other)-1].fn {
			continue // the other orientation is the one reported
		}
		q := other[0]
		for _, u := range mine {
			if u.fn == q.fn {
				continue
			}
			out = append(out, checkers.Finding{Rule: ruleLockOrder, Span: checkers.NodeSpan(u.pair.at),
				Message: fmt.Sprintf("'%s' locks '%s' while holding '%s', but '%s' (line %d) locks '%s' while holding '%s': two threads running them can deadlock",
					fns[u.fn].name, u.pair.b, u.pair.a, fns[q.fn].name, srcLine(p, q.pair.at.Start()), q.pair.b, q.pair.a)})
		}
	}
	return out
}
