package c

import (
	"github.com/jsec/jsec/checkers"
)

// Concurrency family: locks, condition waits, threads, signal handlers and
// library calls that keep hidden static state. Its rules are in
// rules/c_concurrency.go; the lock analysis is in concurrency_cfg.go,
// concurrency_paths.go and concurrency_locks.go, the thread rules in
// concurrency_threads.go, the signal and API rules in
// concurrency_signal.go.
const (
	ruleCondWait     = "c.sync.cond-wait"
	ruleThreadLeak   = "c.sync.thread-leak"
	ruleDataRace     = "c.sync.data-race"
	ruleSignalUnsafe = "c.signal.unsafe-call"
	ruleStrtok       = "c.api.strtok"
	ruleTimeAPI      = "c.api.time-nonreentrant"
)

var concurrencyCheckers = []*checkers.Checker{
	{
		Name:  "c/sync/locks",
		Rules: []string{ruleDoubleLock, ruleMissingUnlock, ruleLockOrder},
		Triggers: []string{
			"pthread_mutex_lock", "pthread_mutex_trylock", "pthread_mutex_timedlock", "pthread_spin_lock",
			"pthread_spin_trylock", "pthread_rwlock_wrlock", "pthread_rwlock_rdlock", "pthread_rwlock_trywrlock",
			"pthread_rwlock_tryrdlock", "mtx_lock", "mtx_trylock", "mtx_timedlock",
			"lock", "try_lock", "lock_shared", "lock_guard", "unique_lock", "scoped_lock", "shared_lock",
		},
		Triage: triageLock,
		Check:  checkLocks,
	},
	{
		Name:     "c/sync/cond-wait",
		Rules:    []string{ruleCondWait},
		Triggers: []string{"pthread_cond_wait", "pthread_cond_timedwait", "cnd_wait", "cnd_timedwait", "wait", "wait_for", "wait_until"},
		Triage:   triageCondWait,
		Check:    checkCondWait,
	},
	{
		Name:     "c/sync/threads",
		Rules:    []string{ruleThreadLeak, ruleDataRace},
		Triggers: []string{"pthread_create", "thread"},
		Triage:   triageThread,
		Check:    checkThreads,
	},
	{
		Name:     "c/signal/handler",
		Rules:    []string{ruleSignalUnsafe},
		Triggers: []string{"signal", "sigset", "bsd_signal", "sa_handler", "sa_sigaction"},
		Triage:   triageSignal,
		Check:    checkSignal,
	},
	{
		Name:     "c/api/strtok",
		Rules:    []string{ruleStrtok},
		Triggers: []string{"strtok", "_tcstok", "wcstok"},
		Triage:   triageCall,
		Check:    checkStaticStateAPI,
	},
	{
		Name:     "c/api/time",
		Rules:    []string{ruleTimeAPI},
		Triggers: []string{"asctime", "ctime", "localtime", "gmtime"},
		Triage:   triageCall,
		Check:    checkStaticStateAPI,
	},
}

// isMemberTok reports whether token i is a member name: after "." or "->".
func isMemberTok(lx *checkers.Lexed, i int) bool { return lx.Is(i-1, ".") || lx.Is(i-1, "->") }

// triageCall keeps identifiers that are called and are not members.
func triageCall(lx *checkers.Lexed, i int) bool { return lx.Is(i+1, "(") && !isMemberTok(lx, i) }

// triageLock keeps C lock calls, C++ member lock calls with no argument
// (m.lock()), and guard types.
func triageLock(lx *checkers.Lexed, i int) bool {
	switch lx.Text(i) {
	case "lock":
		if lx.Is(i+1, "(") && !isMemberTok(lx, i) {
			return lx.Is(i-1, "::") // std::lock(a, b)
		}
		return isMemberTok(lx, i) && lx.Is(i+1, "(") && lx.Is(i+2, ")")
	case "try_lock", "lock_shared":
		return isMemberTok(lx, i) && lx.Is(i+1, "(") && lx.Is(i+2, ")")
	case "lock_guard", "unique_lock", "scoped_lock", "shared_lock":
		return !isMemberTok(lx, i)
	}
	return triageCall(lx, i)
}

// triageCondWait keeps C waits and C++ member waits.
func triageCondWait(lx *checkers.Lexed, i int) bool {
	switch lx.Text(i) {
	case "wait", "wait_for", "wait_until":
		return isMemberTok(lx, i) && lx.Is(i+1, "(") && !lx.Is(i+2, ")")
	}
	return triageCall(lx, i)
}

