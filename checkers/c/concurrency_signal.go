package c

import (
	"fmt"

	"github.com/jsec/jsec/checkers"
	"github.com/jsec/jsec/checkers/syntax"
)

// Signal handlers and library calls with hidden static state.

// signalUnsafe are common library functions that are not on POSIX's list
// of async-signal-safe functions (signal-safety(7)), with the reason they
// matter. Functions on that list (write, read, _exit, _Exit, abort, kill,
// raise, signal, sigaction, sigprocmask, sem_post, open, close, getpid,
// time, alarm, memcpy, memset, strlen …) and functions jsec does not know
// (the program's own) are not reported.
var signalUnsafe = map[string]string{
	"printf": "stdio takes a lock and shares buffers", "fprintf": "stdio takes a lock and shares buffers",
	"vprintf": "stdio takes a lock and shares buffers", "vfprintf": "stdio takes a lock and shares buffers",
	"dprintf": "it may allocate and is not async-signal-safe", "vdprintf": "it may allocate and is not async-signal-safe",
	"puts": "stdio takes a lock and shares buffers", "fputs": "stdio takes a lock and shares buffers",
	"putchar": "stdio takes a lock and shares buffers", "putc": "stdio takes a lock and shares buffers",
	"fputc": "stdio takes a lock and shares buffers", "fwrite": "stdio takes a lock and shares buffers",
	"fflush": "stdio takes a lock and shares buffers", "fopen": "stdio allocates and takes locks",
	"fclose": "stdio allocates and takes locks", "fgets": "stdio takes a lock and shares buffers",
	"fread": "stdio takes a lock and shares buffers", "perror": "stdio takes a lock and shares buffers",
	"warn": "it writes through stdio", "warnx": "it writes through stdio", "err": "it writes through stdio and calls exit",
	"errx":    "it writes through stdio and calls exit",
	"sprintf": "the printf family may allocate and use locale locks", "snprintf": "the printf family may allocate and use locale locks",
	"vsprintf": "the printf family may allocate and use locale locks", "vsnprintf": "the printf family may allocate and use locale locks",
	"malloc": "the heap allocator takes a lock", "calloc": "the heap allocator takes a lock",
	"realloc": "the heap allocator takes a lock", "free": "the heap allocator takes a lock",
	"strdup": "it allocates from the heap", "strndup": "it allocates from the heap", "asprintf": "it allocates from the heap",
	"exit": "it runs atexit handlers and flushes stdio; use _exit", "atexit": "it changes process-wide state",
	"syslog": "it takes a lock and may allocate", "vsyslog": "it takes a lock and may allocate",
	"openlog": "it takes a lock and may allocate", "closelog": "it takes a lock",
	"localtime": "it uses static state and takes the time-zone lock", "gmtime": "it uses static state",
	"ctime": "it uses static state and takes the time-zone lock", "asctime": "it uses static state",
	"mktime": "it takes the time-zone lock", "strftime": "it takes the locale and time-zone locks",
	"strerror": "it may format into static state and allocate", "setlocale": "it changes process-wide state",
	"pthread_mutex_lock":     "the interrupted thread may hold the mutex: self-deadlock",
	"pthread_mutex_unlock":   "mutex operations are not async-signal-safe",
	"pthread_cond_signal":    "condition variables are not async-signal-safe (use sem_post)",
	"pthread_cond_broadcast": "condition variables are not async-signal-safe (use sem_post)",
	"system":                 "it forks a shell and waits", "popen": "it allocates and forks",
	"dlopen": "the dynamic loader takes locks", "dlsym": "the dynamic loader takes locks",
}

type signalKey struct{ handler string }

