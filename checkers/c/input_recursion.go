package c

import (
	"fmt"
	"strings"

	"github.com/jsec/jsec/checkers"
	"github.com/jsec/jsec/checkers/syntax"
)

// Recursion is found from tokens: the first "return" of a function item
// wakes the rule when the function's name is called in its own body.
// Almost every recursive walker has a base case that returns; those that
// do not are missed.

// triageRecursion keeps the first "return" of a function item whose name
// is called inside its body.
func triageRecursion(lx *checkers.Lexed, tok int) bool {
	it := lx.ItemOf(tok)
	if it < 0 {
		return false
	}
	r := checkers.ItemMemo(lx, recItemSlot, it, func() recItem { return recScanItem(lx, lx.Items[it]) })
	if r.bodyEnd > 0 && tok <= r.bodyEnd {
		if r.firstReturn >= 0 && r.firstReturn < tok {
			return false // an earlier return decided
		}
		return r.recursive
	}
	// The item holds more than one function (the methods of a C++ class,
	// merged #if branches): decide for the function around tok.
	return recTriageInner(lx, lx.Items[it], tok)
}

// recTriageInner decides for a return at tok inside an item that is not
// one function: the function body around it is found from tokens; when
// it cannot be, the return is kept.
func recTriageInner(lx *checkers.Lexed, item checkers.Item, tok int) bool {
	open, name := -1, ""
	for j := tok - 1; j > item.TokStart && open < 0; j-- {
		switch {
		case lx.Is(j, "}"):
			if o := lx.Open(j); o >= item.TokStart {
				j = o
			}
		case lx.Is(j, "{") && lx.Close(j) > tok:
			k := j - 1
			for k > item.TokStart && (lx.Is(k, "const") || lx.Is(k, "override") || lx.Is(k, "final") || lx.Is(k, "noexcept") || lx.Is(k, "volatile")) {
				k--
			}
			if !lx.Is(k, ")") {
				continue // a block, a class body, a namespace
			}
			o := lx.Open(k)
			if o > item.TokStart && recOperator(lx, item, o) {
				return false // operator=(…): Check never matches a call to an operator by name
			}
			if o <= item.TokStart || lx.Kind(o-1) != checkers.TokIdent {
				return true // a lambda or something unusual
			}
			switch lx.Text(o - 1) {
			case "if", "while", "for", "switch", "catch":
				continue
			}
			open, name = j, lx.Text(o-1)
		}
	}
	if open < 0 {
		return true
	}
	closeTok := lx.Close(open)
	recursive := false
	for j := open + 1; j < closeTok; j++ {
		if lx.Kind(j) != checkers.TokIdent {
			continue
		}
		if j < tok && lx.Is(j, "return") {
			return false // an earlier return decided
		}
		if lx.Is(j, name) && lx.Is(j+1, "(") && !lx.Is(j-1, ".") && !lx.Is(j-1, "->") && recArgsMayWalk(lx, item, j) {
			recursive = true
		}
	}
	return recursive && !recTokDepthLimited(lx, open, closeTok)
}

// recOperator reports whether the parameter list opening at token o
// belongs to an operator function (operator=, operator(), operator[],
// operator<<, operator new …): "operator" within the three tokens before.
func recOperator(lx *checkers.Lexed, item checkers.Item, o int) bool {
	for k := o - 1; k >= o-3 && k > item.TokStart; k-- {
		if lx.Is(k, "operator") {
			return true
		}
	}
	return false
}

var recItemSlot = checkers.NewMemoSlot()

// recItem is what triage needs of an item, found once per item: its
// first return, the end of its function's body, and whether the body
// calls the function in a way Check may see as walking a structure.
type recItem struct {
	firstReturn, bodyEnd int
	recursive            bool
}

