package c

import (
	"fmt"
	"sort"
	"strings"

	"github.com/jsec/jsec/checkers"
	"github.com/jsec/jsec/checkers/syntax"
)

// Format-string family: a format argument that is not a string literal
// lets whoever controls it read the stack (%x, %s) and write memory (%n).
// Rules are in rules/c_format.go.
const (
	ruleFormatPrintf = "c.format.printf"
	ruleFormatSyslog = "c.format.syslog"
	ruleFormatErr    = "c.format.err"
)

// fmtFunc describes a function that takes a format.
type fmtFunc struct {
	Idx  int    // the format argument
	Rule string // the rule that reports it
	// MinArgs is the fewest arguments of the intended signature; calls
	// with fewer are another function of the same name (error(3) takes
	// three, git's error() one).
	MinArgs int
	// IntFirst: the first argument is an integer (err's exit status,
	// error's status), never a string: a call whose first argument is a
	// string is another function of the same name.
	IntFirst bool
}

var fmtFuncs = map[string]fmtFunc{
	"printf": {0, ruleFormatPrintf, 1, false}, "fprintf": {1, ruleFormatPrintf, 2, false},
	"sprintf": {1, ruleFormatPrintf, 2, false}, "snprintf": {2, ruleFormatPrintf, 3, false},
	"dprintf": {1, ruleFormatPrintf, 2, false}, "asprintf": {1, ruleFormatPrintf, 2, false},
	"vprintf": {0, ruleFormatPrintf, 2, false}, "vfprintf": {1, ruleFormatPrintf, 3, false},
	"vsprintf": {1, ruleFormatPrintf, 3, false}, "vsnprintf": {2, ruleFormatPrintf, 4, false},
	"vdprintf": {1, ruleFormatPrintf, 3, false}, "vasprintf": {1, ruleFormatPrintf, 3, false},
	"wprintf": {0, ruleFormatPrintf, 1, false}, "fwprintf": {1, ruleFormatPrintf, 2, false},
	"swprintf": {2, ruleFormatPrintf, 3, false}, "vwprintf": {0, ruleFormatPrintf, 2, false},
	"vfwprintf": {1, ruleFormatPrintf, 3, false}, "vswprintf": {2, ruleFormatPrintf, 4, false},
	"syslog": {1, ruleFormatSyslog, 2, true}, "vsyslog": {1, ruleFormatSyslog, 3, true},
	"err": {1, ruleFormatErr, 2, true}, "errx": {1, ruleFormatErr, 2, true},
	"verr": {1, ruleFormatErr, 3, true}, "verrx": {1, ruleFormatErr, 3, true},
	"warn": {0, ruleFormatErr, 1, false}, "warnx": {0, ruleFormatErr, 1, false},
	"vwarn": {0, ruleFormatErr, 2, false}, "vwarnx": {0, ruleFormatErr, 2, false},
	"error": {2, ruleFormatErr, 3, true}, "error_at_line": {4, ruleFormatErr, 5, true},
}

// fmtI18n are translation wrappers: a literal inside one is still a
// literal format.
var fmtI18n = map[string]bool{
	"_": true, "N_": true, "gettext": true, "dgettext": true, "dcgettext": true, "ngettext": true,
	"dngettext": true, "pgettext": true, "C_": true, "Q_": true, "_T": true, "TEXT": true, "T_": true,
	"tr": true, "QT_TR_NOOP": true, "QT_TRANSLATE_NOOP": true, "_TEXT": true, "__T": true,
}

func fmtTriggers(rule string) []string {
	var out []string
	for name, f := range fmtFuncs {
		if f.Rule == rule {
			out = append(out, name)
		}
	}
	sort.Strings(out)
	return out
}

