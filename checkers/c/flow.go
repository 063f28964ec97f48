package c

import (
	"slices"
	"unsafe"

	"github.com/jsec/jsec/checkers"
	"github.com/jsec/jsec/checkers/syntax"
)

// This file is the memory family's per-function state analysis. It walks
// one function's statements in execution order and keeps, for every
// tracked lvalue (a "slot": p, s->buf, *out), the set of states it may be
// in on the paths that reach the current point: uninitialised, NULL, an
// unchecked allocation, a fresh owned block, a freed block, and so on.
//
// Control flow is followed through if/else, switch, loops (iterated to a
// fixed point of their head state), break/continue, return, forward goto
// (the state flows to the label: the "goto fail" cleanup idiom) and calls
// that do not return. A NULL test splits the state, and a branch in which
// a slot would have no possible state is dead: "if (!p) return;" leaves
// only non-NULL states after it. Merges are unions, so a finding is either
// "must" (every state at the point is bad) or "may" (some path brings a
// bad state); rules choose which they accept.
//
// The walk records diagnostics keyed by the byte offset of the trigger
// token that caused them (the allocating or freeing call, the NULL, the
// if, the declaration), so that each rule's Check reports exactly the
// diagnostics of its own hit. The result is computed once per function.

// flowBits is a set of possible states of a slot.
type flowBits uint16

const (
	fbUninit    flowBits = 1 << iota // declared without initialiser, not yet written
	fbNull                           // NULL (assigned, or tested equal to NULL)
	fbFailAlloc                      // result of an allocation not yet checked: may be NULL
	fbFailCall                       // result of a call that returns NULL on failure, unchecked
	fbFailMmap                       // mmap result not yet compared with MAP_FAILED
	fbFresh                          // owns a fresh block (not NULL)
	fbMoved                          // owns a block but no longer points at its start
	fbValid                          // not NULL, not owned here
	fbUnknown                        // anything: parameters, call results, havoc
	fbFreed                          // released: dangling
)

const fbMaybeNull = fbNull | fbFailAlloc | fbFailCall

// flowOrigin records which trigger put a state bit there.
type flowOrigin struct {
	bit flowBits
	key int32 // byte offset of the trigger token
}

// flowVal is the abstract value of one slot: 16 bytes, since states,
// copied at every branch and join, hold one per slot.
type flowVal struct {
	bits flowBits
	n    uint32      // number of origins
	org  *flowOrigin // the first of n origins, shared and never modified
}

// mkFlowVal makes a value of bits with origins org, which it keeps: the
// caller must not modify org afterwards.
func mkFlowVal(bits flowBits, org []flowOrigin) flowVal {
	if len(org) == 0 {
		return flowVal{bits: bits}
	}
	return flowVal{bits: bits, n: uint32(len(org)), org: &org[0]}
}

// origins returns the origins of v, for reading only.
func (v flowVal) origins() []flowOrigin { return unsafe.Slice(v.org, v.n) }

func flowOne(bit flowBits, key int) flowVal {
	return mkFlowVal(bit, []flowOrigin{{bit, int32(key)}})
}

// keys returns the trigger offsets behind the bits in mask.
func (v flowVal) keys(mask flowBits) []int32 {
	var out []int32
	for _, o := range v.origins() {
		if o.bit&mask != 0 && !flowHasKey(out, o.key) {
			out = append(out, o.key)
		}
	}
	return out
}

// without drops the bits in mask and their origins.
func (v flowVal) without(mask flowBits) flowVal {
	if v.bits&mask == 0 {
		return v
	}
	var org []flowOrigin
	for _, o := range v.origins() {
		if o.bit&mask == 0 {
			org = append(org, o)
		}
	}
	return mkFlowVal(v.bits&^mask, org)
}

