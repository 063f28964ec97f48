package c

import (
	"fmt"

	"github.com/jsec/jsec/checkers"
	"github.com/jsec/jsec/checkers/syntax"
)

// Rules about what a free or delete releases.

// checkFreeNonHeap flags free() of something that was never allocated:
// a string literal, the address of a variable, a stack or static array,
// or a pointer every reaching definition of which points at one.
func checkFreeNonHeap(p *checkers.Pass, call, arg syntax.Node, word string) {
	fn := EnclosingFunction(call)
	scope := FuncScope(p, fn)
	e := Uncast(arg)
	what := memNonHeap(scope, e)
	if what == "" {
		if id := Ident(e); id != "" {
			what = memNonHeapDefs(p, fn, scope, id, call)
		}
	}
	if what == "" {
		return
	}
	p.Report(checkers.Finding{Rule: ruleFreeNonHeap, Span: checkers.NodeSpan(call),
		Message: fmt.Sprintf("%s() releases %s, which was not allocated on the heap", word, what)})
}

// memNonHeap describes e when it is certainly not a heap block, else "".
func memNonHeap(scope *Scope, e syntax.Node) string {
	switch e.Kind() {
	case "string_literal", "concatenated_string", "raw_string_literal":
		return "a string literal"
	case "pointer_expression":
		if e.FirstChild().Text() != "&" {
			return ""
		}
		x := Uncast(e.Field("argument"))
		switch x.Kind() {
		case "identifier":
			return fmt.Sprintf("the address of variable '%s'", x.Text())
		case "subscript_expression":
			if v := memArrayVar(scope, x.Field("argument")); v != nil {
				return fmt.Sprintf("an element of %s", memArrayDesc(v))
			}
		case "field_expression":
			if x.Field("operator").Text() == "." {
				if v := scope.Lookup(Ident(x.Field("argument")), x); v != nil && v.Pointer == 0 && !v.Param && !v.Reference {
					return fmt.Sprintf("a member of %s variable '%s'", memStorage(v), v.Name)
				}
			}
		}
	case "identifier":
		if v := memArrayVar(scope, e); v != nil {
			return memArrayDesc(v)
		}
	}
	return ""
}

// memArrayVar returns the non-parameter array variable n names, or nil.
func memArrayVar(scope *Scope, n syntax.Node) *Var {
	id := Ident(n)
	if id == "" {
		return nil
	}
	v := scope.LookupArray(id, n)
	if v == nil || !v.IsArray() || v.Param || v.Pointer > 0 {
		return nil
	}
	return v
}

func memArrayDesc(v *Var) string {
	size := ""
	if v.ArrayLen > 0 {
		size = fmt.Sprintf("[%d]", v.ArrayLen)
	}
	return fmt.Sprintf("%s array '%s' (%s%s)", memStorage(v), v.Name, v.Type, size)
}

func memStorage(v *Var) string {
	switch {
	case v.Global:
		return "the global"
	case v.Static:
		return "the static"
	}
	return "the stack"
}

// memNonHeapDefs describes what pointer id points to when every
// definition reaching use makes it point at non-heap storage.
func memNonHeapDefs(p *checkers.Pass, fn syntax.Node, scope *Scope, id string, use syntax.Node) string {
	v := scope.Lookup(id, use)
	if v == nil || v.Param || v.Global || v.Static || memGuardedBy(use, id) {
		return ""
	}
	defs, ok := memReachingTarget(p, fn, id, use)
	if !ok || len(defs) == 0 {
		return ""
	}
	what := ""
	for _, d := range defs {
		if d.Kind != DefAssign {
			return ""
		}
		w := memNonHeap(scope, Uncast(d.Value))
		if w == "" {
			return ""
		}
		what = w
	}
	return fmt.Sprintf("'%s', which points to %s (line %d)", id, what, memLine(p, defs[0].Node.Start()))
}

// memGuardedBy reports whether an enclosing condition of n mentions id
// (if (p != buf) free(p)).
func memGuardedBy(n syntax.Node, id string) bool {
	ids := map[string]bool{}
	for par := n.Parent(); par.Valid() && par.Kind() != "function_definition"; par = par.Parent() {
		if par.Is("if_statement", "conditional_expression") {
			memIdents(Condition(par), ids)
		}
	}
	return ids[id]
}

