package c

import (
	"strconv"
	"strings"

	"github.com/jsec/jsec/checkers"
	"github.com/jsec/jsec/checkers/syntax"
)

// This file explores the lock graph of concurrency_cfg.go path by path.
// A state is the set of mutexes a path has touched (held, or acquired and
// released) plus the decisions it took at correlated branches; states that
// meet at a node are explored once, so the work is bounded by the distinct
// lock states, not by the number of paths.

const (
	stHeld     uint8 = iota + 1
	stReleased       // acquired, then released on this path
	stFree           // released without an acquisition seen on this path
)

type heldLock struct {
	m       string
	st      uint8
	raii    bool
	read    bool
	opaque  bool
	touched bool        // passed to a function jsec cannot see into
	at      syntax.Node // the acquisition
	via     syntax.Node // the last goto taken while held
	resVar  string
}

type branchChoice struct {
	key string
	way int
}

type lockState struct {
	locks []heldLock
	dec   []branchChoice
}

func (s *lockState) clone() *lockState {
	return &lockState{locks: append([]heldLock(nil), s.locks...), dec: append([]branchChoice(nil), s.dec...)}
}

func (s *lockState) find(m string) int {
	for i := range s.locks {
		if s.locks[i].m == m {
			return i
		}
	}
	return -1
}

func (s *lockState) anyHeld() bool {
	for _, l := range s.locks {
		if l.st == stHeld {
			return true
		}
	}
	return false
}

func (s *lockState) key(node int32) string {
	var b strings.Builder
	b.WriteString(strconv.Itoa(int(node)))
	for _, l := range s.locks {
		b.WriteByte('|')
		b.WriteString(l.m)
		b.WriteByte(':')
		b.WriteString(strconv.Itoa(int(l.st)))
		b.WriteByte(':')
		b.WriteString(strconv.Itoa(l.at.Index()))
		b.WriteByte(':')
		b.WriteString(strconv.Itoa(l.via.Index()))
		if l.raii {
			b.WriteByte('r')
		}
		if l.touched {
			b.WriteByte('t')
		}
		b.WriteString(l.resVar)
	}
	for _, d := range s.dec {
		b.WriteByte('#')
		b.WriteString(d.key)
		b.WriteByte('=')
		b.WriteString(strconv.Itoa(d.way))
	}
	return b.String()
}

// doubleLock is a lock of a mutex the path already holds.
type doubleLock struct {
	m         string
	at, first syntax.Node
}

// lockPair is a nested acquisition: b taken while a is held.
type lockPair struct {
	a, b  string
	at    syntax.Node // the acquisition of b
	first syntax.Node // the acquisition of a
}

// pathFacts is what the exploration of one function found.
type pathFacts struct {
	doubles []doubleLock
	pairs   []lockPair
	// arrivals holds, per exit node, the lock sets paths reach it with.
	arrivals map[int32][][]heldLock
	// writes: per write node, whether some path reaches it holding a lock.
	writes map[int32]bool
	// unheld: acquisitions that some path reaches without holding the
	// mutex; a double lock is only reported where every path holds it.
	unheld map[acquisition]bool
	// arrived counts the states that reach an acquisition, nested those
	// among them that hold another mutex: a pair counts for lock order
	// only when every path holds the first mutex.
	arrived  map[acquisition]int
	nested   map[nesting]int
	complete bool // false when the state budget ran out
}

// nesting is an acquisition made while mutex held is held.
type nesting struct {
	acquisition
	held string
}

// mustPairs returns the nested acquisitions that hold on every path.
func (f *pathFacts) mustPairs() []lockPair {
	var out []lockPair
	seen := map[[2]string]bool{}
	for _, pr := range f.pairs {
		a := acquisition{pr.at.Index(), pr.b}
		if f.nested[nesting{a, pr.a}] == f.arrived[a] && !seen[[2]string{pr.a, pr.b}] {
			seen[[2]string{pr.a, pr.b}] = true
			out = append(out, pr)
		}
	}
	return out
}

// acquisition names one mutex of one acquiring operation.
type acquisition struct {
	node int
	m    string
}

// maxStates bounds the exploration of one function.
const maxStates = 8000

