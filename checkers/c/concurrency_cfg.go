package c

import (
	"sort"
	"strings"

	"github.com/jsec/jsec/checkers"
	"github.com/jsec/jsec/checkers/syntax"
)

// The lock rules (double lock, missing unlock, lock order) and the data-race
// rule need to know which mutexes are held at a point of a function, path
// by path. This file turns a function body into a small control-flow graph
// whose nodes are the operations that matter (acquire, release, a write to
// a global, a goto, an exit) and whose branches are the function's
// conditions; concurrency_paths.go explores it.
//
// The graph is deliberately simple: loops run zero times or once (no back
// edges), a goto jumps to its label, break and continue leave the loop,
// switch cases fall through, and #ifdef blocks are branches. Conditions
// that occur twice with the same text ("if (need_lock) lock … if
// (need_lock) unlock") are correlated: a path takes the same way at both.

type opKind uint8

const (
	opAcquire opKind = iota + 1
	opRelease
	opGoto  // a goto: held locks remember it, for the message
	opWrite // a write to a file-scope variable
	opExit  // a call that does not return: the path ends silently
	opTouch // a call jsec cannot see into receives a held mutex: its state is unknown
)

// lockOp is one operation on mutexes.
type lockOp struct {
	kind    opKind
	mutexes []string // canonical mutex texts; several for std::lock(a, b)
	node    syntax.Node
	raii    bool   // held by a C++ guard: released by the guard's scope
	read    bool   // a shared (read) lock
	opaque  bool   // taken through a wrapper jsec cannot see into
	adopt   bool   // std::adopt_lock: the guard takes over a held lock
	all     bool   // release: every held mutex (a helper that unlocks its argument)
	resVar  string // variable the acquisition's result is stored in
	varName string // opWrite: the global written
}

type cfgKind uint8

const (
	cfgNop cfgKind = iota
	cfgOp
	cfgBranch
	cfgExit
)

type exitKind uint8

const (
	exitReturn exitKind = iota + 1
	exitFallOff
)

type graphNode struct {
	kind cfgKind
	op   lockOp
	succ []int32
	// Branch: key correlates conditions with the same text; testVar and
	// failSucc say that the successor failSucc is taken when the
	// acquisition stored in testVar failed.
	key      string
	testVar  string
	failSucc int
	// Exit.
	exit exitKind
	at   syntax.Node // the return statement, or the body's closing brace
}

type lockGraph struct {
	nodes []graphNode
	entry int32
}

type jumpCtx struct {
	brk, cont int32
	scopes    int // len(builder.scopes) when the loop or switch began
}

// guardVar is a C++ lock guard variable: its mutex and kind.
type guardVar struct {
	mutexes []string
	read    bool
}

type cfgBuilder struct {
	p       *checkers.Pass
	fn      syntax.Node
	g       *lockGraph
	labels  map[string]int32
	jumps   []jumpCtx
	scopes  [][]string // RAII mutexes of the enclosing blocks
	guards  map[string]guardVar
	counts  map[string]int // condition text → occurrences
	self    string         // the function's own name
	cpp     bool
	writes  func(target syntax.Node) string // data race: the global a write targets, or ""
	helpers map[string]helperSummary
	locked  map[string]bool // mutexes the function acquires anywhere
}

// buildCFG builds the graph of fn's body. writes, when set, marks writes
// to file-scope variables.
func buildCFG(p *checkers.Pass, fn syntax.Node, writes func(syntax.Node) string) *lockGraph {
	b := &cfgBuilder{
		p: p, fn: fn, g: &lockGraph{}, labels: map[string]int32{}, guards: map[string]guardVar{},
		counts: map[string]int{}, cpp: fn.Tree().Lang() == syntax.CPP, writes: writes, locked: map[string]bool{},
		self: checkers.DeclaratorName(fn.Field("declarator")),
	}
	body := fn.Field("body")
	b.prescan(body)
	var brace syntax.Node
	for c := range body.Children() {
		if c.Kind() == "}" {
			brace = c
		}
	}
	end := b.add(graphNode{kind: cfgExit, exit: exitFallOff, at: brace})
	b.g.entry = b.stmt(body, end)
	return b.g
}

func (b *cfgBuilder) add(n graphNode) int32 {
	b.g.nodes = append(b.g.nodes, n)
	return int32(len(b.g.nodes) - 1)
}

