package c

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"

	"github.com/jsec/jsec/checkers"
	"github.com/jsec/jsec/checkers/syntax"
)

// This file holds what the exec and files families share: token-level
// triage of calls, where a command or path comes from (Trace plus the
// wrappers Trace does not see through), and how strongly each kind of
// input counts as attacker-controlled.

// exCallArgs returns the argument token spans of the call whose callee is
// token tok. ok is false when the token is certainly not called: a member
// (s.system, s->open), or a name not followed by "(". A parenthesized
// callee, "(system)(cmd)", is reported as called with unknown arguments.
func exCallArgs(lx *checkers.Lexed, tok int) (args []checkers.Span, known, ok bool) {
	if lx.Is(tok-1, ".") || lx.Is(tok-1, "->") {
		return nil, false, false
	}
	if lx.Is(tok-1, "(") && lx.Is(tok+1, ")") {
		return nil, false, true
	}
	args, ok = lx.CallArgs(tok)
	return args, ok, ok
}

// exTokLiteral reports whether the tokens of span are a string literal or
// a concatenation of literals and macros ("a" "b", "x" PRIu64).
func exTokLiteral(lx *checkers.Lexed, s checkers.Span) bool {
	str := false
	for i := s.Start; i < s.End; i++ {
		switch lx.Kind(i) {
		case checkers.TokString:
			str = true
		case checkers.TokIdent:
			if lx.Is(i+1, "(") {
				return false
			}
		default:
			return false
		}
	}
	return str
}

// exTriageArg keeps a call unless argument i is certainly a literal (or
// the call has fewer arguments, or the name is not called at all).
func exTriageArg(i int) func(lx *checkers.Lexed, tok int) bool {
	return func(lx *checkers.Lexed, tok int) bool {
		args, known, ok := exCallArgs(lx, tok)
		if !ok {
			return false
		}
		if !known {
			return true
		}
		return i < len(args) && !exTokLiteral(lx, args[i])
	}
}

// exInputCall reports whether w names a call that returns or fills
// program input (Trace's sources).
func exInputCall(w string) bool {
	if externalReturns[w] {
		return true
	}
	_, ok := externalFills[w]
	return ok
}

// exCGIVars are environment variables a web server fills from the
// request: reading them is reading the network.
var exCGIVars = []string{"QUERY_STRING", "PATH_INFO", "PATH_TRANSLATED", "REQUEST_URI", "HTTP_", "CONTENT_", "SCRIPT_NAME", "REMOTE_USER", "DOCUMENT_URI"}

// exCGIName reports whether an environment variable's name is a CGI one.
func exCGIName(name string) bool {
	for _, v := range exCGIVars {
		if strings.HasPrefix(name, v) {
			return true
		}
	}
	return false
}

// exItemInputs reports which program input the item holding token tok
// may read before tok (Trace only follows definitions that come first):
// local input is argv in main, optarg and non-CGI environment variables;
// remote input is every other source of Trace (reads, receives, CGI
// variables). A rule that needs OriginExternal can skip the item, and its
// parse, when neither is found.
func exItemInputs(lx *checkers.Lexed, tok int) (local, remote bool) {
	from := exFuncStart(lx, tok)
	if from < 0 {
		return true, true
	}
	f := exFacts(lx, from)
	return f.local < tok, f.remote < tok
}

// exFromFacts are where, scanning from a function's first token, the
// questions of exItemInputs and exItemBuilds first get a yes (the token
// index; an int past the item when never): each answer only turns from no
// to yes along the way, so one pass per function answers them for every
// call in it. (A pass per call was quadratic in a function with
// thousands of them.)
type exFromFacts struct{ local, remote, builds int }

var exFactsSlot = checkers.NewMemoSlot()