func exploreLocks(g *lockGraph) *pathFacts {
	f := &pathFacts{arrivals: map[int32][][]heldLock{}, writes: map[int32]bool{}, unheld: map[acquisition]bool{},
		arrived: map[acquisition]int{}, nested: map[nesting]int{}, complete: true}
	type item struct {
		node int32
		st   *lockState
	}
	seen := map[string]bool{}
	seenDouble := map[[2]int]bool{}
	seenPair := map[string]bool{}
	stack := []item{{g.entry, &lockState{}}}
	for len(stack) > 0 {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		k := it.st.key(it.node)
		if seen[k] {
			continue
		}
		if len(seen) >= maxStates {
			f.complete = false
			break
		}
		seen[k] = true
		n := &g.nodes[it.node]
		switch n.kind {
		case cfgNop:
			if len(n.succ) > 0 {
				stack = append(stack, item{n.succ[0], it.st})
			}
		case cfgExit:
			f.arrivals[it.node] = append(f.arrivals[it.node], it.st.locks)
		case cfgOp:
			st := it.st.clone()
			if !f.apply(n, st, seenDouble, seenPair, it.node) {
				continue
			}
			stack = append(stack, item{n.succ[0], st})
		case cfgBranch:
			for way, next := range n.succ {
				st, ok := branchState(n, it.st, way)
				if ok {
					stack = append(stack, item{next, st})
				}
			}
		}
	}
	return f
}

// branchState returns the state on the way-th side of a branch, ok=false
// when a correlated branchChoice excludes that side.
func branchState(n *graphNode, in *lockState, way int) (*lockState, bool) {
	st := in
	if n.key != "" {
		decided := false
		for _, d := range in.dec {
			if d.key == n.key {
				if d.way != way {
					return nil, false
				}
				decided = true
			}
		}
		if !decided {
			st = in.clone()
			st.dec = append(st.dec, branchChoice{n.key, way})
		}
	}
	if n.testVar != "" && way == n.failSucc {
		drop := false
		for _, l := range st.locks {
			drop = drop || l.st == stHeld && l.resVar == n.testVar
		}
		if drop {
			if st == in {
				st = in.clone()
			}
			kept := st.locks[:0]
			for _, l := range st.locks {
				if !(l.st == stHeld && l.resVar == n.testVar) {
					kept = append(kept, l)
				}
			}
			st.locks = kept
		}
	}
	return st, true
}

// apply runs an operation on st; false ends the path.
func (f *pathFacts) apply(n *graphNode, st *lockState, seenDouble map[[2]int]bool, seenPair map[string]bool, idx int32) bool {
	op := &n.op
	switch op.kind {
	case opExit:
		return false
	case opGoto:
		for i := range st.locks {
			if st.locks[i].st == stHeld {
				st.locks[i].via = op.node
			}
		}
	case opWrite:
		f.writes[idx] = f.writes[idx] || st.anyHeld()
	case opTouch:
		for _, m := range op.mutexes {
			if i := st.find(m); i >= 0 && st.locks[i].st == stHeld {
				st.locks[i].touched = true
			}
		}
	case opRelease:
		f.release(op, st)
	case opAcquire:
		for _, m := range op.mutexes {
			f.acquire(op, m, st, seenDouble, seenPair)
		}
	}
	return true
}

func (f *pathFacts) release(op *lockOp, st *lockState) {
	if op.all {
		for i := range st.locks {
			if st.locks[i].st == stHeld && !st.locks[i].opaque {
				st.locks[i].st = stReleased
			}
		}
		return
	}
	for _, m := range op.mutexes {
		i := st.find(m)
		switch {
		case i < 0:
			st.locks = append(st.locks, heldLock{m: m, st: stFree})
		case op.raii:
			st.locks[i].st = stFree // a guard's scope ended: no evidence of a manual unlock
		case st.locks[i].st == stHeld:
			st.locks[i].st = stReleased
		}
	}
}