func (b *cfgBuilder) opNode(op lockOp, next int32) int32 {
	return b.add(graphNode{kind: cfgOp, op: op, succ: []int32{next}})
}

// prescan records guard variables and counts condition texts.
func (b *cfgBuilder) prescan(body syntax.Node) {
	body.Walk(func(n syntax.Node) bool {
		switch n.Kind() {
		case "lambda_expression":
			return false
		case "declaration":
			if name, gv, ok := b.guardDecl(n); ok && name != "" {
				b.guards[name] = gv.guardVar
			}
		case "call_expression":
			if name := CalleeName(n); (acquireFns[name] || tryFns[name]) && len(Args(n)) > 0 {
				b.locked[mutexText(Arg(n, 0))] = true
			}
		case "if_statement", "preproc_ifdef", "preproc_if", "preproc_elif":
			if k := condKey(n); k != "" {
				b.counts[k]++
			}
		}
		return true
	})
}

// condKey is the identity of a branch's condition.
func condKey(n syntax.Node) string {
	switch n.Kind() {
	case "if_statement":
		return squash(Condition(n).Text())
	case "preproc_ifdef":
		return "#" + n.FirstChild().Text() + " " + n.Field("name").Text()
	case "preproc_if", "preproc_elif":
		return "#if " + squash(n.Field("condition").Text())
	}
	return ""
}

// correlated returns the branch key when the condition occurs more than
// once in the function, "" otherwise (an uncorrelated branch).
func (b *cfgBuilder) correlated(n syntax.Node) string {
	k := condKey(n)
	if b.counts[k] > 1 {
		return k
	}
	return ""
}

// seq builds a statement list backwards.
func (b *cfgBuilder) seq(stmts []syntax.Node, next int32) int32 {
	for i := len(stmts) - 1; i >= 0; i-- {
		next = b.stmt(stmts[i], next)
	}
	return next
}

// blockStmts returns the statements directly under n, without the
// fields that are not statements.
func blockStmts(n syntax.Node, skipFields ...string) []syntax.Node {
	var out []syntax.Node
	for c := range n.NamedChildren() {
		if c.Kind() == "comment" {
			continue
		}
		skip := false
		for _, f := range skipFields {
			if c.FieldName() == f {
				skip = true
			}
		}
		if !skip {
			out = append(out, c)
		}
	}
	return out
}

// stmt returns the entry node of statement n, which continues at next.
func (b *cfgBuilder) stmt(n syntax.Node, next int32) int32 {
	switch n.Kind() {
	case "compound_statement", "translation_unit":
		return b.block(n, next)
	case "else_clause":
		return b.seq(blockStmts(n), next)
	case "if_statement":
		return b.ifStmt(n, next)
	case "while_statement", "for_statement", "for_range_loop", "do_statement":
		return b.loop(n, next)
	case "switch_statement":
		return b.switchStmt(n, next)
	case "return_statement":
		exit := b.add(graphNode{kind: cfgExit, exit: exitReturn, at: n})
		return b.exprOps(n, exit, syntax.Node{})
	case "break_statement", "continue_statement":
		if len(b.jumps) == 0 {
			return next
		}
		j := b.jumps[len(b.jumps)-1]
		target := j.brk
		if n.Kind() == "continue_statement" {
			target = j.cont
		}
		return b.leaveScopes(j.scopes, target)
	case "goto_statement":
		lbl := b.label(n.Field("label").Text())
		return b.opNode(lockOp{kind: opGoto, node: n}, b.leaveScopes(1, lbl))
	case "labeled_statement":
		lbl := b.label(n.Field("label").Text())
		inner := next
		if s := blockStmts(n, "label"); len(s) > 0 {
			inner = b.seq(s, next)
		}
		b.g.nodes[lbl].succ = []int32{inner}
		return lbl
	case "preproc_if", "preproc_ifdef", "preproc_elif":
		alt := next
		if a := n.Field("alternative"); a.Valid() {
			alt = b.stmt(a, next)
		}
		switch deadBranch(n) {
		case 1:
			return alt // #if 0: only the #else branch is compiled
		case 2:
			return b.seq(blockStmts(n, "name", "condition", "alternative"), next)
		}
		cons := b.seq(blockStmts(n, "name", "condition", "alternative"), next)
		return b.add(graphNode{kind: cfgBranch, succ: []int32{cons, alt}, key: b.correlated(n)})
	case "preproc_else":
		return b.seq(blockStmts(n), next)
	case "try_statement":
		succ := []int32{b.stmt(n.Field("body"), next)}
		for c := range n.NamedChildren() {
			if c.Kind() == "catch_clause" {
				succ = append(succ, b.stmt(c.Field("body"), next))
			}
		}
		return b.add(graphNode{kind: cfgBranch, succ: succ})
	case "declaration":
		if _, gv, ok := b.guardDecl(n); ok && gv.op.kind != 0 {
			next = b.opNode(gv.op, next)
		}
		return b.exprOps(n, next, syntax.Node{})
	case "function_definition", "struct_specifier", "class_specifier", "type_definition", "comment":
		return next
	}
	return b.exprOps(n, next, syntax.Node{})
}

