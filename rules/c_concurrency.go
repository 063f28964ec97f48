package rules

import "github.com/jsec/jsec/issue"

// cConcurrency is the concurrency family (checkers/c/concurrency.go): locks,
// threads, signal handlers and non-reentrant library calls.
var cConcurrency = []Rule{
	{
		ID: "c.sync.double-lock", Title: "Mutex locked twice", CWE: 764, Category: CatConcurrency,
		Severity: issue.SeverityHigh, Confidence: 0.75, Languages: LangC,
		Description: "A mutex is locked again on a path where it is already held; a non-recursive mutex deadlocks (or, for an error-checking one, the second lock fails unnoticed).",
		Suggestion:  "Unlock before locking again, or restructure so that the lock is taken once (a helper that expects the lock held); use a recursive mutex only when re-entry is by design.",
	},
	{
		ID: "c.sync.missing-unlock", Title: "Return while holding a lock", CWE: 667, Category: CatConcurrency,
		Severity: issue.SeverityHigh, Confidence: 0.65, Languages: LangC,
		Description: "A path leaves the function with a mutex still locked while other paths of the same function unlock it; the next lock of that mutex deadlocks.",
		Suggestion:  "Unlock on every exit path: route early exits through a single cleanup label that unlocks, or use RAII guards (std::lock_guard, std::unique_lock) in C++.",
	},
	{
		ID: "c.sync.lock-order", Title: "Lock-order inversion", CWE: 833, Category: CatConcurrency,
		Severity: issue.SeverityHigh, Confidence: 0.6, Languages: LangC,
		Description: "Two functions acquire the same two mutexes in opposite orders while holding the first; two threads running them at once can deadlock.",
		Suggestion:  "Define one global acquisition order for the mutexes and follow it everywhere (or acquire both at once with std::scoped_lock / std::lock).",
	},
	{
		ID: "c.sync.cond-wait", Title: "Condition wait not in a loop", CWE: 362, Category: CatConcurrency,
		Severity: issue.SeverityMedium, Confidence: 0.7, Languages: LangC,
		Description: "A condition-variable wait that is not re-checked in a loop: spurious wakeups and stolen wakeups let the thread go on while the condition is false.",
		Suggestion:  "Wait in a loop on the predicate (while (!ready) pthread_cond_wait(&cv, &m);) or pass the predicate to cv.wait(lock, pred).",
	},
	{
		ID: "c.sync.thread-leak", Title: "Thread neither joined nor detached", CWE: 404, Category: CatResource,
		Severity: issue.SeverityMedium, Confidence: 0.6, Languages: LangC,
		Description: "A thread is created and its handle dropped without join or detach: its resources are never reclaimed (a std::thread destroyed while joinable calls std::terminate).",
		Suggestion:  "Join the thread, detach it (pthread_detach / t.detach()), or create it detached with pthread_attr_setdetachstate(PTHREAD_CREATE_DETACHED).",
	},
	{
		ID: "c.sync.data-race", Title: "Shared global written without a lock", CWE: 362, Category: CatConcurrency,
		Severity: issue.SeverityMedium, Confidence: 0.55, Languages: LangC,
		Description: "A thread start routine writes a file-scope variable that is neither atomic nor thread-local while no lock is held: concurrent threads race on it.",
		Suggestion:  "Protect the variable with a mutex held on every access, make it _Atomic / std::atomic, or make it thread-local.",
	},
	{
		ID: "c.signal.unsafe-call", Title: "Async-signal-unsafe call in a signal handler", CWE: 479, Category: CatSignal,
		Severity: issue.SeverityMedium, Confidence: 0.8, Languages: LangC,
		Description: "A signal handler calls a function that is not async-signal-safe (stdio, the heap, exit, syslog …); if the signal interrupts the same function the program deadlocks or corrupts its state.",
		Suggestion:  "In the handler only set a volatile sig_atomic_t flag (or write() to a self-pipe) and do the work in the main loop; use _exit instead of exit.",
	},
	{
		ID: "c.api.strtok", Title: "strtok is not reentrant", CWE: 676, Category: CatDangerousAPI,
		Severity: issue.SeverityLow, Confidence: 0.6, Languages: LangC,
		Description: "strtok keeps its position in hidden static state: two threads, or a nested tokenizing loop, corrupt each other's parse.",
		Suggestion:  "Use strtok_r (POSIX) or strtok_s (C11 Annex K / MSVC) with a caller-owned save pointer.",
	},
	{
		ID: "c.api.time-nonreentrant", Title: "Non-reentrant time conversion", CWE: 676, Category: CatDangerousAPI,
		Severity: issue.SeverityLow, Confidence: 0.6, Languages: LangC,
		Description: "asctime, ctime, localtime and gmtime return a pointer to one static buffer that every call (in any thread) overwrites.",
		Suggestion:  "Use the reentrant variants with a caller-owned buffer: localtime_r, gmtime_r, asctime_r, ctime_r (or strftime on a struct tm you own).",
	},
}
