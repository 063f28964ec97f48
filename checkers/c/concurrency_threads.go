package c

import (
	"fmt"
	"strings"

	"github.com/jsec/jsec/checkers"
	"github.com/jsec/jsec/checkers/syntax"
)

// Thread rules: condition waits outside a loop, threads that are never
// joined or detached, and thread routines that write globals with no lock
// held.

// checkCondWait flags a condition wait that no loop re-checks.
func checkCondWait(p *checkers.Pass, h checkers.Hit) {
	call, cv, timed, ok := condWaitCall(p, h)
	if !ok || inLoopOf(call) || waitWrapper(call) {
		return
	}
	adjust := 0.0
	guard := ""
	if s := call.Ancestor("if_statement"); s.Valid() && EnclosingFunction(s).Index() == EnclosingFunction(call).Index() {
		guard = fmt.Sprintf(" (it is only guarded by 'if (%s)')", shortText(Condition(s)))
	}
	if timed {
		adjust = -0.1 // a timed wait is sometimes an interruptible sleep
	}
	p.Report(checkers.Finding{Rule: ruleCondWait, Span: checkers.NodeSpan(call), Adjust: adjust,
		Message: fmt.Sprintf("%s on '%s' is not inside a loop that re-checks its condition%s: a spurious or stolen wakeup goes on with the condition false",
			h.Word, cv, guard)})
}

// condWaitCall recognises pthread_cond_wait(&cv, &m), cnd_wait and the C++
// cv.wait(lock) / wait_for(lock, d) / wait_until(lock, t) without a
// predicate, on a std::unique_lock or a condition_variable.
func condWaitCall(p *checkers.Pass, h checkers.Hit) (call syntax.Node, cv string, timed, ok bool) {
	switch h.Word {
	case "wait", "wait_for", "wait_until":
		f := h.Node.Parent()
		call = f.Parent()
		if f.Kind() != "field_expression" || call.Kind() != "call_expression" || call.Field("function").Index() != f.Index() {
			return call, "", false, false
		}
		want := 1
		if h.Word != "wait" {
			want = 2
		}
		args := Args(call)
		if len(args) != want {
			return call, "", false, false // with a predicate, the wait loops itself
		}
		recv := f.Field("argument")
		if !isUniqueLock(call, args[0]) && !isCondVar(p, call, recv) {
			return call, "", false, false
		}
		return call, mutexText(recv), h.Word != "wait", true
	}
	call, ok = CallAt(h)
	if !ok || len(Args(call)) < 2 {
		return call, "", false, false
	}
	return call, mutexText(Arg(call, 0)), strings.Contains(h.Word, "timed"), true
}

// isUniqueLock reports whether arg names a std::unique_lock declared in
// the function.
func isUniqueLock(at, arg syntax.Node) bool {
	name := Ident(arg)
	fn := EnclosingFunction(at)
	if name == "" || !fn.Valid() {
		return false
	}
	found := false
	fn.Field("body").Walk(func(n syntax.Node) bool {
		if n.Kind() == "declaration" && strings.Contains(n.Field("type").Text(), "unique_lock") {
			d := n.Field("declarator")
			if d.Kind() == "function_declarator" || d.Kind() == "init_declarator" {
				d = d.Field("declarator")
			}
			found = found || d.Text() == name
		}
		return !found
	})
	return found
}

// isCondVar reports whether recv is declared as a condition variable.
func isCondVar(p *checkers.Pass, at, recv syntax.Node) bool {
	name := Ident(recv)
	fn := EnclosingFunction(at)
	if name == "" || !fn.Valid() {
		return false
	}
	v := FuncScope(p, fn).Lookup(name, at)
	return v != nil && strings.Contains(v.Type, "condition_variable")
}

// waitWrapper reports whether the wait is the body of a small wrapper (a
// CondVar::Wait of a portability layer): a void function of at most four
// statements that tests nothing. Its callers are the ones that must loop.
func waitWrapper(call syntax.Node) bool {
	fn := EnclosingFunction(call)
	body := fn.Field("body")
	if !fn.Valid() || !voidFunction(fn) || EnclosingStatement(call).Parent().Index() != body.Index() || len(blockStmts(body)) > 4 {
		return false
	}
	tests := false
	body.Walk(func(n syntax.Node) bool {
		tests = tests || n.Is("if_statement", "conditional_expression", "switch_statement", "while_statement", "for_statement", "do_statement")
		return !tests
	})
	return !tests
}