// block builds a compound statement: its RAII guards are released where
// it ends.
func (b *cfgBuilder) block(n syntax.Node, next int32) int32 {
	var raii []string
	for c := range n.NamedChildren() {
		if c.Kind() == "declaration" {
			if _, gv, ok := b.guardDecl(c); ok {
				raii = append(raii, gv.mutexes...)
			}
		}
	}
	if len(raii) > 0 {
		next = b.opNode(lockOp{kind: opRelease, mutexes: raii, raii: true, node: n}, next)
	}
	b.scopes = append(b.scopes, raii)
	entry := b.seq(blockStmts(n), next)
	b.scopes = b.scopes[:len(b.scopes)-1]
	return entry
}

// leaveScopes releases the RAII guards of the scopes a jump leaves (those
// deeper than depth) before it reaches target.
func (b *cfgBuilder) leaveScopes(depth int, target int32) int32 {
	var raii []string
	for i := max(depth, 0); i < len(b.scopes); i++ {
		raii = append(raii, b.scopes[i]...)
	}
	if len(raii) == 0 {
		return target
	}
	return b.opNode(lockOp{kind: opRelease, mutexes: raii, raii: true}, target)
}

func (b *cfgBuilder) label(name string) int32 {
	if l, ok := b.labels[name]; ok {
		return l
	}
	l := b.add(graphNode{kind: cfgNop})
	b.labels[name] = l
	return l
}

func (b *cfgBuilder) ifStmt(n syntax.Node, next int32) int32 {
	cond := Condition(n)
	then := b.stmt(n.Field("consequence"), next)
	els := next
	if a := n.Field("alternative"); a.Valid() {
		els = b.stmt(a, next)
	}
	br := graphNode{kind: cfgBranch, key: b.correlated(n), failSucc: -1}
	// if (pthread_mutex_lock(&m) != 0) …: the lock is held only on the
	// success side.
	tested, success := b.testedAcquire(cond)
	if tested.kind != 0 {
		if success {
			then = b.opNode(tested, then)
		} else {
			els = b.opNode(tested, els)
		}
	} else if v, failOnTrue, ok := testedVar(cond); ok {
		br.testVar = v
		br.failSucc = 1
		if failOnTrue {
			br.failSucc = 0
		}
	}
	br.succ = []int32{then, els}
	return b.exprOps(n.Field("condition"), b.add(br), tested.node)
}

func (b *cfgBuilder) loop(n syntax.Node, next int32) int32 {
	cond := n.Field("condition")
	switch n.Kind() {
	case "do_statement":
		condEntry := b.exprOps(cond, next, syntax.Node{})
		b.jumps = append(b.jumps, jumpCtx{brk: next, cont: condEntry, scopes: len(b.scopes)})
		body := b.stmt(n.Field("body"), condEntry)
		b.jumps = b.jumps[:len(b.jumps)-1]
		return body
	case "for_range_loop":
		b.jumps = append(b.jumps, jumpCtx{brk: next, cont: next, scopes: len(b.scopes)})
		body := b.stmt(n.Field("body"), next)
		b.jumps = b.jumps[:len(b.jumps)-1]
		return b.exprOps(n.Field("right"), b.add(graphNode{kind: cfgBranch, succ: []int32{body, next}}), syntax.Node{})
	}
	update := next
	if u := n.Field("update"); u.Valid() {
		update = b.exprOps(u, next, syntax.Node{})
	}
	b.jumps = append(b.jumps, jumpCtx{brk: next, cont: update, scopes: len(b.scopes)})
	body := b.stmt(n.Field("body"), update)
	b.jumps = b.jumps[:len(b.jumps)-1]
	head := body
	if c := Unparen(Condition(n)); c.Valid() && !isTrueLiteral(c) {
		head = b.exprOps(cond, b.add(graphNode{kind: cfgBranch, succ: []int32{body, next}}), syntax.Node{})
	}
	if init := n.Field("initializer"); init.Valid() {
		head = b.exprOps(init, head, syntax.Node{})
	}
	return head
}