func recScanItem(lx *checkers.Lexed, item checkers.Item) recItem {
	r := recItem{firstReturn: -1}
	name, bodyStart := recItemFuncName(lx, item)
	if name == "" {
		return r
	}
	r.bodyEnd = lx.Close(bodyStart)
	if r.bodyEnd < 0 || r.bodyEnd > item.TokEnd {
		r.bodyEnd = item.TokEnd
	}
	for j := lx.Find(bodyStart, r.bodyEnd-1, name); j >= 0; j = lx.Find(j+1, r.bodyEnd-1, name) {
		if lx.Kind(j) == checkers.TokIdent && lx.Is(j+1, "(") &&
			!lx.Is(j-1, ".") && !lx.Is(j-1, "->") && recArgsMayWalk(lx, item, j) {
			r.recursive = true
			break
		}
	}
	if r.recursive && recTokDepthLimited(lx, bodyStart, r.bodyEnd) {
		r.recursive = false // Check finds the same depth limit (recDepthLimited)
	}
	// Only the first return of a recursive function is kept; otherwise
	// none is, wherever it is.
	for j := lx.Find(item.TokStart, item.TokEnd, "return"); r.recursive && j >= 0; j = lx.Find(j+1, item.TokEnd, "return") {
		if lx.Kind(j) == checkers.TokIdent {
			r.firstReturn = j
			break
		}
	}
	return r
}

// recTokDepthLimited reports a name that the body [from, to) counts
// (x++, --x, x += n) and that an if or while condition mentions: the
// depth limit recDepthLimited finds on the tree, seen from tokens (a
// subset of what it accepts).
func recTokDepthLimited(lx *checkers.Lexed, from, to int) bool {
	var counted map[string]bool
	for j := from; j < to; j++ {
		if lx.Kind(j) != checkers.TokIdent {
			continue
		}
		if lx.Is(j+1, "++") || lx.Is(j+1, "--") || lx.Is(j+1, "+=") || lx.Is(j+1, "-=") || lx.Is(j-1, "++") || lx.Is(j-1, "--") {
			if counted == nil {
				counted = map[string]bool{}
			}
			counted[lx.Text(j)] = true
		}
	}
	if counted == nil {
		return false
	}
	for j := from; j < to; j++ {
		if !(lx.Is(j, "if") || lx.Is(j, "while")) || !lx.Is(j+1, "(") {
			continue
		}
		c := lx.Close(j + 1)
		if c < 0 || c > to || lx.Is(j, "while") && lx.Is(c+1, ";") {
			continue // the while of a do-while: Check does not take its condition
		}
		for k := j + 2; k < c; k++ {
			if lx.Kind(k) == checkers.TokIdent && counted[lx.Text(k)] {
				return true
			}
		}
	}
	return false
}

// recArgsMayWalk reports whether a recursive call's arguments may be a
// part of a structure as Check sees it: they hold "->", ".", "[", "*",
// "+", "-" or "&", or a name that the item assigns (a local loaded from
// a field).
func recArgsMayWalk(lx *checkers.Lexed, item checkers.Item, callee int) bool {
	end := lx.Close(callee + 1)
	for j := callee + 2; j < end; j++ {
		switch lx.Text(j) {
		case "->", ".", "[", "*", "+", "-", "&":
			return true
		}
		if lx.Kind(j) != checkers.TokIdent {
			continue
		}
		name := lx.Text(j)
		for k := item.TokStart; k+1 < item.TokEnd; k++ {
			if lx.Is(k, name) && lx.Kind(k) == checkers.TokIdent && lx.Is(recPathEnd(lx, k), "=") {
				return true // name = …, and name->f = … (Check's definitions of name include field stores)
			}
		}
	}
	return false
}

// recPathEnd returns the token after the lvalue path that starts with the
// name at k: name, name->f, name.f[i]…
func recPathEnd(lx *checkers.Lexed, k int) int {
	j := k + 1
	for {
		switch {
		case (lx.Is(j, "->") || lx.Is(j, ".")) && lx.Kind(j+1) == checkers.TokIdent:
			j += 2
		case lx.Is(j, "["):
			c := lx.Close(j)
			if c < 0 {
				return j
			}
			j = c + 1
		default:
			return j
		}
	}
}

// recItemFuncName returns the name of the function an item defines and the
// token where its body starts, or "" when the item is not a function.
func recItemFuncName(lx *checkers.Lexed, item checkers.Item) (string, int) {
	for j := item.TokStart; j < item.TokEnd; j++ {
		switch {
		case lx.Is(j, "{"), lx.Is(j, ";"), lx.Is(j, "="):
			return "", 0
		case lx.Is(j, "(") && j > item.TokStart && lx.Kind(j-1) == checkers.TokIdent:
			end := lx.Close(j)
			if end < 0 || end >= item.TokEnd {
				return "", 0
			}
			for k := end + 1; k < item.TokEnd; k++ {
				if lx.Is(k, "{") {
					return lx.Text(j - 1), k
				}
				if lx.Is(k, ";") {
					return "", 0
				}
			}
			return "", 0
		}
	}
	return "", 0
}