var formatCheckers = []*checkers.Checker{
	{Name: "c/format/printf", Rules: []string{ruleFormatPrintf}, Triggers: fmtTriggers(ruleFormatPrintf), Triage: fmtTriage, Check: checkFormat},
	{Name: "c/format/syslog", Rules: []string{ruleFormatSyslog}, Triggers: fmtTriggers(ruleFormatSyslog), Triage: fmtTriage, Check: checkFormat},
	{Name: "c/format/err", Rules: []string{ruleFormatErr}, Triggers: fmtTriggers(ruleFormatErr), Triage: fmtTriage, Check: checkFormat},
}

// fmtIndex returns the format argument's index for a call, handling the
// legacy swprintf(buf, fmt, ...) that has no size.
func fmtIndex(name string, f fmtFunc, literalSecond bool) int {
	if (name == "swprintf" || name == "vswprintf") && literalSecond {
		return 1
	}
	return f.Idx
}

// checkFormat flags a format argument that is not a literal.
func checkFormat(p *checkers.Pass, h checkers.Hit) {
	call, ok := CallAt(h)
	f, known := fmtFuncs[h.Word]
	if !ok || !known {
		return
	}
	args := Args(call)
	if len(args) < f.MinArgs {
		return
	}
	if f.IntFirst && (IsStringLiteral(args[0]) || fmtI18nCall(args[0])) {
		return // another function of the same name: git's error("...")
	}
	if f.Rule == ruleFormatErr && !fmtIncludes(p, h.Word) {
		return // without <err.h> / <error.h> the name is the project's own function
	}
	idx := fmtIndex(h.Word, f, len(args) > 1 && IsStringLiteral(args[1]))
	if idx >= len(args) {
		return
	}
	fa := args[idx]
	fn := EnclosingFunction(call)
	if !fn.Valid() {
		return
	}
	s := FuncScope(p, fn)
	if fmtIsLiteral(p, s, fa, 0) || fmtTokensLiteral(p.Lex, bufArgSpan(p.Lex, h.Tok, idx)) {
		return
	}
	src := Trace(p, fmtInner(fa))
	if src.Origin == OriginLiteral {
		return
	}
	values := len(args) > idx+1 && !strings.HasPrefix(h.Word, "v")
	switch {
	case src.Origin == OriginParam && fmtForwards(fn):
		return // a printf-like wrapper forwarding its own format: callers are checked
	case values && src.Origin != OriginExternal:
		// Values follow, so the string is meant to be a format: one
		// chosen from a table, built by the program, or passed by a
		// caller that is itself a format wrapper.
		return
	}
	adjust := 0.0
	text := shortText(fa)
	what := fmt.Sprintf("'%s'", text)
	switch {
	case src.Origin == OriginExternal && src.What == text:
		adjust, what = 0.1, what+" (program input)"
	case src.Origin == OriginExternal:
		adjust, what = 0.1, what+" (from "+src.What+")"
	case src.Origin == OriginParam && src.What == "parameter '"+text+"'":
		adjust, what = -0.05, what+" (a parameter)"
	case src.Origin == OriginParam:
		adjust, what = -0.05, what+" (from "+src.What+")"
	case src.Origin == OriginUnknown:
		adjust = -0.1
	}
	p.Report(checkers.Finding{Rule: f.Rule, Span: checkers.NodeSpan(call), Adjust: adjust,
		Message: fmt.Sprintf("%s uses %s as its format string: %%n and %%s directives in it would write and read memory", h.Word, what)})
}