// exFacts returns the exFromFacts of the function starting at token from,
// found once per function.
func exFacts(lx *checkers.Lexed, from int) exFromFacts {
	it := lx.ItemOf(from)
	byFrom := checkers.ItemMemo(lx, exFactsSlot, it, func() map[int]exFromFacts { return map[int]exFromFacts{} })
	if f, ok := byFrom[from]; ok {
		return f
	}
	end := lx.Items[it].TokEnd
	never := len(lx.Tokens) + 1
	f := exFromFacts{local: never, remote: never, builds: never}
	mainFn := false
	for i := from; i < end; i++ {
		switch lx.Tokens[i].Kind {
		case checkers.TokIdent:
		case checkers.TokString:
			if f.builds == never && (lx.Is(i-1, "+") || lx.Is(i+1, "+")) {
				f.builds = i
			}
			continue
		default:
			continue
		}
		if !exFactsWords().MayHave(lx, i) {
			continue // none of the words below: most identifiers
		}
		w := lx.Text(i)
		if _, ok := exBuilders[w]; ok && f.builds == never && lx.Is(i+1, "(") {
			f.builds = i
		}
		switch {
		case w == "optarg":
			f.local = min(f.local, i)
		case (w == "main" || w == "wmain") && lx.Is(i+1, "("):
			mainFn = true
		case w == "argv":
			if mainFn {
				f.local = min(f.local, i)
			}
		case exInputCall(w) && lx.Is(i+1, "("):
			if !externalReturns[w] || !lx.Is(i+3, ")") || lx.Kind(i+2) != checkers.TokString || exCGIName(strings.Trim(lx.Text(i+2), `"`)) {
				f.remote = min(f.remote, i)
			} else {
				f.local = min(f.local, i)
			}
		}
	}
	byFrom[from] = f
	return f
}

// exFactsWords are the words exFacts looks for.
var exFactsWords = sync.OnceValue(func() *checkers.WordSet {
	return checkers.NewWordSet(slices.Collect(maps.Keys(exBuilders)), slices.Collect(maps.Keys(externalReturns)),
		slices.Collect(maps.Keys(externalFills)), []string{"optarg", "main", "wmain", "argv"})
})

// exBlockKeywords introduce a parenthesized header before a block that is
// not a function body.
var exBlockKeywords = map[string]bool{"if": true, "for": true, "while": true, "switch": true, "catch": true, "__try": true}

// exFuncStart returns the token where the function holding tok begins
// (its name), so that token scans stay inside one function of a C++ class
// or namespace item; -1 outside any item.
func exFuncStart(lx *checkers.Lexed, tok int) int {
	start, _ := exFuncSpan(lx, tok)
	return start
}

// exFuncSpan returns the token range [start, end) of the function that
// holds tok, from its name to its closing brace, or the item's range when
// the function cannot be told; -1, -1 outside any item.
func exFuncSpan(lx *checkers.Lexed, tok int) (start, end int) {
	it := lx.ItemOf(tok)
	if it < 0 {
		return -1, -1
	}
	start, end = lx.Items[it].TokStart, lx.Items[it].TokEnd
	enc := exEnclosing(lx, it)
	// The innermost "{" before tok that no "}" before tok closes, then the
	// one around it, and so on: the braces a scan back from tok counting
	// "}" and "{" stops at.
	for i := int(enc[tok-start]); i > start; i = int(enc[i-start]) {
		j := i - 1
		for j > start && lx.Kind(j) == checkers.TokIdent && (lx.Is(j, "const") || lx.Is(j, "override") || lx.Is(j, "noexcept") || lx.Is(j, "final") || lx.Is(j, "mutable")) {
			j--
		}
		if !lx.Is(j, ")") {
			return start, end // a class, namespace, initializer or else block: give up
		}
		open := exOpenParen(lx, j, start)
		if open <= start {
			return start, end
		}
		if lx.Kind(open-1) == checkers.TokIdent && !exBlockKeywords[lx.Text(open-1)] || lx.Is(open-1, "]") {
			if c := lx.Close(i); c > 0 && c < end {
				end = c + 1
			}
			return open - 1, end // a function (from its name) or lambda body
		}
	}
	return start, end
}

var exEnclosingSlot = checkers.NewMemoSlot()

// exEnclosing returns, for each token of item it (indexed from the item's
// first token), the innermost "{" after the item's first token and before
// that token which no "}" before it closes (-1 when none): where a scan
// back from the token, counting braces, stops. Found once per item: such a
// scan per call was quadratic in a long function.
func exEnclosing(lx *checkers.Lexed, it int) []int32 {
	return checkers.ItemMemo(lx, exEnclosingSlot, it, func() []int32 {
		start, end := lx.Items[it].TokStart, lx.Items[it].TokEnd
		enc := make([]int32, end-start)
		var open []int32
		for k := start; k < end; k++ {
			enc[k-start] = -1
			if n := len(open); n > 0 {
				enc[k-start] = open[n-1]
			}
			switch {
			case k > start && lx.Is(k, "{"):
				open = append(open, int32(k))
			case lx.Is(k, "}") && len(open) > 0:
				open = open[:len(open)-1]
			}
		}
		return enc
	})
}

// exOpenParen returns the "(" that the ")" at token j closes, scanning
// back no further than start; -1 when not found.
func exOpenParen(lx *checkers.Lexed, j, start int) int {
	depth := 0
	for k := j; k >= start; k-- {
		switch {
		case lx.Is(k, ")"):
			depth++
		case lx.Is(k, "("):
			depth--
			if depth == 0 {
				return k
			}
		}
	}
	return -1
}