// deadBranch says which side of a preprocessor conditional is never
// compiled: 1 for "#if 0" (the body), 2 for "#if 1" (the #else), 0 when
// both may be.
func deadBranch(n syntax.Node) int {
	if n.Kind() != "preproc_if" {
		return 0
	}
	switch c := n.Field("condition"); {
	case c.Kind() == "number_literal" && c.Text() == "0":
		return 1
	case c.Kind() == "number_literal" && c.Text() == "1":
		return 2
	}
	return 0
}

// inDeadCode reports whether n lies in a branch of "#if 0" / "#if 1 …
// #else" that is never compiled (tree-sitter parses it like live code; the
// lexer does not).
func inDeadCode(n syntax.Node) bool {
	for c, p := n, n.Parent(); p.Valid(); c, p = p, p.Parent() {
		switch deadBranch(p) {
		case 1:
			if c.FieldName() != "alternative" && c.FieldName() != "condition" {
				return true
			}
		case 2:
			if c.FieldName() == "alternative" {
				return true
			}
		}
	}
	return false
}

func isTrueLiteral(n syntax.Node) bool {
	switch n.Kind() {
	case "true":
		return true
	case "number_literal":
		return n.Text() != "0"
	}
	return false
}

func (b *cfgBuilder) switchStmt(n syntax.Node, next int32) int32 {
	b.jumps = append(b.jumps, jumpCtx{brk: next, cont: b.outerCont(next), scopes: len(b.scopes)})
	var cases []syntax.Node
	hasDefault := false
	for c := range n.Field("body").NamedChildren() {
		if c.Kind() == "case_statement" {
			cases = append(cases, c)
			if !c.Field("value").Valid() {
				hasDefault = true
			}
		}
	}
	succ := make([]int32, len(cases))
	at := next
	for i := len(cases) - 1; i >= 0; i-- {
		at = b.seq(blockStmts(cases[i], "value"), at)
		succ[i] = at
	}
	b.jumps = b.jumps[:len(b.jumps)-1]
	if !hasDefault {
		succ = append(succ, next)
	}
	return b.exprOps(n.Field("condition"), b.add(graphNode{kind: cfgBranch, succ: succ}), syntax.Node{})
}

// outerCont is where a continue inside a switch goes: the enclosing loop's.
func (b *cfgBuilder) outerCont(next int32) int32 {
	if len(b.jumps) > 0 {
		return b.jumps[len(b.jumps)-1].cont
	}
	return next
}

// exprOps chains the operations in expression n (calls in evaluation
// order, writes) before next. skip is a subtree already accounted for.
func (b *cfgBuilder) exprOps(n syntax.Node, next int32, skip syntax.Node) int32 {
	if !n.Valid() {
		return next
	}
	var ops []lockOp
	var visit func(m syntax.Node)
	visit = func(m syntax.Node) {
		if m.Kind() == "lambda_expression" || skip.Valid() && m.Index() == skip.Index() {
			return
		}
		for c := range m.NamedChildren() {
			visit(c)
		}
		switch m.Kind() {
		case "call_expression":
			ops = append(ops, b.callOps(m)...)
		case "assignment_expression", "update_expression":
			if op, ok := b.rebind(m); ok {
				ops = append(ops, op)
			}
			if b.writes != nil {
				target := m.Field("left")
				if m.Kind() == "update_expression" {
					target = m.Field("argument")
				}
				if g := b.writes(target); g != "" {
					ops = append(ops, lockOp{kind: opWrite, node: m, varName: g})
				}
			}
		}
	}
	visit(n)
	for i := len(ops) - 1; i >= 0; i-- {
		next = b.opNode(ops[i], next)
	}
	return next
}