// fmtTokensLiteral reports whether a span of tokens is a string literal
// concatenated with macros, macro calls and preprocessor lines:
// "usage: %s" LUA_QL("x") "\n", or "a" #ifdef X "b" #endif "c". The syntax
// tree cannot show these as literals.
func fmtTokensLiteral(lx *checkers.Lexed, sp checkers.Span) bool {
	for sp.End-sp.Start > 2 && lx.Kind(sp.Start) == checkers.TokIdent && fmtI18n[lx.Text(sp.Start)] && lx.Is(sp.Start+1, "(") && lx.Close(sp.Start+1) == sp.End-1 {
		sp = checkers.Span{Start: sp.Start + 2, End: sp.End - 1}
	}
	if sp.End <= sp.Start || lx.Kind(sp.Start) != checkers.TokString {
		return false
	}
	depth := 0
	for k := sp.Start; k < sp.End; k++ {
		switch lx.Kind(k) {
		case checkers.TokString, checkers.TokPreproc, checkers.TokIdent:
		case checkers.TokPunct:
			switch {
			case lx.Is(k, "(") && lx.Kind(k-1) == checkers.TokIdent:
				depth++
			case lx.Is(k, ")") && depth > 0:
				depth--
			case depth == 0:
				return false
			}
		default:
			if depth == 0 {
				return false
			}
		}
	}
	return depth == 0
}

type fmtIncludesKey struct{}

// fmtIncludes reports whether the file includes the header that declares
// the BSD err/warn family (<err.h>) or glibc's error (<error.h>).
func fmtIncludes(p *checkers.Pass, name string) bool {
	inc := checkers.Memo(p, fmtIncludesKey{}, func() [2]bool {
		var out [2]bool
		for _, i := range directiveToks(p.Lex) {
			t := p.Lex.Tokens[i]
			d, rest := directiveName(p.Lex.Src[t.Start:t.End])
			if d != "include" {
				continue
			}
			switch string(rest) {
			case "<err.h>":
				out[0] = true
			case "<error.h>":
				out[1] = true
			}
		}
		return out
	})
	if name == "error" || name == "error_at_line" {
		return inc[1]
	}
	return inc[0]
}

// fmtInner strips translation wrappers: _(msg) → msg.
func fmtInner(e syntax.Node) syntax.Node {
	e = Uncast(e)
	for fmtI18nCall(e) {
		inner := syntax.Node{}
		for _, a := range Args(e) {
			if k := Uncast(a).Kind(); k != "number_literal" {
				inner = a
				break
			}
		}
		if !inner.Valid() {
			return e
		}
		e = Uncast(inner)
	}
	return e
}

func fmtI18nCall(e syntax.Node) bool {
	e = Uncast(e)
	return e.Kind() == "call_expression" && fmtI18n[CalleeName(e)]
}

// fmtIsLiteral reports whether a format expression can only be a literal:
// a string literal, a translation wrapper around literals, a conditional
// between literals, a string macro, a constant whose every reaching
// definition is one, or an element of an array of literals.
func fmtIsLiteral(p *checkers.Pass, s *Scope, e syntax.Node, depth int) bool {
	e = Uncast(e)
	if depth > 6 || !e.Valid() {
		return false
	}
	if IsStringLiteral(e) {
		return true
	}
	switch e.Kind() {
	case "number_literal", "null", "nullptr":
		return true
	case "conditional_expression":
		return fmtIsLiteral(p, s, e.Field("consequence"), depth+1) && fmtIsLiteral(p, s, e.Field("alternative"), depth+1)
	case "call_expression":
		if !fmtI18nCall(e) {
			return false
		}
		for _, a := range Args(e) {
			if !fmtIsLiteral(p, s, a, depth+1) {
				return false
			}
		}
		return true
	case "identifier":
		return fmtIdentLiteral(p, s, e, depth)
	case "subscript_expression":
		arr := Uncast(e.Field("argument"))
		if arr.Kind() != "identifier" {
			return false
		}
		v := s.Lookup(arr.Text(), arr)
		if v != nil && v.Decl.Valid() {
			return v.Init.Kind() == "initializer_list" && fmtAllLiteral(p, s, v.Init, depth)
		}
		return v != nil && fmtConstGlobal(p, arr.Text())
	}
	return false
}