// exItemBuilds reports whether the item holding token tok calls a string
// builder or concatenates a string literal with "+".
func exItemBuilds(lx *checkers.Lexed, tok int) bool {
	from := exFuncStart(lx, tok)
	if from < 0 {
		return true
	}
	return exFacts(lx, from).builds < tok
}

// exLiteralish reports whether e is a literal for the purpose of command
// and path rules: a string or character literal, a number, NULL, or a
// TEXT()/_T() wrapper around a literal.
func exLiteralish(e syntax.Node) bool {
	e = Uncast(e)
	switch e.Kind() {
	case "string_literal", "concatenated_string", "raw_string_literal", "char_literal", "number_literal",
		"null", "nullptr", "true", "false":
		return true
	case "identifier":
		return e.Text() == "NULL"
	case "call_expression":
		switch CalleeName(e) {
		case "TEXT", "_T", "_TEXT", "__T", "L", "QStringLiteral", "u8":
			return len(Args(e)) == 1 && exLiteralish(Arg(e, 0))
		}
	}
	return false
}

// exOrigin says where e comes from: Trace, plus literal wrappers (_T("x")),
// C++ string accessors (s.c_str(), s.data()) and variables whose every
// reaching value is such a literal.
func exOrigin(p *checkers.Pass, e syntax.Node) Source {
	e = Uncast(e)
	if exLiteralish(e) {
		return Source{Origin: OriginLiteral}
	}
	if recv, ok := exStringAccessor(e); ok {
		return exOrigin(p, recv)
	}
	if e.Kind() == "conditional_expression" {
		return exOrigin(p, e.Field("consequence")).max(exOrigin(p, e.Field("alternative")))
	}
	src := Trace(p, e)
	fn := EnclosingFunction(e)
	if e.Kind() != "identifier" || !fn.Valid() || src.Origin != OriginUnknown && src.Origin != OriginLiteral {
		return src
	}
	v := FuncScope(p, fn).Lookup(e.Text(), e)
	defs := Defs(p, fn).Reaching(e.Text(), e)
	if src.Origin == OriginLiteral {
		if v != nil && v.IsArray() && !v.Init.Valid() && exElementDefsOnly(defs) && exFilledByCall(p, fn, e) {
			return Source{Origin: OriginUnknown} // written by a call Trace does not know
		}
		return src
	}
	if v == nil && exMacroName(e.Text()) {
		return Source{Origin: OriginLiteral} // a constant macro such as SHELL_PATH
	}
	if ctor := exCtorOrigin(p, defs); ctor.Origin != OriginUnknown {
		return ctor
	}
	if len(defs) == 0 {
		if v != nil && v.Init.Valid() && exLiteralish(v.Init) {
			return Source{Origin: OriginLiteral}
		}
		return src
	}
	for _, d := range defs {
		if d.Kind != DefAssign || !exLiteralish(d.Value) {
			return src
		}
	}
	return Source{Origin: OriginLiteral}
}

// exMacroName reports whether a name is written like a constant macro:
// upper case, digits and underscores, with at least two letters.
func exMacroName(s string) bool {
	letters := 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= 'A' && c <= 'Z':
			letters++
		case c == '_' || c >= '0' && c <= '9':
		default:
			return false
		}
	}
	return letters >= 2
}

// exElementDefsOnly reports whether every definition only sets one
// element (buf[0] = '\0'), which leaves the rest of an array as it was.
func exElementDefsOnly(defs []Def) bool {
	for _, d := range defs {
		if d.Kind != DefAssign || d.Node.Kind() != "assignment_expression" || Uncast(d.Node.Field("left")).Kind() != "subscript_expression" {
			return false
		}
	}
	return true
}

// exFilledByCall reports whether the array e names is passed to a call
// before e (which may write it: realpath(in, out), read_name(fd, buf)).
func exFilledByCall(p *checkers.Pass, fn, e syntax.Node) bool {
	for _, c := range exCalls(p, fn) {
		if c.Start() > e.Start() {
			break
		}
		if c.End() > e.Start() {
			continue
		}
		for _, a := range Args(c) {
			if Ident(a) == e.Text() {
				return true
			}
		}
	}
	return false
}