// Lock APIs.
var (
	acquireFns = map[string]bool{
		"pthread_mutex_lock": true, "pthread_spin_lock": true, "mtx_lock": true,
		"pthread_rwlock_wrlock": true, "pthread_rwlock_rdlock": true,
	}
	tryFns = map[string]bool{
		"pthread_mutex_trylock": true, "pthread_spin_trylock": true, "pthread_rwlock_tryrdlock": true,
		"pthread_rwlock_trywrlock": true, "mtx_trylock": true, "mtx_timedlock": true,
		"pthread_mutex_timedlock": true, "pthread_rwlock_timedrdlock": true, "pthread_rwlock_timedwrlock": true,
	}
	releaseFns = map[string]bool{
		"pthread_mutex_unlock": true, "pthread_spin_unlock": true, "pthread_rwlock_unlock": true, "mtx_unlock": true,
	}
	// noReturnFns end a path: nothing after them runs.
	noReturnFns = map[string]bool{
		"exit": true, "_exit": true, "_Exit": true, "abort": true, "quick_exit": true, "pthread_exit": true,
		"thrd_exit": true, "longjmp": true, "siglongjmp": true, "__builtin_unreachable": true, "__builtin_trap": true,
		"err": true, "errx": true, "verr": true, "verrx": true, "terminate": true,
	}
)

// callOps classifies one call.
func (b *cfgBuilder) callOps(call syntax.Node) []lockOp {
	name := CalleeName(call)
	args := Args(call)
	switch {
	case noReturnFns[name]:
		return []lockOp{{kind: opExit, node: call}}
	case acquireFns[name] && len(args) > 0:
		return []lockOp{{kind: opAcquire, mutexes: []string{mutexText(args[0])}, node: call,
			read: name == "pthread_rwlock_rdlock", resVar: resultVar(call)}}
	case tryFns[name] && len(args) > 0:
		// An untested trylock: whether it holds the lock is unknown here;
		// a tested one is handled by the branch (testedAcquire).
		if v := resultVar(call); v != "" {
			return []lockOp{{kind: opAcquire, mutexes: []string{mutexText(args[0])}, node: call, resVar: v,
				read: strings.Contains(name, "rd")}}
		}
		return nil
	case releaseFns[name] && len(args) > 0:
		return []lockOp{{kind: opRelease, mutexes: []string{mutexText(args[0])}, node: call}}
	case name == "lock" && b.cpp && len(args) >= 2 && call.Field("function").Kind() == "qualified_identifier":
		var ms []string
		for _, a := range args {
			ms = append(ms, mutexText(a))
		}
		return []lockOp{{kind: opAcquire, mutexes: ms, node: call}}
	}
	if f := call.Field("function"); f.Kind() == "field_expression" && b.cpp && len(args) == 0 {
		return b.memberOps(call, f)
	}
	var ops []lockOp
	if name != "" && name != b.self {
		ops = b.wrapperOps(call, name, args)
	}
	return append(ops, b.touchOps(call, name, args)...)
}

// rebind handles "n = n->next" when n->lock is locked: the name now means
// another object (hand-over-hand locking), so what the path knows about the
// mutexes reached through n no longer applies.
func (b *cfgBuilder) rebind(assign syntax.Node) (lockOp, bool) {
	target := assign.Field("left")
	if assign.Kind() == "update_expression" {
		target = assign.Field("argument")
	}
	root := Ident(target)
	if root == "" {
		return lockOp{}, false
	}
	var ms []string
	for m := range b.locked {
		if rootName(m) == root {
			ms = append(ms, m)
		}
	}
	if len(ms) == 0 {
		return lockOp{}, false
	}
	sort.Strings(ms)
	return lockOp{kind: opTouch, mutexes: ms, node: assign}, true
}

// waitFns keep the mutex they are given held across the call.
var waitFns = map[string]bool{"pthread_cond_wait": true, "pthread_cond_timedwait": true, "cnd_wait": true, "cnd_timedwait": true}