// memReachingTarget returns the definitions that write exactly path and
// may reach use, latest first. ok is false when path may have changed in
// a way the definitions do not show: its base reassigned, its address
// passed on, or the variable handed to a macro (ALLOC_ARRAY(p, n)).
func memReachingTarget(p *checkers.Pass, fn syntax.Node, path string, use syntax.Node) (defs []Def, ok bool) {
	root := rootName(path)
	all := Defs(p, fn).All(root)
	for i := len(all) - 1; i >= 0; i-- {
		d := all[i]
		if d.Node.End() > use.Start() || d.Node.Contains(use) {
			continue
		}
		target := memDefTarget(d)
		if d.Kind == DefOther && (target == root || target == path) || target == root && path != root {
			return nil, false
		}
		if target != path {
			continue
		}
		defs = append(defs, d)
		if d.Kind != DefOther && !d.Partial && d.Stmt.Valid() && d.Stmt.Parent().Contains(use) {
			break
		}
	}
	macro := false
	fn.Field("body").Walk(func(n syntax.Node) bool {
		if macro || n.Start() >= use.Start() {
			return false
		}
		if n.Kind() == "call_expression" && (flowMacroName(CalleeName(n)) || memBlockArg(Args(n))) {
			for _, x := range Args(n) {
				macro = macro || PathOf(x) == path
			}
		}
		return !macro
	})
	return defs, !macro
}

// checkFreeOffsetExpr flags free(p + n) and free(&p[n]): the pointer
// handed back is not the one the allocator returned.
func checkFreeOffsetExpr(p *checkers.Pass, call, arg syntax.Node, word string) {
	e := Uncast(arg)
	fn := EnclosingFunction(call)
	scope := FuncScope(p, fn)
	var base syntax.Node
	switch e.Kind() {
	case "binary_expression":
		if BinaryOp(e) != "+" {
			return // p - n is the allocator-header idiom (free((char *)p - HDR))
		}
		base = e.Field("left")
		if v, ok := IntValue(e.Field("right"), scope.Consts()); ok && v == 0 {
			return
		}
	case "pointer_expression":
		x := Uncast(e.Field("argument"))
		if e.FirstChild().Text() != "&" || x.Kind() != "subscript_expression" {
			return
		}
		if v, ok := IntValue(x.Field("index"), scope.Consts()); ok && v == 0 {
			return
		}
		base = x.Field("argument")
	default:
		return
	}
	if id := Ident(base); id != "" {
		if v := scope.Lookup(id, base); v == nil || !v.IsPointer() {
			return // arrays are another rule's business; unknown names may be integers
		}
	} else if PathOf(base) == "" {
		return
	}
	p.Report(checkers.Finding{Rule: ruleFreeOffset, Span: checkers.NodeSpan(call),
		Message: fmt.Sprintf("%s(%s) releases a pointer into the middle of a block, not the pointer the allocator returned", word, shortText(arg))})
}

// checkMismatch flags a release that does not match the allocation:
// free of new, delete of malloc, delete of new[] and delete[] of new.
func checkMismatch(p *checkers.Pass, call, arg syntax.Node, word string) {
	path := PathOf(arg)
	if path == "" {
		return
	}
	want := "malloc"
	if word == "delete" {
		want = "new"
		for c := range call.Children() {
			if c.Text() == "[" {
				want = "new[]"
			}
		}
	}
	fn := EnclosingFunction(call)
	if memParseTrouble(p, fn) {
		return // new T*[n] and friends confuse the parser
	}
	kind, line := memAllocKindOf(p, fn, path, call)
	adjust := 0.0
	if kind == "" && p.File.Lang == "cpp" && memIsMember(p, fn, path, call) {
		kind = memMemberAllocKind(p.Lex, memMemberName(path))
		adjust = -0.1
	}
	if kind == "" || kind == want {
		return
	}
	rel := map[string]string{"malloc": "free()", "new": "delete", "new[]": "delete[]"}
	where := ""
	if line > 0 {
		where = fmt.Sprintf(" at line %d", line)
	}
	p.Report(checkers.Finding{Rule: ruleMismatchedFree, Span: checkers.NodeSpan(call), Adjust: adjust,
		Message: fmt.Sprintf("'%s' is allocated with %s%s but released with %s, which expects %s", path, memKindName(kind), where, rel[want], memKindName(want))})
}

func memKindName(k string) string {
	if k == "malloc" {
		return "malloc()"
	}
	return k
}