// exCtorOrigin traces C++ constructor definitions, std::string s(buf, n):
// the value comes from the constructor's arguments.
func exCtorOrigin(p *checkers.Pass, defs []Def) Source {
	res := Source{Origin: OriginUnknown}
	found := false
	for _, d := range defs {
		if d.Kind != DefAssign || !d.Value.Is("argument_list", "initializer_list") {
			return Source{Origin: OriginUnknown}
		}
		for c := range d.Value.NamedChildren() {
			if c.Kind() == "comment" {
				continue
			}
			if src := exOrigin(p, c); !found || src.Origin > res.Origin {
				res, found = src, true
			}
		}
	}
	return res
}

// exStringAccessor returns s for s.c_str(), s.data(), s.str(), s->c_str().
func exStringAccessor(e syntax.Node) (syntax.Node, bool) {
	if e.Kind() != "call_expression" || len(Args(e)) != 0 {
		return syntax.Node{}, false
	}
	f := e.Field("function")
	if f.Kind() != "field_expression" {
		return syntax.Node{}, false
	}
	switch f.Field("field").Text() {
	case "c_str", "data", "str", "toStdString", "toUtf8", "constData":
		return f.Field("argument"), true
	}
	return syntax.Node{}, false
}

// exInput classifies an external origin by how much an attacker usually
// controls it.
type exInput int

const (
	exInputLocal   exInput = iota // argv, optarg, the environment: the invoking user
	exInputStream                 // stdin, files, terminals
	exInputNetwork                // sockets and TLS streams
)

// exInputKind classifies s (which must be OriginExternal) from its What.
// CGI environment variables (QUERY_STRING, HTTP_*) count as network input.
func exInputKind(s Source) exInput {
	w := strings.TrimLeft(s.What, "*&(")
	switch {
	case strings.HasPrefix(w, "argv"), w == "optarg":
		return exInputLocal
	case strings.Contains(w, "getenv("):
		if _, name, ok := strings.Cut(w, `("`); ok && exCGIName(name) {
			return exInputNetwork
		}
		return exInputLocal
	case strings.HasPrefix(w, "recv"), strings.HasPrefix(w, "SSL_read"), strings.HasPrefix(w, "BIO_read"):
		return exInputNetwork
	}
	return exInputStream
}

// exOriginAdjust is the confidence adjustment for a value of origin s in a
// rule that also reports non-external values.
func exOriginAdjust(s Source) float64 {
	switch s.Origin {
	case OriginExternal:
		return 0.15
	case OriginParam:
		return -0.15
	case OriginUnknown:
		return -0.25
	}
	return 0
}

// exDescribe renders a value and its origin for a message:
// "'cmd' (from argv[1])", "'argv[1]' (a command-line argument)",
// "'name' (a parameter)".
func exDescribe(e syntax.Node, s Source) string {
	text := shortText(e)
	switch s.Origin {
	case OriginExternal:
		if s.What != "" && s.What != text {
			return fmt.Sprintf("'%s' (from %s)", text, s.What)
		}
		switch {
		case strings.HasPrefix(s.What, "argv"), s.What == "optarg":
			return fmt.Sprintf("'%s' (a command-line argument)", text)
		case strings.Contains(s.What, "getenv("):
			return fmt.Sprintf("'%s' (the environment)", text)
		}
		return fmt.Sprintf("'%s' (program input)", text)
	case OriginParam:
		if s.What != "" && s.What != "parameter '"+text+"'" {
			return fmt.Sprintf("'%s' (from %s)", text, s.What)
		}
		return fmt.Sprintf("'%s' (a parameter)", text)
	}
	return fmt.Sprintf("'%s'", text)
}

// exLine returns the 1-based line of byte offset off.
func exLine(p *checkers.Pass, off int) int { return p.File.Lines().Line(off) }

// exCalls lists the calls in fn's body in source order, skipping nested
// lambdas, computed once per function.
func exCalls(p *checkers.Pass, fn syntax.Node) []syntax.Node {
	type key struct{ fn int }
	return checkers.Memo(p, key{fn.Index()}, func() []syntax.Node {
		var out []syntax.Node
		fn.Field("body").Walk(func(n syntax.Node) bool {
			switch n.Kind() {
			case "call_expression":
				out = append(out, n)
			case "lambda_expression":
				return false
			}
			return true
		})
		return out
	})
}

// exSamePath reports whether a and b name the same storage: equal paths
// (p, s->name, argv[1]) or, for other expressions, equal text without
// spaces.
func exSamePath(a, b syntax.Node) bool {
	pa, pb := PathOf(a), PathOf(b)
	if pa != "" || pb != "" {
		return pa == pb
	}
	ta := strings.Join(strings.Fields(Uncast(a).Text()), "")
	tb := strings.Join(strings.Fields(Uncast(b).Text()), "")
	return ta != "" && ta == tb
}