// checkSignal finds the handler a signal()/sigaction registration
// installs and reports the unsafe calls in its body.
func checkSignal(p *checkers.Pass, h checkers.Hit) {
	var handler syntax.Node
	var reg syntax.Node
	switch h.Word {
	case "sa_handler", "sa_sigaction":
		reg = h.Node.Parent()
		switch reg.Kind() {
		case "field_expression": // sa.sa_handler = h
			a := reg.Parent()
			if a.Kind() == "assignment_expression" && a.Field("left").Index() == reg.Index() {
				handler, reg = a.Field("right"), a
			}
		case "field_designator": // { .sa_handler = h }
			pair := reg.Parent()
			if pair.Kind() == "initializer_pair" {
				handler, reg = pair.Field("value"), pair
			}
		}
	default:
		call, ok := CallAt(h)
		if ok && len(Args(call)) == 2 {
			handler, reg = Arg(call, 1), call
		}
	}
	name := funcNameOf(handler)
	if name == "" {
		return
	}
	done := checkers.Memo(p, signalKey{name}, func() *bool { return new(bool) })
	if *done {
		return
	}
	*done = true
	installed := srcLine(p, reg.Start())
	withFunc(p, name, func(ft funcTree) {
		ft.Fn.Field("body").Walk(func(n syntax.Node) bool {
			if n.Kind() == "lambda_expression" || deadBranch(n) == 1 && !n.Field("alternative").Valid() {
				return false
			}
			if n.Kind() != "call_expression" || inDeadCode(n) {
				return true
			}
			callee := CalleeName(n)
			why, bad := signalUnsafe[callee]
			if !bad {
				if inner, at := unsafeInHelper(p, callee, name); inner != "" {
					p.Report(checkers.Finding{Rule: ruleSignalUnsafe, Span: checkers.NodeSpan(n), Adjust: -0.1,
						Message: fmt.Sprintf("%s() called from signal handler '%s' (installed at line %d) calls %s() at line %d, which is not async-signal-safe: %s",
							callee, name, installed, inner, at, signalUnsafe[inner])})
				}
				return true
			}
			adjust := 0.0
			if lowRisk[callee] {
				adjust = -0.2
			}
			p.Report(checkers.Finding{Rule: ruleSignalUnsafe, Span: checkers.NodeSpan(n), Adjust: adjust,
				Message: fmt.Sprintf("%s() in signal handler '%s' (installed at line %d) is not async-signal-safe: %s",
					callee, name, installed, why)})
			return true
		})
	})
}

// staticState describes what the non-reentrant APIs share.
var staticState = map[string]struct{ rule, what, fix string }{
	"strtok":    {ruleStrtok, "keeps its position in static state shared by every caller", "strtok_r"},
	"_tcstok":   {ruleStrtok, "keeps its position in static state shared by every caller", "_tcstok_s"},
	"wcstok":    {ruleStrtok, "keeps its position in static state shared by every caller", "the three-argument wcstok (C95)"},
	"asctime":   {ruleTimeAPI, "returns a pointer to a static buffer that the next call overwrites", "asctime_r or strftime"},
	"ctime":     {ruleTimeAPI, "returns a pointer to a static buffer that the next call overwrites", "ctime_r or strftime"},
	"localtime": {ruleTimeAPI, "returns a pointer to a static struct tm that the next call overwrites", "localtime_r"},
	"gmtime":    {ruleTimeAPI, "returns a pointer to a static struct tm that the next call overwrites", "gmtime_r"},
}

// checkStaticStateAPI reports strtok and the non-reentrant time
// conversions; confidence rises in files that start threads.
func checkStaticStateAPI(p *checkers.Pass, h checkers.Hit) {
	call, ok := CallAt(h)
	if !ok {
		return
	}
	s := staticState[h.Word]
	if h.Word == "wcstok" && len(Args(call)) == 3 {
		return // the C95 wcstok takes a save pointer and is reentrant
	}
	msg := fmt.Sprintf("%s() %s", h.Word, s.what)
	adjust := 0.0
	if off := threadedFile(p); off >= 0 {
		adjust = 0.2
		msg += fmt.Sprintf("; this file starts threads (line %d), so another thread can change it under this one", srcLine(p, off))
	}
	msg += "; use " + s.fix
	p.Report(checkers.Finding{Rule: s.rule, Span: checkers.NodeSpan(call), Adjust: adjust, Message: msg})
}

// unsafeInHelper looks one call deep: when callee is a function of this
// file (other than the handler), it returns the first async-signal-unsafe
// function its body calls, by its tokens, and that call's line.
func unsafeInHelper(p *checkers.Pass, callee, handler string) (string, int) {
	if callee == handler {
		return "", 0
	}
	d, ok := fileFuncs(p)[callee]
	if !ok {
		return "", 0
	}
	lx := p.Lex
	from, to := d.body()
	found, at := "", 0
	for j := from; j < to; j++ {
		if lx.Kind(j) != checkers.TokIdent || !lx.Is(j+1, "(") || isMemberTok(lx, j) {
			continue
		}
		w := lx.Text(j)
		if signalUnsafe[w] == "" || found != "" && lowRisk[w] {
			continue
		}
		found, at = w, srcLine(p, int(lx.Tokens[j].Start))
		if !lowRisk[w] {
			break // prefer stdio, the heap, exit over the snprintf family
		}
	}
	return found, at
}

// lowRisk are unsafe by the standard but rarely in practice.
var lowRisk = map[string]bool{"snprintf": true, "sprintf": true, "vsnprintf": true, "vsprintf": true}