func fmtAllLiteral(p *checkers.Pass, s *Scope, list syntax.Node, depth int) bool {
	n := 0
	for c := range list.NamedChildren() {
		if c.Kind() == "comment" {
			continue
		}
		if c.Kind() == "initializer_list" {
			if !fmtAllLiteral(p, s, c, depth+1) {
				return false
			}
		} else if !fmtIsLiteral(p, s, c, depth+1) {
			return false
		}
		n++
	}
	return n > 0
}

// fmtIdentLiteral judges a name used as a format.
func fmtIdentLiteral(p *checkers.Pass, s *Scope, e syntax.Node, depth int) bool {
	name := e.Text()
	if fmtStringMacros(p)[name] {
		return true
	}
	v := s.Lookup(name, e)
	if v == nil {
		// Not declared here: a macro from a header (spelled like one).
		return bufMacroName(name)
	}
	if v.Param {
		return false
	}
	if v.Global && !v.Decl.Valid() {
		return fmtConstGlobal(p, name)
	}
	defs := Defs(p, EnclosingFunction(e)).Reaching(name, e)
	if len(defs) == 0 {
		return v.Init.Valid() && fmtIsLiteral(p, s, v.Init, depth+1)
	}
	for _, d := range defs {
		if d.Kind != DefAssign || !fmtIsLiteral(p, s, d.Value, depth+1) {
			return false
		}
	}
	return true
}

type fmtMacrosKey struct{}

// fmtStringMacros returns the file's macros defined as a string literal:
// #define USAGE "usage: %s\n".
func fmtStringMacros(p *checkers.Pass) map[string]bool {
	return checkers.Memo(p, fmtMacrosKey{}, func() map[string]bool {
		out := map[string]bool{}
		lx := p.Lex
		for _, i := range directiveToks(lx) {
			t := lx.Tokens[i]
			// rest has its blanks removed: "USAGE\"usage: %s\"" → USAGE"usage:%s".
			name, rest := directiveName(lx.Src[t.Start:t.End])
			if name != "define" {
				continue
			}
			j := 0
			for j < len(rest) && IdentByte(rest[j]) {
				j++
			}
			if j > 0 && j < len(rest) && rest[j] == '"' {
				out[string(rest[:j])] = true
			}
		}
		return out
	})
}

type fmtGlobalsKey struct{}

// fmtConstGlobal reports whether a file-scope variable is declared const
// and initialised with string literals only: static const char fmt[] =
// "…", static const char *const msgs[] = {"…", "…"}.
func fmtConstGlobal(p *checkers.Pass, name string) bool {
	consts := checkers.Memo(p, fmtGlobalsKey{}, func() map[string]bool {
		out := map[string]bool{}
		lx := p.Lex
		for _, it := range lx.Items {
			isConst := false
			for k := it.TokStart; k < it.TokEnd; k++ {
				if lx.Is(k, "(") && k > it.TokStart && lx.Kind(k-1) == checkers.TokIdent && !isConst {
					break // a function
				}
				if lx.Is(k, "const") {
					isConst = true
				}
				if !lx.Is(k, "=") || !isConst {
					continue
				}
				j := k - 1
				for j > it.TokStart && (lx.Is(j, "]") || lx.Is(j, "[") || lx.Kind(j) == checkers.TokNumber) {
					j--
				}
				if lx.Kind(j) != checkers.TokIdent {
					continue
				}
				out[lx.Text(j)] = fmtOnlyStrings(lx, k+1, it.TokEnd)
			}
		}
		return out
	})
	return consts[name]
}

// fmtOnlyStrings reports whether an initializer (tokens from k to the
// next ';' or top-level ',') holds only string literals and braces.
func fmtOnlyStrings(lx *checkers.Lexed, k, end int) bool {
	depth, n := 0, 0
	for ; k < end; k++ {
		switch {
		case lx.Is(k, "{"):
			depth++
		case lx.Is(k, "}"):
			depth--
		case lx.Is(k, ","):
			if depth == 0 {
				return n > 0
			}
		case lx.Is(k, ";"):
			return n > 0
		case lx.Kind(k) == checkers.TokString:
			n++
		case lx.Is(k, "(") || lx.Is(k, ")"):
		case lx.Kind(k) == checkers.TokIdent && (lx.Is(k, "NULL") || fmtI18n[lx.Text(k)] || bufMacroName(lx.Text(k))):
		default:
			return false
		}
	}
	return n > 0
}