// touchOps marks a held mutex passed to a function jsec cannot see into
// (a wrapper in another file may unlock it): after the call its state is
// unknown, and the path no longer counts for double lock or missing unlock.
func (b *cfgBuilder) touchOps(call syntax.Node, name string, args []syntax.Node) []lockOp {
	if waitFns[name] || len(b.locked) == 0 {
		return nil
	}
	var ms []string
	for _, a := range args {
		if m := mutexText(a); b.locked[m] {
			ms = append(ms, m)
		}
	}
	if len(ms) == 0 {
		return nil
	}
	return []lockOp{{kind: opTouch, mutexes: ms, node: call}}
}

// memberOps classifies m.lock(), m.unlock(), guard.unlock() in C++.
func (b *cfgBuilder) memberOps(call, f syntax.Node) []lockOp {
	recv := mutexText(f.Field("argument"))
	ms := []string{recv}
	read, raii := false, false
	if gv, ok := b.guards[recv]; ok {
		ms, read, raii = gv.mutexes, gv.read, true
	}
	switch f.Field("field").Text() {
	case "lock":
		return []lockOp{{kind: opAcquire, mutexes: ms, node: call, read: read, raii: raii}}
	case "lock_shared":
		return []lockOp{{kind: opAcquire, mutexes: ms, node: call, read: true, raii: raii}}
	case "unlock", "unlock_shared":
		return []lockOp{{kind: opRelease, mutexes: ms, node: call}}
	}
	return nil
}

// wrapperOps classifies calls to functions that lock or unlock through a
// wrapper: a helper defined in this file whose body does (by its tokens),
// or an unknown function whose name says it locks ("uv_mutex_lock",
// "EnterCriticalSection"). Such locks are opaque: they count as "a lock is
// held" for the data-race rule, never for double lock or lock order.
func (b *cfgBuilder) wrapperOps(call syntax.Node, name string, args []syntax.Node) []lockOp {
	if s, ok := b.helperSummary(name); ok {
		var ops []lockOp
		if s.acquires {
			ops = append(ops, lockOp{kind: opAcquire, mutexes: []string{name + "()"}, node: call, opaque: true})
		}
		if s.releasesArg {
			ops = append(ops, lockOp{kind: opRelease, all: true, node: call})
		} else if len(s.releases) > 0 {
			ops = append(ops, lockOp{kind: opRelease, mutexes: s.releases, node: call})
		}
		return ops
	}
	arg := name + "()"
	if len(args) > 0 {
		arg = mutexText(args[0])
	}
	switch lockWord(name) {
	case 1:
		return []lockOp{{kind: opAcquire, mutexes: []string{"~" + arg}, node: call, opaque: true}}
	case -1:
		return []lockOp{{kind: opRelease, mutexes: []string{"~" + arg}, node: call, opaque: true}}
	}
	return nil
}

// lockWord says from the words of a function name whether it acquires
// (1) or releases (-1) a lock: uv_mutex_lock, g_rw_lock_writer_lock,
// EnterCriticalSection, Curl_mutex_acquire; 0 for anything else
// (clock_gettime and block_signals have no "lock" word).
func lockWord(name string) int {
	words := nameWords(name)
	acq, rel := false, false
	for i, w := range words {
		switch w {
		case "unlock", "release", "leave":
			rel = true
		case "lock", "rdlock", "wrlock", "acquire":
			acq = true
		case "enter":
			acq = acq || i+1 < len(words) && words[i+1] == "critical"
		}
	}
	switch {
	case rel:
		return -1
	case acq:
		return 1
	}
	return 0
}

// nameWords splits an identifier into lower-case words at underscores and
// lower-to-upper case changes.
func nameWords(s string) []string {
	var out []string
	start := 0
	flush := func(end int) {
		if end > start {
			out = append(out, strings.ToLower(s[start:end]))
		}
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '_':
			flush(i)
			start = i + 1
		case c >= 'A' && c <= 'Z' && i > start && s[i-1] >= 'a' && s[i-1] <= 'z':
			flush(i)
			start = i
		}
	}
	flush(len(s))
	return out
}

// mutexText is the canonical text of a mutex argument: "s->lock" for
// &s->lock, &(s->lock) or this->s->lock.
func mutexText(n syntax.Node) string {
	n = Uncast(n)
	for n.Kind() == "pointer_expression" && n.FirstChild().Text() == "&" {
		n = Uncast(n.Field("argument"))
	}
	t := squash(n.Text())
	return strings.TrimPrefix(t, "this->")
}

