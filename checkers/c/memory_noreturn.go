package c

import "github.com/jsec/jsec/checkers"

// memFileNoReturn returns the functions defined in the file whose every
// path ends in a call that does not return (memNoReturn): a body with no
// return statement whose last statement, at its top level, is such a
// call, as in
//
//	static void fatalError(const char *zFormat, ...){
//	  ...
//	  exit(1);
//	}
//
// The state walk ends a path at a call of one, as at exit(): without it,
// every "free(p); fatalError(...)" looked like a path that goes on (a
// double free and uses after free on the next round of a loop). Bodies
// with preprocessor directives are left out (the last statement may be
// compiled out), and so are names defined twice. Computed once per file.
func memFileNoReturn(lx *checkers.Lexed) map[string]bool {
	return checkers.Memoize(lx, memFileNoReturnSlot, func() map[string]bool {
		out := map[string]bool{}
		seen := map[string]int{}
		for it := range lx.Items {
			name, ok := memNoReturnBody(lx, it)
			if name == "" {
				continue
			}
			seen[name]++
			if ok {
				out[name] = true
			}
		}
		for name := range out {
			if seen[name] > 1 {
				delete(out, name)
			}
		}
		return out
	})
}

var memFileNoReturnSlot = checkers.NewMemoSlot()

// memNoReturnBody returns the name of the function item it defines (""
// when it is none) and whether its body ends every path in a call of
// memNoReturn.
func memNoReturnBody(lx *checkers.Lexed, it int) (string, bool) {
	m := memLexOf(lx, it)
	open := m.funcBody()
	if open < 0 || !m.is(open-1, ")") {
		return "", false
	}
	po := lx.Open(open - 1)
	if po <= m.lo || !m.ident(po-1) {
		return "", false
	}
	name := m.text(po - 1)
	closeTok := m.closeOf(open)
	if closeTok < 0 || closeTok+1 != m.hi && !m.is(closeTok+1, ";") {
		return name, false
	}
	// The last statement: "callee ( … ) ;" right before the closing brace.
	semi := closeTok - 1
	if !m.is(semi, ";") || !m.is(semi-1, ")") {
		return name, false
	}
	co := lx.Open(semi - 1)
	if co <= open+1 || !m.ident(co-1) || !memNoReturn[m.text(co-1)] {
		return name, false
	}
	if p := m.p1(co - 2); p != ';' && p != '{' && p != '}' {
		return name, false // if (x) exit(1); or a call inside an expression
	}
	for k := open + 1; k < closeTok; k++ {
		if lx.Kind(k) == checkers.TokPreproc || m.is(k, "return") {
			return name, false
		}
	}
	return name, true
}