// triageThread keeps pthread_create calls, and the std::thread objects
// that may leak (never named again in their item) or run a lambda or a
// function of this file (the data-race rule's routines).
func triageThread(lx *checkers.Lexed, i int) bool {
	if lx.Text(i) != "thread" {
		return triageCall(lx, i)
	}
	if !lx.Is(i-1, "::") || !lx.Is(i-2, "std") {
		return false
	}
	leak := false
	arg := -1
	switch j := i + 1; {
	case lx.Kind(j) == checkers.TokIdent && (lx.Is(j+1, "(") || lx.Is(j+1, "{")):
		leak, arg = !namedAgain(lx, j), j+2
	case lx.Kind(j) == checkers.TokIdent && lx.Is(j+1, "="):
		leak, arg = !namedAgain(lx, j), j+6 // std :: thread (
	case lx.Is(j, "("):
		arg = j + 1
	}
	return leak || arg > 0 && runsLocalCode(lx, arg)
}

// namedAgain reports whether the identifier at token j occurs again later
// in the block that declares it (a narrower look than Check's, so that
// triage never drops what Check reports).
func namedAgain(lx *checkers.Lexed, j int) bool {
	depth := 0
	for k := j + 1; k < len(lx.Tokens); k++ {
		switch {
		case lx.Is(k, "{"):
			depth++
		case lx.Is(k, "}"):
			if depth--; depth < 0 {
				return false
			}
		case lx.Tokens[k].Kind == checkers.TokIdent && lx.Is(k, lx.Text(j)):
			return true
		}
	}
	return false
}

// runsLocalCode reports whether a thread's callable, starting at token k,
// is a lambda or names a function this file defines.
func runsLocalCode(lx *checkers.Lexed, k int) bool {
	if lx.Is(k, "[") {
		return true
	}
	if lx.Is(k, "&") {
		k++
	}
	for lx.Kind(k) == checkers.TokIdent && lx.Is(k+1, "::") {
		k += 2
	}
	return lx.Kind(k) == checkers.TokIdent && (lx.Is(k+1, ",") || lx.Is(k+1, ")") || lx.Is(k+1, "}")) && definesFunc(lx, k)
}

// triageSignal keeps signal(sig, handler) with a handler that is not
// SIG_IGN/SIG_DFL, and assignments or designators of sa_handler.
func triageSignal(lx *checkers.Lexed, i int) bool {
	switch lx.Text(i) {
	case "sa_handler", "sa_sigaction":
		return lx.Is(i+1, "=") && definesFunc(lx, i+2)
	}
	if !triageCall(lx, i) {
		return false
	}
	args, ok := lx.CallArgs(i)
	if !ok || len(args) != 2 {
		return false
	}
	h := args[1]
	for h.End-h.Start > 1 && (lx.Is(h.Start, "&") || lx.Is(h.Start, "(") && lx.Is(h.End-1, ")")) {
		if lx.Is(h.Start, "&") {
			h.Start++
		} else {
			h.Start, h.End = h.Start+1, h.End-1
		}
	}
	return h.End-h.Start == 1 && definesFunc(lx, h.Start)
}

// definesFunc reports whether token i is an identifier naming a function
// this file defines (a handler jsec can look into): another token of the
// name opens a definition, name ( … ) {.
func definesFunc(lx *checkers.Lexed, i int) bool {
	if lx.Kind(i) != checkers.TokIdent {
		return false
	}
	n := definedFuncs(lx)[lx.Text(i)]
	if n > 0 && opensFuncDef(lx, i) {
		n-- // token i's own definition does not count
	}
	return n > 0
}

var definedFuncsSlot = checkers.NewMemoSlot()

// definedFuncs counts, per name, the identifier tokens of the file that
// open a definition (opensFuncDef), found in one pass on first need.
func definedFuncs(lx *checkers.Lexed) map[string]int {
	return checkers.Memoize(lx, definedFuncsSlot, func() map[string]int {
		out := map[string]int{}
		for j, t := range lx.Tokens {
			if t.Kind == checkers.TokIdent && opensFuncDef(lx, j) {
				out[lx.Text(j)]++
			}
		}
		return out
	})
}

// opensFuncDef reports whether token j is followed by a parenthesised
// group and a "{".
func opensFuncDef(lx *checkers.Lexed, j int) bool {
	if !lx.Is(j+1, "(") {
		return false
	}
	cl := lx.Close(j + 1)
	return cl > 0 && lx.Is(cl+1, "{")
}