// checkRecursion reports a function that calls itself on a part of what it
// walks (a field, an element, the rest of the input) with no depth counter
// that is compared.
func checkRecursion(p *checkers.Pass, h checkers.Hit) {
	fn := EnclosingFunction(h.Node)
	if !fn.Valid() {
		return
	}
	name := checkers.DeclaratorName(fn.Field("declarator"))
	if i := strings.LastIndex(name, "::"); i >= 0 {
		name = name[i+2:]
	}
	if name == "" {
		return
	}
	scope := FuncScope(p, fn)
	defs := Defs(p, fn)
	var rec syntax.Node
	var part syntax.Node
	var calls []syntax.Node
	fn.Field("body").Walk(func(n syntax.Node) bool {
		if n.Kind() == "lambda_expression" {
			return false
		}
		if n.Kind() == "call_expression" && CalleeName(n) == name && n.Field("function").Kind() != "field_expression" && recSameFunction(p, fn, n) {
			calls = append(calls, n)
			if !rec.Valid() {
				for _, a := range Args(n) {
					if recWalksInto(scope, defs, a) {
						rec, part = n, a
						break
					}
				}
			}
		}
		return true
	})
	if !rec.Valid() || recDepthLimited(fn, calls, scope) {
		return
	}
	p.Report(checkers.Finding{Rule: ruleUnboundRec, Span: checkers.NodeSpan(rec),
		Message: fmt.Sprintf("'%s' calls itself on '%s' with no depth limit: deeply nested or cyclic input exhausts the stack", name, shortText(part))})
}

// recSameFunction reports whether a call by the function's own name may
// call the function itself. In C++ it may not when the call names another
// scope (TcParser::FindFieldEntry inside a wrapper of the same name) or
// passes more arguments than a function without variadic parameters
// takes (an overload: get(key) calling get(key, end)). Fewer arguments
// prove nothing: the defaults may be declared in the class.
func recSameFunction(p *checkers.Pass, fn, call syntax.Node) bool {
	if p.File.Lang != "cpp" {
		return true
	}
	own := checkers.DeclaratorName(fn.Field("declarator"))
	qual := ""
	if i := strings.LastIndex(own, "::"); i >= 0 {
		qual = own[:i]
	} else if cls := fn.Ancestor("class_specifier"); cls.Valid() {
		qual = cls.Field("name").Text()
	} else if st := fn.Ancestor("struct_specifier"); st.Valid() {
		qual = st.Field("name").Text()
	}
	if f := Unparen(call.Field("function")); f.Kind() == "qualified_identifier" {
		callee := strings.Join(strings.Fields(f.Text()), "")
		if i := strings.LastIndex(callee, "::"); i < 0 || callee[:i] != qual {
			return false
		}
	}
	d := fn.Field("declarator")
	for d.Valid() && d.Kind() != "function_declarator" {
		d = d.Field("declarator")
	}
	params := d.Field("parameters")
	if !d.Valid() || !params.Valid() {
		return true
	}
	n := 0
	for c := range params.NamedChildren() {
		switch c.Kind() {
		case "optional_parameter_declaration", "variadic_parameter", "variadic_parameter_declaration":
			return true
		case "parameter_declaration":
			if strings.TrimSpace(c.Text()) == "void" {
				continue
			}
			n++
		case "comment":
		default:
			return true
		}
	}
	if strings.Contains(params.Text(), "...") {
		return true
	}
	if recOverloaded(fn, checkers.DeclaratorName(d.Field("declarator")), len(Args(call))) {
		return false // field_aux(entry) calling field_aux(idx): which one, only types tell
	}
	return len(Args(call)) <= n // fewer may be defaults declared elsewhere
}