// recast turns the bits in from into bit to, keeping their origins (or
// giving them the key newKey when it is not negative).
func (v flowVal) recast(from, to flowBits, newKey int) flowVal {
	if v.bits&from == 0 {
		return v
	}
	var org []flowOrigin
	for _, o := range v.origins() {
		if o.bit&from == 0 {
			org = append(org, o)
		}
	}
	if newKey >= 0 {
		org = append(org, flowOrigin{to, int32(newKey)})
		return mkFlowVal(v.bits&^from|to, org)
	}
	for _, o := range v.origins() {
		if o.bit&from != 0 {
			org = append(org, flowOrigin{to, o.key})
		}
	}
	return mkFlowVal(v.bits&^from|to, org)
}

func flowUnion(a, b flowVal) flowVal {
	ao, bo := a.origins(), b.origins()
	if a.bits == b.bits && len(ao) == len(bo) && sameOrigins(ao, bo) {
		return a
	}
	// b's origins that a lacks, in order, each once.
	var extra []flowOrigin
	for _, o := range bo {
		if !slices.Contains(ao, o) && !slices.Contains(extra, o) {
			extra = append(extra, o)
		}
	}
	if len(extra) == 0 {
		return flowVal{bits: a.bits | b.bits, n: a.n, org: a.org} // a's origins, shared
	}
	org := make([]flowOrigin, 0, len(ao)+len(extra))
	return mkFlowVal(a.bits|b.bits, append(append(org, ao...), extra...))
}

