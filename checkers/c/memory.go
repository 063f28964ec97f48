package c

import (
	"fmt"
	"sort"
	"strings"

	"github.com/jsec/jsec/checkers"
	"github.com/jsec/jsec/checkers/syntax"
)

// Memory family: allocation, release, NULL and initialisation defects.
// Most rules read the per-function state walk of flow.go; the rest read
// the syntax tree and the reaching definitions of defs.go.
const (
	ruleReallocLeak     = "c.memory.realloc-leak"
	ruleUncheckedAlloc  = "c.null.unchecked-alloc"
	ruleUncheckedReturn = "c.null.unchecked-return"
	ruleLeak            = "c.memory.leak"
	ruleDoubleFree      = "c.memory.double-free"
	ruleUseAfterFree    = "c.memory.use-after-free"
	ruleFreeNonHeap     = "c.memory.free-non-heap"
	ruleFreeOffset      = "c.memory.free-offset"
	ruleMismatchedFree  = "c.memory.mismatched-dealloc"
	ruleAlloca          = "c.memory.alloca"
	ruleVLA             = "c.memory.vla"
	ruleAllocOverflow   = "c.memory.alloc-overflow"
	ruleUninit          = "c.memory.uninit"
	ruleNullDeref       = "c.null.deref"
)

var memoryCheckers = []*checkers.Checker{
	{
		Name:     "c/memory/alloc",
		Rules:    []string{ruleReallocLeak, ruleUncheckedAlloc, ruleLeak, ruleAllocOverflow},
		Triggers: memAllocTriggers(),
		Triage:   memTriageAlloc,
		Check:    checkAlloc,
	},
	{
		Name:     "c/memory/maybe-null",
		Rules:    []string{ruleUncheckedReturn},
		Triggers: memKeys(memMaybeNull),
		Triage:   memTriageMaybeNull,
		Check:    checkMaybeNull,
	},
	{
		Name:     "c/memory/free",
		Rules:    []string{ruleDoubleFree, ruleUseAfterFree, ruleFreeNonHeap, ruleFreeOffset, ruleMismatchedFree},
		Triggers: append(memKeys(memDeallocators), "delete"),
		Triage:   memTriageFree,
		Check:    checkFree,
	},
	{
		Name:     "c/memory/alloca",
		Rules:    []string{ruleAlloca, ruleAllocOverflow},
		Triggers: []string{"alloca", "__builtin_alloca", "_alloca"},
		Check:    checkAlloca,
	},
	{
		Name:     "c/memory/vla",
		Rules:    []string{ruleVLA},
		Triggers: memTypeWords,
		Triage:   memTriageVLA,
		Check:    checkVLA,
	},
	{
		Name:     "c/memory/uninit",
		Rules:    []string{ruleUninit},
		Triggers: memTypeWords,
		Triage:   memTriageUninit,
		Check:    checkUninit,
	},
	{
		Name:     "c/null/deref",
		Rules:    []string{ruleNullDeref},
		Triggers: []string{"if", "NULL", "nullptr"},
		Triage:   memTriageNull,
		Check:    checkNullDeref,
	},
}

// memAllocTriggers lists the allocating calls and C++ new.
func memAllocTriggers() []string {
	out := memKeys(memAllocators)
	for k := range memReallocators {
		if memAllocators[k] == 0 {
			out = append(out, k)
		}
	}
	return append(out, "new")
}

func memKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// memLine returns the 1-based line of byte offset off.
func memLine(p *checkers.Pass, off int) int { return p.File.Lines().Line(off) }

// memTokenText returns the text of the token at offset off.
func memTokenText(p *checkers.Pass, off int) string {
	if t := p.Lex.TokenAt(off); t >= 0 {
		return p.Lex.Text(t)
	}
	return ""
}

// memFunc returns the function around a hit, or the zero Node.
func memFunc(h checkers.Hit) syntax.Node {
	if !h.Node.Valid() {
		return syntax.Node{}
	}
	return EnclosingFunction(h.Node)
}

// checkAlloc reports what the state walk found about one allocation, then
// the realloc and size rules.
func checkAlloc(p *checkers.Pass, h checkers.Hit) {
	fn := memFunc(h)
	if !fn.Valid() {
		return
	}
	res := memFlow(p, fn)
	key := h.Node.Start()
	for _, d := range res.byKey(key, fdUncheckedAlloc, fdLeak) {
		memReportFlow(p, fn, res, d, key)
	}
	if h.Word == "new" {
		if ne := h.Node.Parent(); ne.Kind() == "new_expression" {
			checkNewSize(p, ne)
		}
		return
	}
	call, ok := CallAt(h)
	if !ok {
		return
	}
	if memReallocators[h.Word] {
		checkReallocLeak(p, call)
	}
	if i, ok := memAllocSizeArgs[h.Word]; ok {
		checkAllocOverflow(p, call, Arg(call, i), h.Word+"()")
	}
}