// memAllocKindOf classifies the allocation every definition of path that
// reaches use makes: "malloc", "new", "new[]", or "" when unknown or mixed.
func memAllocKindOf(p *checkers.Pass, fn syntax.Node, path string, use syntax.Node) (kind string, line int) {
	defs, ok := memReachingTarget(p, fn, path, use)
	if !ok {
		return "", 0
	}
	for _, d := range defs {
		k := ""
		if d.Kind == DefAssign {
			k = memValueKind(d.Value)
		}
		if k == "" || kind != "" && k != kind {
			return "", 0
		}
		kind, line = k, memLine(p, d.Node.Start())
	}
	return kind, line
}

// memDefTarget returns the lvalue path a definition writes.
func memDefTarget(d Def) string {
	switch d.Node.Kind() {
	case "init_declarator":
		return declIdent(d.Node.Field("declarator"))
	case "assignment_expression":
		return PathOf(d.Node.Field("left"))
	}
	return d.Name
}

// memValueKind classifies an allocating expression.
func memValueKind(v syntax.Node) string {
	v = memUncast(v)
	switch v.Kind() {
	case "call_expression":
		switch CalleeName(v) {
		case "malloc", "calloc", "realloc", "reallocarray", "strdup", "strndup", "aligned_alloc", "memalign", "valloc":
			return "malloc"
		}
	case "new_expression":
		if memNewArray(v) {
			return "new[]"
		}
		return "new"
	}
	return ""
}

// memIsMember reports whether path names a class member rather than a
// local: this->x, or a bare name that is no local, parameter or global.
func memIsMember(p *checkers.Pass, fn syntax.Node, path string, use syntax.Node) bool {
	if len(path) > 6 && path[:6] == "this->" {
		return true
	}
	if path != rootName(path) {
		return false
	}
	return FuncScope(p, fn).Lookup(path, use) == nil
}

func memMemberName(path string) string {
	if len(path) > 6 && path[:6] == "this->" {
		return path[6:]
	}
	return path
}

// memMemberAllocKind scans the whole file's tokens for what a member is
// assigned: "name = new T[...]", "name(new T)", "name = malloc(...)".
// It returns the kind when every such assignment agrees.
func memMemberAllocKind(lx *checkers.Lexed, name string) string {
	kind := ""
	for i := range lx.Tokens {
		if lx.Kind(i) != checkers.TokIdent || !lx.Is(i, name) {
			continue
		}
		j := i + 1
		if !lx.Is(j, "=") && !lx.Is(j, "(") && !lx.Is(j, "{") {
			continue
		}
		j++
		for lx.Is(j, "(") || lx.Is(j, "static_cast") || lx.Is(j, "reinterpret_cast") {
			j++ // casts in front of the allocation
		}
		k := memTokenAllocKind(lx, j)
		if k == "" {
			continue
		}
		if kind != "" && k != kind {
			return ""
		}
		kind = k
	}
	return kind
}

// memTokenAllocKind classifies the allocation that starts at token j.
func memTokenAllocKind(lx *checkers.Lexed, j int) string {
	switch {
	case lx.Is(j, "malloc") || lx.Is(j, "calloc") || lx.Is(j, "strdup") || lx.Is(j, "realloc"):
		if lx.Is(j+1, "(") {
			return "malloc"
		}
	case lx.Is(j, "new"):
		j++
		if lx.Is(j, "(") {
			j = lx.Close(j) + 1 // placement
		}
		for k := j; k < len(lx.Tokens) && k < j+32; k++ {
			switch {
			case lx.Is(k, "["):
				return "new[]"
			case lx.Is(k, "(") || lx.Is(k, "{") || lx.Is(k, ";") || lx.Is(k, ")") || lx.Is(k, ","):
				return "new"
			}
		}
	}
	return ""
}

// memUncast is Uncast that also strips C++ named casts:
// static_cast<char *>(p) → p.
func memUncast(n syntax.Node) syntax.Node {
	for {
		n = Uncast(n)
		if n.Kind() != "call_expression" {
			return n
		}
		switch CalleeName(n) {
		case "static_cast", "reinterpret_cast", "const_cast":
			n = Arg(n, 0)
		default:
			return n
		}
	}
}

// memNewArray reports new T[n] (also new T*[n]).
func memNewArray(ne syntax.Node) bool {
	found := false
	ne.Walk(func(n syntax.Node) bool {
		if n.Kind() == "new_declarator" {
			found = true
		}
		return !found && n.FieldName() != "arguments" && n.FieldName() != "placement"
	})
	return found
}
