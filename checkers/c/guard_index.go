package c

import (
	"sort"
	"strings"

	"github.com/jsec/jsec/checkers"
	"github.com/jsec/jsec/checkers/syntax"
)

// Indexes for the guard questions that checks ask once per finding: is
// strlen(src) compared in an earlier if of the block (lengthChecked), does
// an ordering comparison in an earlier if or assertion guard the call
// (bufGuardedBy), is the result of atoi compared after the call
// (inRangeCheckedAfter), which variables hold a length of src
// (bufSrcLenGuarded)? Each question walked the statements before (or the
// nodes after) the call, so a generated function with thousands of calls
// took time quadratic in its size (a 1.1 MB one: 31 s in these questions).
// In blocks and bodies from guardIndexMin bytes on, the questions look
// instead at what an index built once per block or body holds: the few
// statements, comparisons or assignments that can answer yes. Smaller ones
// keep the walk, cheaper there. The token triage does the same for its
// per-item scans (bufItemMentions, bufItemSubscripts, outerOpeners,
// arithLastDivision); TestGuardIndexesMatchWalks and
// TestTokenIndexesMatchScans hold every index to its walk.

// guardIndexMin is the size (bytes) of a block or function body from which
// the guard questions use an index. A variable so that tests can ask both
// ways.
var guardIndexMin = 16 << 10

type guardKey struct {
	kind byte // 'l' lengthChecked, 'g' bufGuardedBy, 'r' inRangeCheckedAfter, 's' spanHolders
	t    *syntax.Tree
	n    int
}

// lenCheckIf is an if statement of a block whose condition, without
// blanks, mentions strlen( and holds a < or >: the only statements that
// can answer lengthChecked.
type lenCheckIf struct {
	start int
	cond  string // the condition's text without blanks
}

// lenCheckIfs returns the lenCheckIfs among the children of block, in
// source order; found once per block.
func lenCheckIfs(p *checkers.Pass, block syntax.Node) []lenCheckIf {
	return checkers.Memo(p, guardKey{'l', block.Tree(), block.Index()}, func() []lenCheckIf {
		var out []lenCheckIf
		for s := range block.Children() {
			if s.Kind() != "if_statement" {
				continue
			}
			cond := Condition(s)
			if !cond.Valid() {
				continue
			}
			t := strings.Join(strings.Fields(cond.Text()), "")
			if strings.Contains(t, "strlen(") && strings.ContainsAny(t, "<>") {
				out = append(out, lenCheckIf{s.Start(), t})
			}
		}
		return out
	})
}

// earlierLenCheck reports whether an if statement of block before stmt
// compares needle (strlen(…) without blanks): the index's answer to the
// walk over stmt's previous siblings in lengthChecked.
func earlierLenCheck(p *checkers.Pass, block, stmt syntax.Node, needle string) bool {
	for _, c := range lenCheckIfs(p, block) {
		if c.start >= stmt.Start() {
			break
		}
		if strings.Contains(c.cond, needle) {
			return true
		}
	}
	return false
}

// guardStmt is a statement of a block that may guard a later call in
// bufGuardedBy: an if statement whose condition holds an ordering
// comparison, or an assertion call statement whose arguments do. what is
// the node bufGuardedBy asks (the condition or the arguments).
type guardStmt struct {
	start int
	what  syntax.Node
}

// guardStmts returns the guardStmts among the children of block, in source
// order; found once per block.
func guardStmts(p *checkers.Pass, block syntax.Node) []guardStmt {
	return checkers.Memo(p, guardKey{'g', block.Tree(), block.Index()}, func() []guardStmt {
		var out []guardStmt
		for st := range block.Children() {
			var what syntax.Node
			switch st.Kind() {
			case "if_statement":
				what = st.Field("condition")
			case "expression_statement":
				if c := Uncast(st.NamedChild(0)); c.Kind() == "call_expression" && strings.Contains(strings.ToLower(CalleeName(c)), "assert") {
					what = c.Field("arguments")
				}
			}
			if what.Valid() && holdsOrdering(what) {
				out = append(out, guardStmt{st.Start(), what})
			}
		}
		return out
	})
}

// holdsOrdering reports whether n holds a binary < <= > >= comparison:
// without one, bufGuardedBy's guards finds nothing in n.
func holdsOrdering(n syntax.Node) bool {
	found := false
	n.Walk(func(m syntax.Node) bool {
		if !found && m.Kind() == "binary_expression" && bufOrdering(BinaryOp(m)) {
			found = true
		}
		return !found
	})
	return found
}

// rangeChecks returns, for a function body, the starts of its binary
// < <= > >= comparisons (in source order) by the identifiers their left
// and right operands mention; found once per body.
func rangeChecks(p *checkers.Pass, body syntax.Node) map[string][]int {
	return checkers.Memo(p, guardKey{'r', body.Tree(), body.Index()}, func() map[string][]int {
		idx := map[string][]int{}
		body.Walk(func(m syntax.Node) bool {
			if !inIsOrderCmp(m) {
				return true
			}
			seen := map[string]bool{}
			for _, side := range []syntax.Node{m.Field("left"), m.Field("right")} {
				side.Walk(func(id syntax.Node) bool {
					if id.Kind() == "identifier" && !seen[id.Text()] {
						seen[id.Text()] = true
						idx[id.Text()] = append(idx[id.Text()], m.Start())
					}
					return true
				})
			}
			return true
		})
		return idx
	})
}

// rangeCheckedAfterIndexed is inRangeCheckedAfter's answer from the body's
// rangeChecks: a comparison mentioning name that starts after n ends.
func rangeCheckedAfterIndexed(p *checkers.Pass, body, n syntax.Node, name string) bool {
	starts := rangeChecks(p, body)[name]
	i := sort.SearchInts(starts, n.End()+1)
	return i < len(starts)
}

// spanHolders returns, for a function, the names assigned a value that
// takes the length of a path (l = strlen(src) + 1: "src" -> {l}), by that
// path; found once per function. bufSrcLenGuarded asks Reaching only
// about those names.
func spanHolders(p *checkers.Pass, fn syntax.Node, defs *DefIndex) map[string]map[string]bool {
	return checkers.Memo(p, guardKey{'s', fn.Tree(), fn.Index()}, func() map[string]map[string]bool {
		out := map[string]map[string]bool{}
		for name, ds := range defs.byName {
			for _, d := range ds {
				if d.Kind != DefAssign || !d.Value.Valid() {
					continue
				}
				d.Value.Walk(func(n syntax.Node) bool {
					if n.Kind() == "call_expression" && bufSpanCalls[CalleeName(n)] {
						if path := PathOf(Arg(n, 0)); path != "" {
							if out[path] == nil {
								out[path] = map[string]bool{}
							}
							out[path][name] = true
						}
					}
					return true
				})
			}
		}
		return out
	})
}