func (f *pathFacts) acquire(op *lockOp, m string, st *lockState, seenDouble map[[2]int]bool, seenPair map[string]bool) {
	i := st.find(m)
	if op.adopt {
		if i >= 0 && st.locks[i].st == stHeld {
			st.locks[i].raii = true
			return
		}
	}
	if i >= 0 && st.locks[i].st == stHeld && !op.opaque && !st.locks[i].opaque && !st.locks[i].touched && !(op.read && st.locks[i].read) {
		k := [2]int{op.node.Index(), st.locks[i].at.Index()}
		if !seenDouble[k] {
			seenDouble[k] = true
			f.doubles = append(f.doubles, doubleLock{m: m, at: op.node, first: st.locks[i].at})
		}
	} else {
		f.unheld[acquisition{op.node.Index(), m}] = true
	}
	if !op.opaque {
		f.arrived[acquisition{op.node.Index(), m}]++
		for _, o := range st.locks {
			if o.st != stHeld || o.opaque || o.m == m || hasString(op.mutexes, o.m) {
				continue
			}
			f.nested[nesting{acquisition{op.node.Index(), m}, o.m}]++
			k := o.m + "\x00" + m + "\x00" + strconv.Itoa(op.node.Index())
			if !seenPair[k] {
				seenPair[k] = true
				f.pairs = append(f.pairs, lockPair{a: o.m, b: m, at: op.node, first: o.at})
			}
		}
	}
	h := heldLock{m: m, st: stHeld, raii: op.raii || op.adopt, read: op.read, opaque: op.opaque, at: op.node, resVar: op.resVar}
	if i >= 0 {
		st.locks[i] = h
	} else {
		st.locks = append(st.locks, h)
	}
}

func hasString(xs []string, s string) bool {
	for _, x := range xs {
		if x == s {
			return true
		}
	}
	return false
}

// helperSummary is what the tokens of a helper function defined in the
// file say about its locking: whether it leaves a lock held, and which
// mutexes it releases (releasesArg: one reached through its parameters,
// which the call site names differently).
type helperSummary struct {
	acquires    bool
	releases    []string
	releasesArg bool
}

// helperSummary summarizes the function name of this file from its
// tokens, once per file and name.
func (b *cfgBuilder) helperSummary(name string) (helperSummary, bool) {
	if b.helpers == nil {
		b.helpers = checkers.Memo(b.p, helpersKey{}, func() map[string]helperSummary { return map[string]helperSummary{} })
	}
	if s, ok := b.helpers[name]; ok {
		return s, s.acquires || len(s.releases) > 0 || s.releasesArg
	}
	d, ok := fileFuncs(b.p)[name]
	if !ok {
		return helperSummary{}, false
	}
	s := summarizeHelper(b.p.Lex, d)
	b.helpers[name] = s
	return s, s.acquires || len(s.releases) > 0 || s.releasesArg
}

type helpersKey struct{}

func summarizeHelper(lx *checkers.Lexed, d funcDef) helperSummary {
	params := map[string]bool{}
	if cl := lx.Close(d.nameTok + 1); cl > 0 {
		for j := d.nameTok + 2; j < cl; j++ {
			if lx.Kind(j) == checkers.TokIdent && (lx.Is(j+1, ",") || lx.Is(j+1, ")") || lx.Is(j+1, "[")) {
				params[lx.Text(j)] = true
			}
		}
	}
	var s helperSummary
	held := map[string]bool{}
	from, to := d.body()
	for j := from; j < to; j++ {
		if lx.Kind(j) != checkers.TokIdent || !lx.Is(j+1, "(") {
			continue
		}
		w := lx.Text(j)
		acq, rel := acquireFns[w], releaseFns[w]
		if !acq && !rel {
			continue
		}
		args, ok := lx.CallArgs(j)
		if !ok || len(args) == 0 {
			continue
		}
		var arg strings.Builder
		for k := args[0].Start; k < args[0].End; k++ {
			arg.WriteString(lx.Text(k))
		}
		m := strings.TrimLeft(arg.String(), "&")
		root := m
		if k := strings.IndexAny(root, "-.[>"); k >= 0 {
			root = root[:k]
		}
		root = strings.Trim(root, "*()")
		switch {
		case acq:
			held[m] = true
		case held[m]:
			delete(held, m)
		case params[root]:
			s.releasesArg = true
		default:
			s.releases = append(s.releases, m)
		}
	}
	s.acquires = len(held) > 0
	return s
}
