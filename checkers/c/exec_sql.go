package c

import (
	"fmt"

	"github.com/jsec/jsec/checkers"
	"github.com/jsec/jsec/checkers/syntax"
)

// exSQLRE recognises SQL in the literal text of an assembled query. The
// keywords are matched as whole words, never as substrings ("IN" inside
// "STRING", "SET" inside "RESET").
var exSQLRE = checkers.LazyRegexp(`(?is)\bselect\b.*\bfrom\b|\binsert\s+(?:or\s+\w+\s+)?into\b|\bupdate\b.*\bset\b|\bdelete\s+from\b|\breplace\s+into\b|\bwhere\b`)

// exEscapers are the SQL libraries' escaping calls that write their
// result into an argument: the index of the output and whether the output
// must still be quoted by the query (true for the *escape_string family;
// PQescapeLiteral adds its own quotes).
var exEscapers = map[string]struct {
	out    int
	quotes bool
}{
	"mysql_real_escape_string": {1, true}, "mysql_escape_string": {0, true},
	"mysql_real_escape_string_quote": {1, true}, "PQescapeStringConn": {1, true}, "PQescapeString": {0, true},
}

// exEscapeReturns are escaping calls that return the escaped text.
var exEscapeReturns = map[string]bool{"PQescapeLiteral": true, "PQescapeIdentifier": true}

// checkSQL flags a query API whose SQL text is assembled from
// non-constant parts, or is program input itself.
func checkSQL(p *checkers.Pass, h checkers.Hit) {
	call, ok := CallAt(h)
	if !ok {
		return
	}
	q := Arg(call, 1)
	if !q.Valid() || exLiteralish(q) {
		return
	}
	b := exAssemble(p, q, call)
	if !exSQLRE().MatchString(b.Text) {
		src := exOrigin(p, q)
		if src.Origin == OriginExternal {
			p.Report(checkers.Finding{Rule: ruleSQL, Span: checkers.NodeSpan(call), Adjust: 0.1,
				Message: fmt.Sprintf("%s runs a query taken from %s", h.Word, exDescribe(q, src))})
		}
		return
	}
	var worst exPiece
	var worstSrc Source
	unquoted := false
	found := false
	for _, pc := range b.Pieces {
		if !pc.textual() || pc.Conv == "q" || pc.Conv == "Q" || pc.Conv == "w" {
			continue
		}
		esc, quotes, input := exEscaped(p, pc.Node, call)
		if esc && (!quotes || pc.Quoted) {
			continue
		}
		if esc && input.Valid() {
			pc.Node = input // an escaped array: trace what was escaped
		}
		src := exOrigin(p, pc.Node)
		if src.Origin == OriginLiteral {
			continue
		}
		if !found || src.Origin > worstSrc.Origin {
			worst, worstSrc, unquoted = pc, src, esc
		}
		found = true
	}
	if !found {
		return
	}
	how := "spliced in"
	if worst.Conv != "" {
		how = "spliced in with %" + worst.Conv
	}
	if unquoted {
		how += " after escaping but outside quotes"
	}
	built := exBuiltBy(p, worst.By)
	p.Report(checkers.Finding{Rule: ruleSQL, Span: checkers.NodeSpan(call), Adjust: exOriginAdjust(worstSrc),
		Message: fmt.Sprintf("%s runs SQL%s with %s %s; bind it as a parameter of a prepared statement instead", h.Word, built, exDescribe(worst.Node, worstSrc), how)})
}

// exEscaped reports whether the value e holds at use was produced by an
// SQL escaping call, whether that escaping still needs quotes around it in
// the query, and what was escaped (for the *escape_string calls).
func exEscaped(p *checkers.Pass, e, use syntax.Node) (escaped, needsQuotes bool, input syntax.Node) {
	e = Uncast(e)
	if esc, quotes, ok := exEscapeCall(e); ok {
		return esc, quotes, syntax.Node{}
	}
	path := PathOf(e)
	fn := EnclosingFunction(use)
	if path == "" || !fn.Valid() {
		return false, false, syntax.Node{}
	}
	for _, c := range exCalls(p, fn) {
		if c.Start() > use.Start() {
			break
		}
		if c.End() > use.Start() {
			continue
		}
		if esc, ok := exEscapers[CalleeName(c)]; ok && PathOf(Arg(c, esc.out)) == path {
			escaped, needsQuotes, input = true, esc.quotes, Arg(c, esc.out+1)
		}
	}
	for _, d := range exReachingDefs(p, fn, path, use) {
		if esc, quotes, ok := exEscapeCall(Uncast(d.value)); ok {
			return esc, quotes, syntax.Node{}
		}
	}
	return escaped, needsQuotes, input
}

// exEscapeCall recognises a call that returns escaped SQL text:
// PQescapeLiteral(), or sqlite3_mprintf("%q", s) / ("%Q", s).
func exEscapeCall(e syntax.Node) (escaped, needsQuotes, ok bool) {
	if e.Kind() != "call_expression" {
		return false, false, false
	}
	name := CalleeName(e)
	if exEscapeReturns[name] {
		return true, false, true
	}
	if name == "sqlite3_mprintf" {
		switch f, _ := StringValue(Arg(e, 0)); f {
		case "%q", "%w":
			return true, true, true
		case "%Q", "'%q'", "\"%w\"":
			return true, false, true
		}
	}
	return false, false, false
}