func sameOrigins(a, b []flowOrigin) bool {
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func flowHasKey(ks []int32, k int32) bool {
	for _, x := range ks {
		if x == k {
			return true
		}
	}
	return false
}

// flowState is the value of every slot on the paths reaching a point; a
// dead state is reached by no path.
type flowState struct {
	v    []flowVal
	dead bool
	ar   *flowArena // where its clones and merges are allocated; nil for flowDead
}

func (s *flowState) clone() *flowState {
	if s == nil {
		return nil
	}
	if s.ar == nil {
		return &flowState{v: append([]flowVal(nil), s.v...), dead: s.dead}
	}
	t := s.ar.newState()
	t.v = s.ar.newVals(len(s.v))
	copy(t.v, s.v)
	t.dead = s.dead
	return t
}

func flowDead() *flowState { return &flowState{dead: true} }

// flowMerge joins two states into a new one.
func flowMerge(a, b *flowState) *flowState {
	switch {
	case a == nil || a.dead:
		if b == nil {
			return flowDead()
		}
		return b.clone()
	case b == nil || b.dead:
		return a.clone()
	}
	var out *flowState
	if a.ar != nil {
		out = a.ar.newState()
		out.v = a.ar.newVals(len(a.v))
	} else {
		out = &flowState{v: make([]flowVal, len(a.v))}
	}
	for i := range a.v {
		out.v[i] = flowUnion(a.v[i], b.v[i])
	}
	return out
}

// same reports whether two states hold the same bits and origins.
func (s *flowState) same(t *flowState) bool {
	if s.dead || t.dead {
		return s.dead == t.dead
	}
	for i := range s.v {
		if s.v[i].bits != t.v[i].bits || s.v[i].n != t.v[i].n {
			return false
		}
	}
	return true
}

// flowSlot describes a tracked lvalue.
type flowSlot struct {
	path   string
	root   string
	local  bool // a non-static local or a parameter: it dies with the function
	field  bool // a field, element or dereference path
	global bool // the root outlives the function (global, static)
	// loose: a typedef'd non-pointer whose type may be an array or a
	// struct; only plain value reads of it count as reads.
	loose bool
	// exposed: the root's address escapes (&x, an array passed on), so
	// any unknown call may write the slot.
	exposed bool
	// uninit lists the declarations (by node index) that leave the slot
	// uninitialised and are tracked for use before initialisation.
	uninit map[int]bool
}

// flowDiagKind is what a diagnostic says.
type flowDiagKind uint8

const (
	fdUncheckedAlloc flowDiagKind = iota + 1 // a maybe-NULL allocation dereferenced
	fdUncheckedCall                          // a maybe-NULL call result dereferenced
	fdMmapNull                               // an mmap result compared with NULL
	fdMmapUnchecked                          // an mmap result used before any MAP_FAILED test
	fdLeak                                   // an owned block dies on a return path
	fdDoubleFree                             // a freed block freed again
	fdUseAfterFree                           // a freed block used
	fdNullDeref                              // a NULL pointer dereferenced
	fdFreeOffset                             // a moved pointer freed
	fdUninit                                 // an uninitialised variable read
)

// flowDiag is one finding of the walk.
type flowDiag struct {
	kind flowDiagKind
	at   syntax.Node // where it happens
	keys []int32     // trigger offsets of its cause (the hits that report it)
	// extra holds offsets of other relevant places (the earlier free of a
	// double free) for messages.
	extra []int32
	slot  int // -1 when the value is a call result, not a slot
	must  bool
	how   string // what the use is: "p->len", "passed to memcpy"
}

// flowResult is the memoised analysis of one function.
type flowResult struct {
	slots []flowSlot
	diags []flowDiag
}

// byKey returns the diagnostics of the given kinds caused by the trigger
// at offset key.
func (r *flowResult) byKey(key int, kinds ...flowDiagKind) []flowDiag {
	var out []flowDiag
	for _, d := range r.diags {
		if !flowHasKey(d.keys, int32(key)) {
			continue
		}
		for _, k := range kinds {
			if d.kind == k {
				out = append(out, d)
				break
			}
		}
	}
	return out
}

// slotName returns the path of a diagnostic's slot.
func (r *flowResult) slotName(d flowDiag) string {
	if d.slot < 0 || d.slot >= len(r.slots) {
		return ""
	}
	return r.slots[d.slot].path
}

type flowKey struct{ fn int }

// flowBudget bounds the work of one function's walk; past it the
// analysis gives up and reports nothing.
const flowBudget = 400000

// memFlowMaxBytes is the largest function the walk analyses: longer ones
// are generated code or giant state machines, slow to parse and where
// path merging makes findings unreliable.
const memFlowMaxBytes = 20000

// memFlow returns the memory-state analysis of function fn, computed once.
func memFlow(p *checkers.Pass, fn syntax.Node) *flowResult {
	return checkers.Memo(p, flowKey{fn.Index()}, func() *flowResult {
		if fn.End()-fn.Start() > memFlowMaxBytes {
			return &flowResult{} // generated code and giant state machines
		}
		if memParseTrouble(p, fn) {
			// Where the parser had to guess (often #if branches that
			// split a statement), paths are unreliable: no walk, no
			// diagnostics (which are all a result is asked for).
			return &flowResult{}
		}
		a := newFlowAnalysis(p, fn)
		if a == nil {
			return &flowResult{}
		}
		a.run()
		a.ar.release() // the result holds no state
		if a.failed {
			return &flowResult{slots: a.slots} // past the budget: unreliable too
		}
		return &flowResult{slots: a.slots, diags: a.diags}
	})
}

// flowLoop is a break/continue target.
type flowLoop struct {
	brk, cont *flowState
	isSwitch  bool
}

type flowAnalysis struct {
	p      *checkers.Pass
	fn     syntax.Node
	body   syntax.Node
	cpp    bool
	isMain bool
	scope  *Scope

	slots  []flowSlot
	byPath map[string]int

	diags  []flowDiag
	seen   map[[2]int]int // (kind, at) -> index in diags
	record bool
	budget int
	failed bool

	loops    []*flowLoop
	curCall  string // the call whose arguments are being evaluated
	gotos    map[string]*flowState
	back     map[string]bool // labels that a later goto jumps back to
	labelAnc map[int]bool    // nodes that contain a label

	ar *flowArena // the walk's states
}

func newFlowAnalysis(p *checkers.Pass, fn syntax.Node) *flowAnalysis {
	body := fn.Field("body")
	if !body.Valid() {
		return nil
	}
	name := checkers.DeclaratorName(fn.Field("declarator"))
	a := &flowAnalysis{
		p: p, fn: fn, body: body, cpp: p.File.Lang == "cpp", isMain: name == "main" || name == "wmain",
		scope: FuncScope(p, fn), byPath: map[string]int{}, seen: map[[2]int]int{}, record: true,
		budget: flowBudget, gotos: map[string]*flowState{}, back: map[string]bool{}, labelAnc: map[int]bool{}, ar: &flowArena{},
	}
	a.discover()
	a.markExposed()
	return a
}

// markExposed flags the slots whose root variable's address escapes:
// &x anywhere, or a local array used as a value.
func (a *flowAnalysis) markExposed() {
	roots := map[string]bool{}
	for _, sl := range a.slots {
		roots[sl.root] = true
	}
	exposed := map[string]bool{}
	a.body.Walk(func(n syntax.Node) bool {
		switch n.Kind() {
		case "pointer_expression":
			if n.FirstChild().Text() == "&" {
				if r := rootName(PathOf(n.Field("argument"))); roots[r] {
					exposed[r] = true
				}
			}
		case "identifier":
			if r := n.Text(); roots[r] && !exposed[r] && memArrayValue(a.scope, n) {
				exposed[r] = true
			}
		case "sizeof_expression":
			return false
		}
		return true
	})
	for i := range a.slots {
		a.slots[i].exposed = exposed[a.slots[i].root]
	}
}

// memArrayValue reports an array variable used as a value (decayed to a
// pointer that can be stored): not subscripted, not a member access.
func memArrayValue(scope *Scope, id syntax.Node) bool {
	par := id.Parent()
	switch par.Kind() {
	case "subscript_expression", "field_expression":
		if par.Field("argument").Index() == id.Index() {
			return false
		}
	case "sizeof_expression":
		return false
	}
	v := scope.Lookup(id.Text(), id)
	return v != nil && v.IsArray()
}

func (a *flowAnalysis) run() {
	s := a.ar.newState()
	s.v = a.ar.newVals(len(a.slots))
	for i := range s.v {
		s.v[i] = flowVal{bits: fbUnknown}
	}
	out := a.stmt(a.body, s)
	if !out.dead && !a.failed {
		end := a.body
		for c := range a.body.Children() {
			end = c // the closing brace
		}
		a.exit(end, out)
	}
	a.summariseLeaks()
}

// slotOf returns the slot an expression names, or -1.
func (a *flowAnalysis) slotOf(n syntax.Node) int {
	switch Unparen(n).Kind() {
	case "identifier", "field_expression", "subscript_expression", "pointer_expression", "cast_expression":
	default:
		return -1
	}
	path := PathOf(n)
	if path == "" {
		return -1
	}
	if i, ok := a.byPath[path]; ok {
		return i
	}
	return -1
}

// addSlot tracks the lvalue path (declared or used at n).
func (a *flowAnalysis) addSlot(path string, at syntax.Node) int {
	if i, ok := a.byPath[path]; ok {
		return i
	}
	root := rootName(path)
	sl := flowSlot{path: path, root: root, field: path != root}
	v := a.scope.Lookup(root, at)
	switch {
	case v == nil || v.Global || v.Static:
		sl.global = true
	case !sl.field:
		sl.local = true
	}
	a.slots = append(a.slots, sl)
	a.byPath[path] = len(a.slots) - 1
	return len(a.slots) - 1
}

// discover finds the slots worth tracking: lvalues that receive an
// allocation, a maybe-NULL result or NULL; freed lvalues; lvalues tested
// against NULL; and uninitialised local declarations.
func (a *flowAnalysis) discover() {
	labels := map[string]int{}
	a.body.Walk(func(n syntax.Node) bool {
		switch n.Kind() {
		case "function_definition", "lambda_expression", "class_specifier", "struct_specifier", "union_specifier":
			return n.Index() == a.fn.Index()
		case "declaration":
			a.discoverDecl(n)
		case "assignment_expression":
			if BinaryOp(n) == "=" && flowTracked(n.Field("right")) {
				if path := PathOf(n.Field("left")); path != "" {
					a.addSlot(path, n)
				}
			}
		case "call_expression":
			name := CalleeName(n)
			if memDeallocators[name] || memReallocators[name] {
				if path := PathOf(Arg(n, 0)); path != "" {
					a.addSlot(path, n)
				}
			}
		case "delete_expression":
			if path := PathOf(n.NamedChild(n.NamedChildCount() - 1)); path != "" {
				a.addSlot(path, n)
			}
		case "binary_expression", "unary_expression":
			if path := PathOf(flowTestedOperand(n)); path != "" {
				a.addSlot(path, n)
			}
		case "labeled_statement":
			labels[n.Field("label").Text()] = n.Start()
			for p := n; p.Valid() && p.Index() != a.body.Index(); p = p.Parent() {
				a.labelAnc[p.Index()] = true
			}
		case "goto_statement":
			lbl := n.Field("label").Text()
			if at, ok := labels[lbl]; ok && at < n.Start() {
				a.back[lbl] = true
			}
		}
		return true
	})
}

// discoverDecl tracks the declarators of one local declaration.
func (a *flowAnalysis) discoverDecl(n syntax.Node) {
	if v := n.Field("value"); v.Valid() {
		// if (T x = e): a condition declaration, initialised.
		if name := declIdent(n.Field("declarator")); name != "" && flowTracked(v) && a.pointerDecl(n, n) {
			a.addSlot(name, v)
		}
		return
	}
	for d := range n.NamedChildren() {
		if d.FieldName() != "declarator" {
			continue
		}
		if d.Kind() == "init_declarator" {
			if flowTracked(d.Field("value")) && a.pointerDecl(n, d) {
				if name := declIdent(d.Field("declarator")); name != "" {
					a.addSlot(name, d.Field("value"))
				}
			}
			continue
		}
		loose, ok := a.uninitCandidate(n, d)
		if !ok {
			continue
		}
		name := declIdent(d)
		i := a.addSlot(name, memDeclName(d))
		sl := &a.slots[i]
		if sl.uninit == nil {
			sl.uninit = map[int]bool{}
		}
		sl.uninit[d.Index()] = true
		sl.loose = sl.loose || loose
	}
}

// pointerDecl reports whether declarator d of declaration decl may hold
// a pointer: in C++ a non-pointer of a class type (std::string s =
// tmpnam(b)) holds a copy, not the pointer.
func (a *flowAnalysis) pointerDecl(decl, d syntax.Node) bool {
	if !a.cpp {
		return true
	}
	if d.Field("declarator").Kind() == "pointer_declarator" {
		return true
	}
	switch decl.Field("type").Kind() {
	case "primitive_type", "sized_type_specifier", "placeholder_type_specifier", "auto":
		return true
	}
	return decl.Field("type").Text() == "auto"
}

// memDeclName returns the identifier a declarator declares.
func memDeclName(d syntax.Node) syntax.Node {
	for d.Valid() && d.Kind() != "identifier" {
		if inner := d.Field("declarator"); inner.Valid() {
			d = inner
			continue
		}
		d = d.NamedChild(0)
	}
	return d
}

// uninitCandidate decides whether declarator d of declaration decl
// declares a scalar or pointer local without initialiser that the uninit
// rule tracks; loose is set for typedef'd non-pointers.
func (a *flowAnalysis) uninitCandidate(decl, d syntax.Node) (loose, ok bool) {
	for c := range decl.Children() {
		if c.Kind() == "storage_class_specifier" && c.Text() != "register" && c.Text() != "auto" {
			return false, false
		}
	}
	ptr := 0
	for d.Kind() == "pointer_declarator" {
		ptr++
		d = d.Field("declarator")
	}
	if d.Kind() != "identifier" {
		return false, false
	}
	switch decl.Field("type").Kind() {
	case "primitive_type", "sized_type_specifier", "enum_specifier":
		return false, true
	case "type_identifier":
		if a.cpp {
			return false, ptr > 0
		}
		return ptr == 0, true
	}
	return false, ptr > 0
}

// flowTracked reports whether assigning v makes its target worth
// tracking: NULL, an allocation, a maybe-NULL call result.
func flowTracked(v syntax.Node) bool {
	v = memUncast(v)
	switch v.Kind() {
	case "null", "nullptr", "new_expression":
		return true
	case "identifier":
		return v.Text() == "NULL"
	case "call_expression":
		name := CalleeName(v)
		return memAllocators[name] != 0 || memMaybeNull[name]
	case "conditional_expression":
		return flowTracked(v.Field("consequence")) || flowTracked(v.Field("alternative"))
	case "assignment_expression", "comma_expression":
		return flowTracked(v.Field("right"))
	case "binary_expression":
		return memMaybeNull[CalleeName(Uncast(v.Field("left")))]
	}
	return false
}

// flowTestedOperand returns the operand a NULL test looks at: p in !p,
// p == NULL, NULL != p, or the left of an assignment tested so.
func flowTestedOperand(n syntax.Node) syntax.Node {
	var x syntax.Node
	switch n.Kind() {
	case "unary_expression":
		if BinaryOp(n) == "!" {
			x = n.Field("argument")
		}
	case "binary_expression":
		op := BinaryOp(n)
		switch {
		case op == "&&" || op == "||":
			return syntax.Node{}
		case op != "==" && op != "!=":
			return syntax.Node{}
		case flowNullish(n.Field("right")):
			x = n.Field("left")
		case flowNullish(n.Field("left")):
			x = n.Field("right")
		}
	}
	x = Uncast(x)
	if x.Kind() == "assignment_expression" {
		x = x.Field("left")
	}
	return x
}

// flowNullish reports NULL, nullptr, 0 and MAP_FAILED.
func flowNullish(n syntax.Node) bool {
	return IsNullLiteral(n) || Uncast(n).Text() == "MAP_FAILED"
}

// calleeKey returns the offset of the identifier a call's trigger is.
func calleeKey(call syntax.Node) int {
	f := Unparen(call.Field("function"))
	for f.Kind() == "qualified_identifier" {
		f = f.Field("name")
	}
	if f.Kind() == "template_function" {
		f = f.Field("name")
	}
	return f.Start()
}

// diag records a diagnostic (once per kind and place).
func (a *flowAnalysis) diag(d flowDiag) {
	if !a.record || len(d.keys) == 0 {
		return
	}
	k := [2]int{int(d.kind), d.at.Index()}
	if i, ok := a.seen[k]; ok {
		old := &a.diags[i]
		for _, x := range d.keys {
			if !flowHasKey(old.keys, x) {
				old.keys = append(old.keys, x)
			}
		}
		old.must = old.must && d.must
		return
	}
	a.seen[k] = len(a.diags)
	a.diags = append(a.diags, d)
}

// exit checks the owned blocks that die when the function returns at n.
func (a *flowAnalysis) exit(n syntax.Node, s *flowState) {
	if a.isMain || s.dead {
		return
	}
	for i, sl := range a.slots {
		v := s.v[i]
		if !sl.local || v.bits&fbFresh == 0 || v.bits&^(fbFresh|fbFailAlloc) != 0 {
			continue
		}
		a.diag(flowDiag{kind: fdLeak, at: n, keys: v.keys(fbFresh), slot: i, must: true})
	}
}

// summariseLeaks keeps the first leaking exit per allocation and slot,
// noting how many more there are.
func (a *flowAnalysis) summariseLeaks() {
	type lk struct {
		key  int32
		slot int
	}
	first := map[lk]int{}
	var out []flowDiag
	for _, d := range a.diags {
		if d.kind != fdLeak {
			out = append(out, d)
			continue
		}
		for _, k := range d.keys {
			id := lk{k, d.slot}
			if i, ok := first[id]; ok {
				out[i].extra = append(out[i].extra, int32(d.at.Start()))
				continue
			}
			first[id] = len(out)
			nd := d
			nd.keys = []int32{k}
			nd.extra = nil
			out = append(out, nd)
		}
	}
	a.diags = out
}