// recOverloaded reports another function of the same name and arity
// declared beside fn (in its class or namespace body): a call by that name
// may mean either.
func recOverloaded(fn syntax.Node, name string, arity int) bool {
	if i := strings.LastIndex(name, "::"); i >= 0 {
		name = name[i+2:]
	}
	list := fn.Parent()
	if !list.Is("field_declaration_list", "declaration_list") {
		return false
	}
	for sib := range list.NamedChildren() {
		if sib == fn {
			continue
		}
		d := sib.Field("declarator")
		for d.Valid() && d.Kind() != "function_declarator" {
			d = d.Field("declarator")
		}
		if !d.Valid() || checkers.DeclaratorName(d.Field("declarator")) != name {
			continue
		}
		n := 0
		for c := range d.Field("parameters").NamedChildren() {
			if c.Kind() != "comment" && strings.TrimSpace(c.Text()) != "void" {
				n++
			}
		}
		if n == arity {
			return true
		}
	}
	return false
}

// recWalksInto reports whether a recursive call's argument is a part of a
// structure: a field or element (n->left, a[i]), a pointer advanced into
// its buffer (p + 1), or a local loaded from such a part.
func recWalksInto(s *Scope, defs *DefIndex, a syntax.Node) bool {
	if recIsPart(s, a) {
		return true
	}
	a = Uncast(a)
	if a.Kind() != "identifier" {
		return false
	}
	for _, d := range defs.All(a.Text()) {
		if d.Kind == DefAssign && recIsPart(s, d.Value) {
			return true
		}
	}
	return false
}

func recIsPart(s *Scope, a syntax.Node) bool {
	a = Uncast(a)
	switch a.Kind() {
	case "field_expression", "subscript_expression":
		return recLocalBase(s, a)
	case "pointer_expression":
		if a.FirstChild().Text() == "&" {
			return recIsPart(s, a.Field("argument"))
		}
		return recLocalBase(s, a)
	case "binary_expression":
		if op := BinaryOp(a); op != "+" && op != "-" {
			return false
		}
		pointers := 0
		for _, side := range []syntax.Node{a.Field("left"), a.Field("right")} {
			if id := Ident(side); id != "" {
				if v := s.Lookup(id, side); v != nil && (v.IsPointer() || v.IsArray()) {
					pointers++
				}
			}
		}
		return pointers == 1 // p + 1; end - start is a count
	}
	return false
}

// recLocalBase reports whether a[i], a->f or *a starts at a parameter or
// a local: a constant global table is not the data being walked.
func recLocalBase(s *Scope, a syntax.Node) bool {
	base := baseIdent(a)
	if !base.Valid() {
		return false
	}
	v := s.Lookup(base.Text(), base)
	return v != nil && !v.Global && !v.Static
}

// recDepthLimited reports whether something the function counts (an
// increment, a += or a "depth + 1" passed down) is also compared.
func recDepthLimited(fn syntax.Node, calls []syntax.Node, scope *Scope) bool {
	counted := map[string]bool{}
	compared := map[string]bool{}
	addPaths := func(set map[string]bool, n syntax.Node) {
		n.Walk(func(m syntax.Node) bool {
			if path := PathOf(m); path != "" {
				set[path] = true
			}
			return true
		})
	}
	fn.Field("body").Walk(func(n syntax.Node) bool {
		switch n.Kind() {
		case "update_expression":
			addPaths(counted, n.Field("argument"))
		case "assignment_expression":
			if op := BinaryOp(n); op == "+=" || op == "-=" {
				addPaths(counted, n.Field("left"))
			}
		case "binary_expression":
			switch BinaryOp(n) {
			case "<", "<=", ">", ">=", "==", "!=":
				addPaths(compared, n)
			}
		case "if_statement", "while_statement", "conditional_expression":
			addPaths(compared, Condition(n)) // if (!maxdepth) return;
		}
		return true
	})
	for _, c := range calls {
		for _, a := range Args(c) {
			a = Uncast(a)
			if a.Kind() == "binary_expression" && (BinaryOp(a) == "+" || BinaryOp(a) == "-") {
				l := a.Field("left")
				if v := scope.Lookup(Ident(l), l); v != nil && (v.IsPointer() || v.IsArray()) {
					continue // p + 1 walks the input, it counts nothing
				}
				if _, ok := IntValue(a.Field("right"), nil); ok {
					addPaths(counted, l)
				}
			}
		}
	}
	for k := range counted {
		if compared[k] {
			return true
		}
	}
	return false
}