// resultVar returns the variable an acquisition's result is stored in:
// rc for "rc = pthread_mutex_lock(&m)" and "int rc = …".
func resultVar(call syntax.Node) string {
	p := call.Parent()
	for p.Kind() == "parenthesized_expression" {
		p = p.Parent()
	}
	switch p.Kind() {
	case "assignment_expression":
		if BinaryOp(p) == "=" {
			return Ident(p.Field("left"))
		}
	case "init_declarator":
		return declIdent(p.Field("declarator"))
	}
	return ""
}

// testedAcquire recognises a condition that tests the result of a lock or
// trylock call directly (possibly through an assignment): it returns the
// acquisition and whether the consequence is the success side. pthread
// calls return 0 on success; C++ try_lock returns true.
func (b *cfgBuilder) testedAcquire(cond syntax.Node) (lockOp, bool) {
	call, negated, cmp, other := splitTest(cond)
	if call.Kind() == "assignment_expression" {
		call = Unparen(call.Field("right"))
	}
	if call.Kind() != "call_expression" {
		return lockOp{}, false
	}
	name := CalleeName(call)
	var op lockOp
	boolResult := false
	switch {
	case (acquireFns[name] || tryFns[name]) && len(Args(call)) > 0:
		op = lockOp{kind: opAcquire, mutexes: []string{mutexText(Arg(call, 0))}, node: call, read: strings.Contains(name, "rd")}
	case b.cpp && call.Field("function").Kind() == "field_expression" && call.Field("function").Field("field").Text() == "try_lock":
		f := call.Field("function")
		ms := []string{mutexText(f.Field("argument"))}
		if gv, ok := b.guards[ms[0]]; ok {
			ms = gv.mutexes
		}
		op = lockOp{kind: opAcquire, mutexes: ms, node: call}
		boolResult = true
	default:
		return lockOp{}, false
	}
	// The value is truthy on failure for pthread calls, on success for
	// try_lock; "!" and "== 0" invert, "!= 0" keeps.
	truthyIsSuccess := boolResult
	switch cmp {
	case "":
	case "==", "!=":
		zero := IsNullLiteral(other) || other.Text() == "thrd_success" || other.Text() == "false"
		if !zero {
			// "== EBUSY" is true on failure; "!= EBUSY" on success.
			if cmp == "==" {
				return op, false != negated
			}
			return op, true != negated
		}
		if cmp == "==" {
			truthyIsSuccess = !truthyIsSuccess
		}
	default:
		return lockOp{}, false
	}
	if negated {
		truthyIsSuccess = !truthyIsSuccess
	}
	return op, truthyIsSuccess
}

// splitTest takes a condition apart: "!x" → (x, negated), "x != 0" →
// (x, "!=", 0), "0 == x" likewise.
func splitTest(cond syntax.Node) (subject syntax.Node, negated bool, cmp string, other syntax.Node) {
	c := Unparen(cond)
	for c.Kind() == "unary_expression" && c.FirstChild().Text() == "!" {
		negated = !negated
		c = Unparen(c.Field("argument"))
	}
	if c.Kind() == "binary_expression" {
		op := BinaryOp(c)
		if op == "==" || op == "!=" || op == "<" || op == ">" || op == "<=" || op == ">=" {
			l, r := Unparen(c.Field("left")), Unparen(c.Field("right"))
			if _, ok := IntValue(l, nil); ok || l.Kind() == "identifier" && isUpperIdent(l.Text()) {
				l, r = r, l
			}
			return l, negated, op, r
		}
	}
	return c, negated, "", syntax.Node{}
}

func isUpperIdent(s string) bool {
	return s != "" && strings.ToUpper(s) == s
}

// testedVar recognises "if (rc)", "if (rc != 0)", "if (!rc)", "if (rc == 0)":
// the variable tested and whether the consequence is the failure side.
func testedVar(cond syntax.Node) (string, bool, bool) {
	subj, negated, cmp, other := splitTest(cond)
	v := Ident(subj)
	if v == "" {
		return "", false, false
	}
	failOnTrue := true
	switch cmp {
	case "":
	case "!=":
	case "==":
		if !IsNullLiteral(other) && other.Text() != "thrd_success" {
			break // rc == EBUSY: true on failure
		}
		failOnTrue = false
	default:
		return "", false, false
	}
	if negated {
		failOnTrue = !failOnTrue
	}
	return v, failOnTrue, true
}