// inLoopOf reports whether n lies in a loop of its own function.
func inLoopOf(n syntax.Node) bool {
	for a := n.Parent(); a.Valid(); a = a.Parent() {
		switch a.Kind() {
		case "do_statement":
			if c := Unparen(Condition(a)); c.Kind() != "number_literal" || c.Text() != "0" {
				return true // do { … } while (0) is a block, not a loop
			}
		case "while_statement", "for_statement", "for_range_loop":
			return true
		case "function_definition", "lambda_expression":
			return false
		}
	}
	return false
}

// checkThreads runs the thread-leak and data-race rules on one thread
// creation.
func checkThreads(p *checkers.Pass, h checkers.Hit) {
	if h.Word == "thread" {
		checkStdThread(p, h)
		return
	}
	call, ok := CallAt(h)
	if !ok || len(Args(call)) < 3 {
		return
	}
	routine := funcNameOf(Arg(call, 2))
	checkPthreadLeak(p, call, routine)
	if routine != "" {
		checkRoutineRace(p, routine, call)
	}
}

// checkPthreadLeak flags pthread_create(&tid, attr, …) into a local tid
// that the function never uses again (no join, no detach, no escape),
// created joinable, with a routine that does not detach itself.
func checkPthreadLeak(p *checkers.Pass, call syntax.Node, routine string) {
	tidArg := Uncast(Arg(call, 0))
	if tidArg.Kind() != "pointer_expression" || tidArg.FirstChild().Text() != "&" {
		return
	}
	root := writeRoot(tidArg.Field("argument")) // not through a pointer: that stores it elsewhere
	fn := EnclosingFunction(call)
	if !root.Valid() || !fn.Valid() {
		return
	}
	v := FuncScope(p, fn).Lookup(root.Text(), call)
	if v == nil || v.Param || v.Global || v.Static || v.IsPointer() || !v.Decl.Valid() {
		return
	}
	if !createsJoinable(p, fn, call, Arg(call, 1)) || routineDetaches(p, routine) {
		return
	}
	if usedElsewhere(fn.Field("body"), root.Text(), v.Decl, call) {
		return
	}
	p.Report(checkers.Finding{Rule: ruleThreadLeak, Span: checkers.NodeSpan(call),
		Message: fmt.Sprintf("pthread_create stores the thread in local '%s', which is never joined, detached or handed on: the thread's resources leak when it exits", root.Text())})
}

// createsJoinable reports whether the attribute argument leaves the thread
// joinable: NULL, or a local attribute object never set detached. Any
// other attribute (a parameter, a global) is unknown and counts as not.
func createsJoinable(p *checkers.Pass, fn, call, attr syntax.Node) bool {
	if IsNullLiteral(attr) {
		return true
	}
	a := Uncast(attr)
	if a.Kind() != "pointer_expression" || a.FirstChild().Text() != "&" {
		return false
	}
	name := Ident(a.Field("argument"))
	v := FuncScope(p, fn).Lookup(name, call)
	if name == "" || v == nil || v.Param || v.Global {
		return false
	}
	detached := false
	fn.Field("body").Walk(func(n syntax.Node) bool {
		if n.Kind() == "call_expression" && CalleeName(n) == "pthread_attr_setdetachstate" {
			detached = detached || strings.Contains(n.Text(), "DETACHED") || !strings.Contains(n.Text(), "JOINABLE")
		}
		return !detached
	})
	return !detached
}

// routineDetaches reports whether the start routine, defined in this file,
// calls pthread_detach (on pthread_self()).
func routineDetaches(p *checkers.Pass, routine string) bool {
	d, ok := fileFuncs(p)[routine]
	if !ok {
		return false
	}
	from, to := d.body()
	for j := from; j < to; j++ {
		if p.Lex.Is(j, "pthread_detach") {
			return true
		}
	}
	return false
}