// checkMaybeNull reports unchecked uses of one maybe-NULL call result.
func checkMaybeNull(p *checkers.Pass, h checkers.Hit) {
	fn := memFunc(h)
	if !fn.Valid() {
		return
	}
	res := memFlow(p, fn)
	key := h.Node.Start()
	ds := res.byKey(key, fdUncheckedCall, fdMmapNull, fdMmapUnchecked)
	for _, d := range ds {
		if d.kind == fdMmapUnchecked && len(res.byKey(key, fdMmapNull)) > 0 {
			continue // the NULL comparison already says it
		}
		if d.kind == fdMmapNull && strings.Contains(fn.Text(), "MAP_FAILED") {
			continue // a sanity assertion next to the real MAP_FAILED test
		}
		memReportFlow(p, fn, res, d, key)
	}
}

// checkFree reports the state walk's findings about one free or delete,
// then the rules about what is freed.
func checkFree(p *checkers.Pass, h checkers.Hit) {
	fn := memFunc(h)
	if !fn.Valid() {
		return
	}
	var call, arg syntax.Node
	if h.Word == "delete" {
		call = h.Node.Parent()
		if call.Kind() != "delete_expression" {
			return
		}
		arg = call.NamedChild(call.NamedChildCount() - 1)
	} else {
		c, ok := CallAt(h)
		if !ok {
			return
		}
		call, arg = c, Arg(c, 0)
	}
	res := memFlow(p, fn)
	key := h.Node.Start()
	for _, d := range res.byKey(key, fdDoubleFree, fdUseAfterFree, fdFreeOffset) {
		memReportFlow(p, fn, res, d, key)
	}
	if !arg.Valid() {
		return
	}
	if h.Word != "delete" {
		checkFreeNonHeap(p, call, arg, h.Word)
		checkFreeOffsetExpr(p, call, arg, h.Word)
	}
	if h.Word == "free" || h.Word == "delete" {
		checkMismatch(p, call, arg, h.Word)
	}
}

// checkUninit reports reads of the variables a declaration leaves
// uninitialised.
func checkUninit(p *checkers.Pass, h checkers.Hit) {
	fn := memFunc(h)
	if !fn.Valid() {
		return
	}
	res := memFlow(p, fn)
	for _, d := range res.byKey(h.Node.Start(), fdUninit) {
		memReportFlow(p, fn, res, d, h.Node.Start())
	}
}

// checkNullDeref reports dereferences of pointers known to be NULL, and,
// for an if, dereferences that come before its NULL test.
func checkNullDeref(p *checkers.Pass, h checkers.Hit) {
	fn := memFunc(h)
	if !fn.Valid() {
		return
	}
	res := memFlow(p, fn)
	scope := memNullScope(h)
	for _, d := range res.byKey(h.Node.Start(), fdNullDeref) {
		if scope.Contains(d.at) {
			memReportFlow(p, fn, res, d, h.Node.Start())
		}
	}
	if h.Word == "if" {
		if st := h.Node.Parent(); st.Kind() == "if_statement" {
			checkDerefBeforeCheck(p, fn, st)
		}
	}
}

// memNullScope is where a NULL dereference keyed to a hit is reported:
// inside the if statement for an if, inside the block of the store for a
// NULL. (Dereferences further away are left out: they are rare, and the
// limit keeps triage cheap.)
func memNullScope(h checkers.Hit) syntax.Node {
	if h.Word == "if" {
		return h.Node.Parent()
	}
	return h.Node.Ancestor("compound_statement")
}

// memReportFlow turns a state-walk diagnostic into a finding.
func memReportFlow(p *checkers.Pass, fn syntax.Node, res *flowResult, d flowDiag, key int) {
	name := res.slotName(d)
	if !d.must && memCorrelated(fn, memCauses(p, fn, res, d), d.at) {
		return
	}
	if !d.must && d.kind == fdUninit && memLateGuard(p, fn, name, d.at) {
		return
	}
	what := memTokenText(p, key)
	line := memLine(p, key)
	f := checkers.Finding{Span: checkers.NodeSpan(d.at)}
	switch d.kind {
	case fdUncheckedAlloc:
		f.Rule = ruleUncheckedAlloc
		f.Message = memUncheckedMsg(name, what, line, d.how, "NULL check")
	case fdUncheckedCall:
		f.Rule = ruleUncheckedReturn
		f.Message = memUncheckedMsg(name, what, line, d.how, "NULL check")
		f.Adjust = memMaybeNullAdjust(what)
	case fdMmapNull:
		f.Rule = ruleUncheckedReturn
		f.Message = fmt.Sprintf("'%s' from mmap() (line %d) is compared with NULL, but mmap() returns MAP_FAILED, not NULL, on failure", name, line)
		f.Adjust = 0.1
	case fdMmapUnchecked:
		f.Rule = ruleUncheckedReturn
		f.Message = memUncheckedMsg(name, what, line, d.how, "comparison with MAP_FAILED")
	case fdLeak:
		f.Rule = ruleLeak
		f.Message = memLeakMsg(p, d, name, what, line)
	case fdDoubleFree:
		f.Rule = ruleDoubleFree
		f.Message = fmt.Sprintf("'%s' is freed again: it was already freed at line %s on a path that does not reassign it", name, memLines(p, d.extra))
		if !d.must {
			f.Adjust = -0.15
		}
	case fdUseAfterFree:
		f.Rule = ruleUseAfterFree
		f.Message = fmt.Sprintf("'%s' is used (%s) after %s() at line %d released it", name, d.how, what, line)
		if !d.must {
			f.Adjust = -0.15
		}
	case fdNullDeref:
		f.Rule = ruleNullDeref
		f.Message = fmt.Sprintf("'%s' is NULL here (%s) and is dereferenced: %s", name, memNullCause(p, key, line), d.how)
	case fdFreeOffset:
		f.Rule = ruleFreeOffset
		f.Message = fmt.Sprintf("'%s' no longer points to the start of its block (moved at line %s) when %s() releases it", name, memLines(p, d.extra), what)
		if !d.must {
			f.Adjust = -0.15
		}
	case fdUninit:
		f.Rule = ruleUninit
		f.Message = fmt.Sprintf("'%s' is read (%s) before anything is assigned to it on %s path from its declaration at line %d", name, d.how, memEvery(d.must), line)
	default:
		return
	}
	p.Report(f)
}

