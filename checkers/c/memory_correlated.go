package c

import (
	"github.com/jsec/jsec/checkers"
	"github.com/jsec/jsec/checkers/syntax"
)

// The state walk merges paths, so a "may" finding can come from a path
// that the program's own flags rule out:
//
//	if (!pbuf) { free(ubuf); result = OOM; }
//	if (!result && optionsp) { ... free(ubuf); }
//
// memCorrelated recognises the common shape: the branch that produced the
// bad state (or its condition) and a condition guarding the finding
// share a variable. Such findings are dropped.

// memCorrelated reports whether the finding at d, caused by the nodes in
// causes, is guarded by a condition correlated with one of their branches.
func memCorrelated(fn syntax.Node, causes []syntax.Node, d syntax.Node) bool {
	guards := memGuardIdents(fn, d)
	conds := make([]map[string]bool, len(causes))
	sets := make([]map[string]bool, len(causes))
	for i, c := range causes {
		conds[i], sets[i] = memBranchIdents(fn, c, d)
		for id := range conds[i] {
			if guards[id] {
				return true
			}
		}
		for id := range sets[i] {
			if guards[id] {
				return true
			}
		}
	}
	// Two causes in branches where one sets a flag the other tests:
	// if (f() == 0) { x = ...; err = 0; }  if (err) x = -1;
	for i := range causes {
		for j := range causes {
			if i == j {
				continue
			}
			for id := range sets[i] {
				if conds[j][id] {
					return true
				}
			}
		}
	}
	return false
}

// memGuardIdents returns the identifiers in the conditions that guard n:
// enclosing if/loop/ternary conditions and left operands of && and ||.
func memGuardIdents(fn, n syntax.Node) map[string]bool {
	out := map[string]bool{}
	child := n
	for par := n.Parent(); par.Valid() && par.Index() != fn.Index(); child, par = par, par.Parent() {
		switch par.Kind() {
		case "if_statement", "while_statement", "for_statement", "conditional_expression":
			if child.FieldName() != "condition" {
				memIdents(Condition(par), out)
			}
		case "binary_expression":
			if op := BinaryOp(par); (op == "&&" || op == "||") && child.FieldName() == "right" {
				memIdents(par.Field("left"), out)
			}
		}
	}
	return out
}

// memBranchIdents returns, for the conditional constructs around cause
// that do not also hold d, the identifiers of their conditions and the
// variables assigned in the branches that hold cause.
func memBranchIdents(fn, cause, d syntax.Node) (conds, sets map[string]bool) {
	conds, sets = map[string]bool{}, map[string]bool{}
	child := cause
	for par := cause.Parent(); par.Valid() && par.Index() != fn.Index(); child, par = par, par.Parent() {
		if par.Contains(d) {
			break
		}
		switch par.Kind() {
		case "if_statement", "while_statement", "for_statement", "conditional_expression", "switch_statement":
			if child.FieldName() == "condition" {
				continue
			}
			memIdents(Condition(par), conds)
			if init := par.Field("initializer"); init.Valid() {
				memIdents(init, conds)
			}
			memAssigned(child, sets)
			if par.Kind() == "conditional_expression" {
				// x = c ? NULL : f(&y): x tells which branch ran.
				if t := memValueTarget(par); t != "" {
					sets[t] = true
				}
			}
		case "case_statement":
			memAssigned(par, sets)
		}
	}
	return conds, sets
}

// memIdents adds the identifiers in n.
func memIdents(n syntax.Node, out map[string]bool) {
	for m := range n.Descendants() {
		if m.Kind() == "identifier" {
			out[m.Text()] = true
		}
	}
}

// memAssigned adds the root variables assigned or updated in n.
func memAssigned(n syntax.Node, out map[string]bool) {
	for m := range n.Descendants() {
		switch m.Kind() {
		case "assignment_expression":
			if r := rootName(PathOf(m.Field("left"))); r != "" {
				out[r] = true
			}
		case "update_expression":
			if r := rootName(PathOf(m.Field("argument"))); r != "" {
				out[r] = true
			}
		}
	}
}

// memValueTarget returns the variable an expression's value is stored
// in: x in "x = e" or "T x = e".
func memValueTarget(e syntax.Node) string {
	p := e.Parent()
	for p.Is("parenthesized_expression", "cast_expression") {
		p = p.Parent()
	}
	switch p.Kind() {
	case "assignment_expression":
		return rootName(PathOf(p.Field("left")))
	case "init_declarator":
		return declIdent(p.Field("declarator"))
	}
	return ""
}

// memLateGuard recognises the cleanup idiom for a variable that may be
// read uninitialised at d:
//
//	size_t size; void *map = NULL;
//	... size = ...; map = mmap(NULL, size, ...); ...
//	fail: if (map) munmap(map, size);
//
// A guard of d that starts out NULL or 0 and is only set after name was
// first assigned implies that name was assigned too.
func memLateGuard(p *checkers.Pass, fn syntax.Node, name string, d syntax.Node) bool {
	defs := Defs(p, fn)
	first := -1
	for _, def := range defs.All(name) {
		if def.Node.Start() < d.Start() && (first < 0 || def.Node.Start() < first) {
			first = def.Node.Start()
		}
	}
	if first < 0 {
		return false
	}
	scope := FuncScope(p, fn)
	guards := memGuardIdents(fn, d)
	if memJumpFlags(fn, first, guards) {
		return true
	}
	for g := range guards {
		v := scope.Lookup(g, d)
		if v == nil || v.Param || v.Global || !v.Init.Valid() {
			continue
		}
		if _, ok := IntValue(v.Init, nil); !ok && !IsNullLiteral(v.Init) {
			continue
		}
		late := true
		for _, def := range defs.All(g) {
			if def.Node.Kind() == "init_declarator" {
				continue
			}
			late = late && def.Node.Start() > first
		}
		if late {
			return true
		}
	}
	return false
}

// memJumpFlags reports an early exit before offset first (a goto to the
// cleanup code) whose branch sets one of the guards: the cleanup can tell
// the early exits by that flag.
func memJumpFlags(fn syntax.Node, first int, guards map[string]bool) bool {
	found := false
	fn.Field("body").Walk(func(n syntax.Node) bool {
		if found || n.Start() >= first {
			return false
		}
		if n.Kind() != "goto_statement" {
			return true
		}
		sets := map[string]bool{}
		if b := n.Ancestor("compound_statement"); b.Valid() {
			memAssigned(b, sets)
		}
		for g := range sets {
			found = found || guards[g]
		}
		return !found
	})
	return found
}