// usedElsewhere reports whether identifier name occurs in body other than
// at its declaration decl and inside the creation call.
func usedElsewhere(body syntax.Node, name string, decl, call syntax.Node) bool {
	used := false
	body.Walk(func(n syntax.Node) bool {
		if used || call.Contains(n) && n.Index() != call.Index() {
			return false
		}
		if n.Kind() == "identifier" && n.Text() == name && n.Index() != decl.Index() {
			used = true
		}
		return !used
	})
	return used
}

// checkStdThread handles "std::thread t(fn, …)": a thread never joined or
// detached, and the routine it runs.
func checkStdThread(p *checkers.Pass, h checkers.Hit) {
	decl := h.Node.Parent().Parent()
	if h.Node.Parent().Kind() == "qualified_identifier" && decl.Kind() == "call_expression" {
		// std::thread(worker) as a temporary.
		if args := Args(decl); len(args) > 0 {
			raceOnCallable(p, args[0], decl)
		}
		return
	}
	if decl.Kind() != "declaration" || decl.Field("type").Index() != h.Node.Parent().Index() {
		return
	}
	d := decl.Field("declarator")
	var name syntax.Node
	var args []syntax.Node
	switch d.Kind() {
	case "init_declarator":
		name = d.Field("declarator")
		v := d.Field("value")
		if v.Kind() == "argument_list" || v.Kind() == "initializer_list" {
			for a := range v.NamedChildren() {
				args = append(args, a)
			}
		} else if v.Kind() == "call_expression" {
			args = Args(v)
		}
	case "function_declarator":
		name = d.Field("declarator")
		for pd := range d.Field("parameters").NamedChildren() {
			args = append(args, pd)
		}
	}
	fn := EnclosingFunction(decl)
	if name.Kind() != "identifier" || len(args) == 0 || !fn.Valid() {
		return
	}
	raceOnCallable(p, args[0], decl)
	if !usedElsewhere(fn.Field("body"), name.Text(), name, decl) {
		p.Report(checkers.Finding{Rule: ruleThreadLeak, Span: checkers.NodeSpan(decl),
			Message: fmt.Sprintf("std::thread '%s' is never joined or detached: its destructor calls std::terminate while the thread is joinable", name.Text())})
	}
}

// raceOnCallable runs the data-race rule on what a std::thread runs: a
// function of this file or a lambda.
func raceOnCallable(p *checkers.Pass, callable, creation syntax.Node) {
	if callable.Kind() == "lambda_expression" {
		reportRaces(p, funcTree{Fn: callable, Pass: p}, "the lambda", creation, true)
		return
	}
	name := squash(callable.Text())
	if name == "" || strings.ContainsAny(name, "()[]") {
		return
	}
	name = name[strings.LastIndex(name, ":")+1:]
	name = strings.TrimPrefix(name, "&")
	checkRoutineRace(p, name, creation)
}

type raceKey struct{ routine string }

// checkRoutineRace analyzes a thread start routine of this file once.
func checkRoutineRace(p *checkers.Pass, routine string, creation syntax.Node) {
	done := checkers.Memo(p, raceKey{routine}, func() *bool { return new(bool) })
	if *done {
		return
	}
	*done = true
	withFunc(p, routine, func(ft funcTree) {
		reportRaces(p, ft, "thread routine '"+routine+"'", creation, false)
	})
}