// fmtForwards reports whether fn is a printf-like wrapper: it takes a
// variable argument list ("...") or a va_list.
func fmtForwards(fn syntax.Node) bool {
	params := fnDeclarator(fn).Field("parameters")
	for pd := range params.NamedChildren() {
		switch pd.Kind() {
		case "variadic_parameter":
			return true
		case "parameter_declaration":
			if t := pd.Field("type").Text(); strings.HasSuffix(t, "va_list") {
				return true // va_list, std::va_list, __gnuc_va_list, __builtin_va_list
			}
		}
	}
	for c := range params.Children() {
		if c.Text() == "..." {
			return true
		}
	}
	return false
}

// fmtTriage skips calls whose format argument is a string literal, a
// concatenation of literals and macros, or a translation wrapper around
// one: the common case.
func fmtTriage(lx *checkers.Lexed, tok int) bool {
	name := lx.Text(tok)
	f, known := fmtFuncs[name]
	args, ok := bufTokArgs(lx, tok)
	if !known || !ok || len(args) < f.MinArgs {
		return false
	}
	if f.IntFirst && (lx.Kind(args[0].Start) == checkers.TokString || fmtI18n[lx.Text(args[0].Start)] && lx.Is(args[0].Start+1, "(")) {
		return false // another function of the same name
	}
	if f.Rule == ruleFormatErr && !bufFileMacros(lx).errHeader(name) {
		return false
	}
	idx := fmtIndex(name, f, len(args) > 1 && lx.Kind(args[1].Start) == checkers.TokString)
	if idx >= len(args) || fmtTokensLiteral(lx, args[idx]) {
		return false
	}
	fa := args[idx]
	if fa.End-fa.Start == 1 && lx.Kind(fa.Start) == checkers.TokIdent && bufUnchangedParam(lx, tok, lx.Text(fa.Start)) && fmtTokForwards(lx, tok) {
		return false // a wrapper forwarding its own format parameter
	}
	if len(args) > idx+1 && !strings.HasPrefix(name, "v") && !fmtTokInput(lx, tok) {
		return false // values follow, and no input reaches this function
	}
	return true
}

// fmtTokForwards is fmtForwards on tokens: the parameter list of the
// function around tok has "..." or a va_list.
func fmtTokForwards(lx *checkers.Lexed, tok int) bool {
	it := lx.Items[lx.ItemOf(tok)]
	body := bufFunctionBodyStart(lx, it)
	for k := it.TokStart; k < body; k++ {
		if lx.Is(k, "...") || lx.Kind(k) == checkers.TokIdent && strings.HasSuffix(lx.Text(k), "va_list") {
			return true
		}
	}
	return false
}

// fmtTokInput reports whether any source of program input that Trace
// knows appears in the function around tok (see bufInputInItem; strlen
// does not count here).
func fmtTokInput(lx *checkers.Lexed, tok int) bool {
	it := lx.Items[lx.ItemOf(tok)]
	for k := it.TokStart; k < it.TokEnd; k++ {
		if lx.Kind(k) != checkers.TokIdent || lx.Is(k-1, ".") || lx.Is(k-1, "->") {
			continue
		}
		w := lx.Text(k)
		if _, fills := externalFills[w]; fills && lx.Is(k+1, "(") || externalReturns[w] && lx.Is(k+1, "(") || w == "optarg" || w == "argv" {
			return true
		}
		if lx.Is(k+1, "(") && (w == "main" || w == "wmain") {
			return true
		}
	}
	return false
}