// memCauses returns the nodes that produced a diagnostic's bad state: the
// earlier frees, the moves, or the assignments before an uninitialised
// read.
func memCauses(p *checkers.Pass, fn syntax.Node, res *flowResult, d flowDiag) []syntax.Node {
	var offs []int32
	switch d.kind {
	case fdDoubleFree, fdFreeOffset:
		offs = d.extra
	case fdUseAfterFree:
		offs = d.keys
	case fdUninit:
		var out []syntax.Node
		for _, def := range Defs(p, fn).All(rootName(res.slotName(d))) {
			if def.Node.End() <= d.at.Start() {
				out = append(out, def.Node)
			}
		}
		return out
	}
	var out []syntax.Node
	for _, o := range offs {
		if n := p.Tree.NodeAt(int(o)); n.Valid() {
			out = append(out, n)
		}
	}
	return out
}

func memUncheckedMsg(name, what string, line int, how, check string) string {
	if name == "" {
		return fmt.Sprintf("the result of %s() is used (%s) without a %s", what, how, check)
	}
	return fmt.Sprintf("'%s' from %s() (line %d) is used (%s) without a %s", name, what, line, how, check)
}

func memLeakMsg(p *checkers.Pass, d flowDiag, name, what string, line int) string {
	msg := fmt.Sprintf("'%s' allocated by %s at line %d is neither freed nor handed off on this return path", name, memCallName(what), line)
	if d.at.Kind() == "}" {
		msg = fmt.Sprintf("'%s' allocated by %s at line %d is neither freed nor handed off when the function ends", name, memCallName(what), line)
	}
	if n := len(d.extra); n > 0 {
		msg += fmt.Sprintf(" (and on %d more return path%s)", n, memPlural(n))
	}
	return msg
}

func memCallName(what string) string {
	if what == "new" {
		return "new"
	}
	return what + "()"
}

func memPlural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

func memEvery(must bool) string {
	if must {
		return "any"
	}
	return "some"
}

// memLines renders the lines of a few offsets: "12" or "12, 20".
func memLines(p *checkers.Pass, offs []int32) string {
	var parts []string
	seen := map[int]bool{}
	for _, o := range offs {
		l := memLine(p, int(o))
		if !seen[l] {
			seen[l] = true
			parts = append(parts, fmt.Sprint(l))
		}
	}
	sort.Strings(parts)
	return strings.Join(parts, ", ")
}

// memNullCause says why a pointer is NULL: assigned, or tested.
func memNullCause(p *checkers.Pass, key, line int) string {
	switch memTokenText(p, key) {
	case "if", "while", "for", "do":
		return fmt.Sprintf("inside the branch where the test at line %d found it NULL", line)
	}
	return fmt.Sprintf("assigned NULL at line %d", line)
}

// memMaybeNullAdjust weighs how often a maybe-NULL API fails in practice.
func memMaybeNullAdjust(name string) float64 {
	switch name {
	case "strchr", "strrchr", "strstr", "strcasestr", "strpbrk", "memchr", "memrchr", "wcschr", "wcsrchr", "wcsstr", "strtok", "bsearch":
		return -0.1 // absence is an ordinary outcome, but callers often know the input
	case "localtime", "gmtime", "ctime", "setlocale", "getcwd", "getlogin", "ttyname":
		return -0.15
	case "fopen", "fdopen", "popen", "tmpfile", "opendir", "dlopen", "dlsym", "getpwnam", "getpwuid", "gethostbyname", "realpath":
		return 0.05
	}
	return 0
}