// reportRaces reports the writes of a thread routine to shared file-scope
// variables that no path protects with a lock.
func reportRaces(p *checkers.Pass, ft funcTree, what string, creation syntax.Node, lambda bool) {
	scope := FuncScope(ft.Pass, ft.Fn)
	var outer *Scope
	if lambda {
		outer = FuncScope(p, EnclosingFunction(ft.Fn))
	}
	quals := globalQuals(p)
	many := lambda || startedTwice(p, creation)
	writes := func(target syntax.Node) string {
		root := writeRoot(target)
		if !root.Valid() {
			return ""
		}
		name := root.Text()
		v := scope.Lookup(name, root)
		if v == nil || !v.Global || outer != nil && !outer.isGlobal(name, ft.Fn) {
			return ""
		}
		q := quals[name]
		if q.atomic || q.threadLocal || strings.Contains(v.Type, "atomic") {
			return ""
		}
		if !many && !sharedBeyond(p, name, ft.Fn.Start()) {
			return "" // one thread, and nobody else touches it
		}
		return name
	}
	g := buildCFG(ft.Pass, ft.Fn, writes)
	facts := exploreLocks(g)
	if !facts.complete {
		return
	}
	created := srcLine(p, creation.Start())
	for idx, held := range facts.writes {
		if held {
			continue
		}
		op := g.nodes[idx].op
		p.Report(checkers.Finding{Rule: ruleDataRace, Span: checkers.NodeSpan(op.node),
			Message: fmt.Sprintf("%s (started at line %d) writes file-scope '%s' with no lock held: concurrent threads race on it",
				what, created, op.varName)})
	}
}

func (s *Scope) isGlobal(name string, at syntax.Node) bool {
	v := s.Lookup(name, at)
	return v != nil && v.Global
}

// writeRoot returns the variable a write target names directly: g, g.f,
// g[i], (g); not *p or p->f, which write elsewhere.
func writeRoot(n syntax.Node) syntax.Node {
	for {
		n = Uncast(n)
		switch n.Kind() {
		case "identifier":
			return n
		case "subscript_expression":
			n = n.Field("argument")
		case "field_expression":
			for c := range n.Children() {
				if !c.IsNamed() && c.Text() == "->" {
					return syntax.Node{}
				}
			}
			n = n.Field("argument")
		default:
			return syntax.Node{}
		}
	}
}

// sharedBeyond reports whether identifier name occurs in a function of
// the file other than the one that starts at byte offset routine.
func sharedBeyond(p *checkers.Pass, name string, routine int) bool {
	lx := p.Lex
	for _, d := range fileFuncs(p) {
		if int(lx.Tokens[d.startTok].Start) == routine {
			continue
		}
		from, to := d.body()
		for j := from; j < to; j++ {
			if lx.Tokens[j].Kind == checkers.TokIdent && lx.Is(j, name) {
				return true
			}
		}
	}
	return false
}

// startedTwice reports whether the thread creation runs in a loop or the
// file creates threads more than once.
func startedTwice(p *checkers.Pass, creation syntax.Node) bool {
	if inLoopOf(creation) {
		return true
	}
	n := 0
	for i, t := range p.Lex.Tokens {
		if t.Kind == checkers.TokIdent && (p.Lex.Is(i, "pthread_create") || p.Lex.Is(i, "thread") && p.Lex.Is(i-1, "::")) {
			n++
		}
	}
	return n > 1
}

// varQuals are the qualifiers of a file-scope declaration that make
// unlocked writes safe.
type varQuals struct{ atomic, threadLocal bool }

type qualsKey struct{}

// globalQuals scans the file's declarations once for atomic and
// thread-local variables.
func globalQuals(p *checkers.Pass) map[string]varQuals {
	return checkers.Memo(p, qualsKey{}, func() map[string]varQuals {
		lx := p.Lex
		out := map[string]varQuals{}
		for _, it := range lx.Items {
			if itemDefName(lx, it) != "" {
				continue
			}
			var q varQuals
			depth := 0
			for j := it.TokStart; j < it.TokEnd; j++ {
				t := lx.Text(j)
				switch {
				case t == "(" || t == "{" || t == "[":
					depth++
				case t == ")" || t == "}" || t == "]":
					depth--
				case t == "__thread" || t == "_Thread_local" || t == "thread_local" || t == "thread" && lx.Is(j-1, "("):
					q.threadLocal = true
				case strings.Contains(t, "atomic") || strings.Contains(t, "Atomic"):
					q.atomic = true
				case depth == 0 && lx.Kind(j) == checkers.TokIdent && (lx.Is(j+1, ";") || lx.Is(j+1, "=") || lx.Is(j+1, ",") || lx.Is(j+1, "[")):
					out[t] = q
				}
			}
		}
		return out
	})
}
