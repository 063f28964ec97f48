package c

import (
	"fmt"
	"sort"
	"strings"

	"github.com/jsec/jsec/checkers"
	"github.com/jsec/jsec/checkers/syntax"
)

// exPathArgs maps file-system calls to the indexes of their path
// arguments.
var exPathArgs = map[string][]int{
	"fopen": {0}, "fopen64": {0}, "freopen": {0}, "_wfopen": {0}, "open": {0}, "open64": {0}, "_open": {0}, "_wopen": {0},
	"openat": {1}, "creat": {0}, "unlink": {0}, "unlinkat": {1}, "remove": {0}, "rename": {0, 1}, "renameat": {1, 3},
	"stat": {0}, "lstat": {0}, "stat64": {0}, "lstat64": {0}, "opendir": {0}, "mkdir": {0}, "mkdirat": {1}, "rmdir": {0},
	"truncate": {0}, "chmod": {0}, "chown": {0}, "lchown": {0}, "symlink": {1}, "link": {0, 1},
	"CreateFileA": {0}, "CreateFileW": {0}, "DeleteFileA": {0}, "DeleteFileW": {0},
}

func exPathTriggers() []string {
	var out []string
	for k := range exPathArgs {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// triagePath keeps a file-system call whose path is not a literal, in an
// item that reads program input somewhere.
func triagePath(lx *checkers.Lexed, tok int) bool {
	args, known, ok := exCallArgs(lx, tok)
	if !ok {
		return false
	}
	if known {
		lit := true
		for _, i := range exPathArgs[lx.Text(tok)] {
			if i < len(args) && !exTokLiteral(lx, args[i]) {
				lit = false
			}
		}
		if lit {
			return false
		}
	}
	local, remote := exItemInputs(lx, tok)
	return remote || local && exItemBuilds(lx, tok)
}

// triageCurlURL keeps "CURLOPT_URL, <non-literal>" as the second argument
// of a call, in an item that reads input other than the command line.
func triageCurlURL(lx *checkers.Lexed, tok int) bool {
	if !lx.Is(tok-1, ",") || !lx.Is(tok+1, ",") {
		return false
	}
	end := tok + 2
	for end < len(lx.Tokens) && !lx.Is(end, ",") && !lx.Is(end, ")") {
		if lx.Is(end, "(") {
			if c := lx.Close(end); c > end {
				end = c
			}
		}
		end++
	}
	if exTokLiteral(lx, checkers.Span{Start: tok + 2, End: end}) {
		return false
	}
	_, remote := exItemInputs(lx, tok)
	return remote
}

// exChain is what following a value back through its function shows:
// the paths it passed through and the calls that transformed it.
type exChain struct {
	paths    map[string]bool
	realpath []syntax.Node // inputs of realpath()/canonicalize_file_name()
	basename bool          // it went through basename()
}

// exFollow walks e back through assignments, builders and path
// transformations, recording the paths it passed through.
func exFollow(p *checkers.Pass, e, use syntax.Node, ch *exChain, depth int) {
	e = Uncast(e)
	if depth > 8 || !e.Valid() || exLiteralish(e) {
		return
	}
	if recv, ok := exStringAccessor(e); ok {
		exFollow(p, recv, use, ch, depth+1)
		return
	}
	switch e.Kind() {
	case "call_expression":
		switch CalleeName(e) {
		case "realpath", "canonicalize_file_name", "_fullpath", "PathCanonicalizeA", "PathCanonicalizeW":
			in := Arg(e, 0)
			if strings.HasPrefix(CalleeName(e), "_full") || strings.HasPrefix(CalleeName(e), "PathCanon") {
				in = Arg(e, 1)
			}
			ch.realpath = append(ch.realpath, in)
			exFollow(p, in, use, ch, depth+1)
		case "basename", "g_path_get_basename", "PathFindFileNameA", "PathFindFileNameW":
			ch.basename = true
		case "strdup", "strndup", "xstrdup", "g_strdup", "dirname", "strchr", "strrchr":
			exFollow(p, Arg(e, 0), use, ch, depth+1)
		default:
			if bd, ok := exBuilders[CalleeName(e)]; ok && bd.dst < 0 {
				exFollowBuilder(p, e, bd, ch, depth)
			}
		}
		return
	case "binary_expression", "conditional_expression":
		for c := range e.NamedChildren() {
			if c.FieldName() != "condition" {
				exFollow(p, c, use, ch, depth+1)
			}
		}
		return
	}
	path := PathOf(e)
	if path == "" {
		if b := baseIdent(e); b.Valid() {
			path = b.Text()
		} else {
			return
		}
	}
	if ch.paths[path] {
		return
	}
	ch.paths[path] = true
	fn := EnclosingFunction(use)
	if !fn.Valid() {
		return
	}
	for _, c := range exRealpathCalls(p, fn) {
		if c.End() <= use.Start() && PathOf(Arg(c, 1)) == path {
			ch.realpath = append(ch.realpath, Arg(c, 0))
			exFollow(p, Arg(c, 0), c, ch, depth+1)
		}
	}
	for _, d := range exReachingDefs(p, fn, path, use) {
		switch {
		case d.builder:
			exFollowBuilder(p, d.node, d.bd, ch, depth)
		case d.value.Valid():
			exFollow(p, d.value, d.node, ch, depth+1)
		}
	}
}

// exFollowBuilder follows the sources of a builder call.
func exFollowBuilder(p *checkers.Pass, call syntax.Node, bd exBuilder, ch *exChain, depth int) {
	args := Args(call)
	from := bd.src
	if bd.all {
		from = 0
	}
	if from < 0 || from >= len(args) {
		return
	}
	for _, a := range args[from:] {
		exFollow(p, a, call, ch, depth+1)
		if !bd.format && !bd.all {
			return
		}
	}
}

// exPathOrigin returns where a path comes from, seeing through realpath()
// (which resolves a path but does not confine it), and the chain.
func exPathOrigin(p *checkers.Pass, e, use syntax.Node) (Source, *exChain) {
	ch := &exChain{paths: map[string]bool{}}
	exFollow(p, e, use, ch, 0)
	src := exOrigin(p, e)
	for _, in := range ch.realpath {
		src = src.max(exOrigin(p, in))
	}
	return src, ch
}

// exGuard is a set of the kinds of check found on a value before its use.
type exGuard int

const (
	exGuardGeneric exGuard = 1 << iota // an early exit on a call that inspects the value
	exGuardPrefix                      // compared with a fixed string or a prefix
	exGuardReject                      // searched for "..", '/' or '\\'
)

// exRejectCalls are searches whose literal needle shows the value is
// inspected for path separators or dot-dot.
var exRejectCalls = map[string]bool{
	"strstr": true, "strchr": true, "strrchr": true, "strpbrk": true, "strcspn": true, "strspn": true, "memchr": true,
	"index": true, "rindex": true, "wcsstr": true, "wcschr": true, "wcspbrk": true, "strcmp": true, "g_strrstr": true,
}

// exCompareCalls compare a value with a prefix or a fixed string.
var exCompareCalls = map[string]bool{
	"strncmp": true, "strcmp": true, "memcmp": true, "strncasecmp": true, "strcasecmp": true, "_strnicmp": true,
	"starts_with": true, "skip_prefix": true, "g_str_has_prefix": true, "istarts_with": true, "wcsncmp": true,
}

// exGuardOf finds the checks on any path of the chain made by calls that
// run before use in its function.
func exGuardOf(p *checkers.Pass, use syntax.Node, paths map[string]bool) exGuard {
	fn := EnclosingFunction(use)
	var found exGuard
	if !fn.Valid() {
		return found
	}
	for _, c := range exCalls(p, fn) {
		if c.Start() > use.Start() {
			break
		}
		if c.End() > use.Start() {
			continue
		}
		args := Args(c)
		on := false
		for _, a := range args {
			if exMentions(a, paths) {
				on = true
			}
		}
		if !on {
			continue
		}
		name := CalleeName(c)
		if exNotAGuard(name) {
			continue
		}
		switch {
		case exRejectCalls[name] && len(args) >= 2 && exSeparatorNeedle(args[1]):
			found |= exGuardReject
		case exCompareCalls[name] && len(args) >= 2:
			found |= exGuardPrefix
		case exTestedWithExit(c, use):
			found |= exGuardGeneric
		}
	}
	return found
}

// exNotAGuard reports whether a call that inspects a value says nothing
// about its validity: the calls that read it, build it, resolve it or
// measure it.
func exNotAGuard(name string) bool {
	if _, ok := externalFills[name]; ok || externalReturns[name] {
		return true
	}
	if _, ok := exBuilders[name]; ok {
		return true
	}
	switch name {
	case "realpath", "canonicalize_file_name", "_fullpath", "strlen", "strnlen", "wcslen", "free", "close", "fclose":
		return true
	}
	return false
}

// exMentions reports whether e is (a cast of, an element of, a field of)
// one of the paths.
func exMentions(e syntax.Node, paths map[string]bool) bool {
	e = addrOf(Uncast(e))
	if recv, ok := exStringAccessor(e); ok {
		e = recv
	}
	if paths[PathOf(e)] {
		return true
	}
	if b := baseIdent(e); b.Valid() {
		return paths[b.Text()]
	}
	return false
}

// exSeparatorNeedle reports whether a search needle is "..", '/', '\\'
// or a set of such characters.
func exSeparatorNeedle(n syntax.Node) bool {
	n = Uncast(n)
	if n.Kind() == "char_literal" {
		v, ok := IntValue(n, nil)
		return ok && (v == '/' || v == '\\' || v == '.')
	}
	s, ok := StringValue(n)
	return ok && (strings.Contains(s, "..") || strings.ContainsAny(s, "/\\"))
}

// exTestedWithExit reports whether a call's result decides an if that
// holds use in its body, or whose branch leaves (return, goto, break,
// continue, exit()) before use.
func exTestedWithExit(c, use syntax.Node) bool {
	stmt := c.Ancestor("if_statement", "expression_statement", "compound_statement")
	if stmt.Kind() != "if_statement" || !Condition(stmt).Contains(c) {
		return false
	}
	return stmt.Contains(use) || exBranchExits(stmt)
}

// exBranchExits reports whether a branch of an if statement leaves
// (return, goto, break, continue, throw, exit()).
func exBranchExits(stmt syntax.Node) bool {
	exits := false
	for _, branch := range []syntax.Node{stmt.Field("consequence"), stmt.Field("alternative")} {
		branch.Walk(func(n syntax.Node) bool {
			switch n.Kind() {
			case "return_statement", "goto_statement", "break_statement", "continue_statement", "throw_statement":
				exits = true
			case "call_expression":
				switch CalleeName(n) {
				case "exit", "_exit", "abort", "die", "err", "errx":
					exits = true
				}
			}
			return !exits
		})
	}
	return exits
}

// checkPath flags file-system calls whose path comes from program input
// without a check for "..", a separator, or realpath plus a prefix check.
func checkPath(p *checkers.Pass, h checkers.Hit) {
	call, ok := CallAt(h)
	if !ok {
		return
	}
	for _, i := range exPathArgs[h.Word] {
		arg := Arg(call, i)
		if !arg.Valid() || exLiteralish(arg) {
			continue
		}
		src, ch := exPathOrigin(p, arg, call)
		if src.Origin != OriginExternal || ch.basename {
			continue
		}
		kind := exInputKind(src)
		if kind == exInputLocal && !exInputUnderPrefix(p, arg, call) {
			continue // the user names a whole path of their own choosing
		}
		guard := exGuardOf(p, call, ch.paths)
		if guard&exGuardReject != 0 || guard&exGuardPrefix != 0 && len(ch.realpath) > 0 {
			continue
		}
		adjust := 0.0
		switch kind {
		case exInputLocal:
			adjust = -0.15
		case exInputNetwork:
			adjust = 0.15
		}
		if guard != 0 {
			adjust -= 0.2
		}
		msg := fmt.Sprintf("%s() gets the path %s with no check for \"..\" or '/' in it", h.Word, exDescribe(arg, src))
		if len(ch.realpath) > 0 {
			msg = fmt.Sprintf("%s() gets the path %s, resolved by realpath() but never checked to stay under an allowed directory", h.Word, exDescribe(arg, src))
		}
		p.Report(checkers.Finding{Rule: rulePathTraverse, Span: checkers.NodeSpan(call), Adjust: adjust, Message: msg})
		return
	}
}

// exInputUnderPrefix reports whether a path puts program input after a
// directory of the program's choosing ("/srv/%s", base + name) rather than
// letting the input name the whole path.
func exInputUnderPrefix(p *checkers.Pass, e, use syntax.Node) bool {
	for _, pc := range exAssemble(p, e, use).Pieces {
		if !pc.Lead && exOrigin(p, pc.Node).Origin == OriginExternal {
			return true
		}
	}
	return false
}

// checkCurlURL flags a libcurl URL option set from program input that is
// not compared with an allowed prefix first.
func checkCurlURL(p *checkers.Pass, h checkers.Hit) {
	n := h.Node
	al := n.Parent()
	call := al.Parent()
	if !n.Valid() || al.Kind() != "argument_list" || call.Kind() != "call_expression" {
		return
	}
	args := Args(call)
	if len(args) < 3 || args[1].Index() != n.Index() {
		return
	}
	val := args[2]
	if exLiteralish(val) {
		return
	}
	src, ch := exPathOrigin(p, val, call)
	if src.Origin != OriginExternal {
		return
	}
	fn := EnclosingFunction(call)
	for _, c := range exCalls(p, fn) {
		if c.End() <= call.Start() && CalleeName(c) == "curl_url_get" && len(Args(c)) >= 3 {
			if path := PathOf(addrOf(Arg(c, 2))); path != "" {
				ch.paths[path] = true
			}
		}
	}
	guard := exGuardOf(p, call, ch.paths)
	if guard&exGuardPrefix != 0 {
		return
	}
	adjust := 0.0
	switch exInputKind(src) {
	case exInputLocal:
		return // a command-line tool fetching the URL its user gave it
	case exInputNetwork:
		adjust = 0.15
	}
	if guard != 0 {
		adjust -= 0.2
	}
	p.Report(checkers.Finding{Rule: ruleCurlURL, Span: checkers.NodeSpan(call), Adjust: adjust,
		Message: fmt.Sprintf("%s sets %s to %s without checking scheme or host against an allow-list", CalleeName(call), h.Word, exDescribe(val, src))})
}

// exRealpathCalls returns the realpath() calls of fn, in source order;
// found once per function (exFollow looked through every call of the
// function for each path it followed).
func exRealpathCalls(p *checkers.Pass, fn syntax.Node) []syntax.Node {
	type key struct{ fn int }
	return checkers.Memo(p, key{fn.Index()}, func() []syntax.Node {
		var out []syntax.Node
		for _, c := range exCalls(p, fn) {
			if CalleeName(c) == "realpath" {
				out = append(out, c)
			}
		}
		return out
	})
}
