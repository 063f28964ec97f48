package c

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"

	"github.com/jsec/jsec/checkers"
	"github.com/jsec/jsec/checkers/syntax"
	"github.com/jsec/jsec/issue"
)

// Files family: temporary names, check-then-use races, permissions and
// chroot jails. Rows in rules/c_files.go.
const (
	ruleTmpname    = "c.file.tmpname"
	ruleTOCTOU     = "c.file.toctou"
	rulePermissive = "c.file.permissive-mode"
	ruleChroot     = "c.file.chroot-jail"
)

// filesCheckers is the files family; its rules are in rules/c_files.go.
var filesCheckers = []*checkers.Checker{
	{
		Name:     "c/files/tmpname",
		Rules:    []string{ruleTmpname},
		Triggers: []string{"tmpnam", "tmpnam_r", "tempnam", "mktemp", "_mktemp", "_tempnam", "_wtmpnam", "_wtempnam", "_wmktemp", "_tmpnam"},
		Triage:   fsTriageCall,
		Check:    checkTmpname,
	},
	{
		Name:     "c/files/toctou",
		Rules:    []string{ruleTOCTOU},
		Triggers: fsKeys(fsCheckCalls),
		Triage:   triageTOCTOU,
		Check:    checkTOCTOU,
	},
	{
		Name:     "c/files/permissive-mode",
		Rules:    []string{rulePermissive},
		Triggers: append(fsKeys(fsModeCalls), "umask"),
		Triage:   triageMode,
		Check:    checkMode,
	},
	{
		Name:     "c/files/chroot",
		Rules:    []string{ruleChroot},
		Triggers: []string{"chroot"},
		Triage:   fsTriageCall,
		Check:    checkChroot,
	},
}

// fsTriageCall keeps every call of the trigger and nothing else.
func fsTriageCall(lx *checkers.Lexed, tok int) bool {
	_, _, ok := exCallArgs(lx, tok)
	return ok
}

func fsKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}

// fsOpenFlags returns the flags argument of an open-family call, or the
// zero Node.
func fsOpenFlags(call syntax.Node) syntax.Node {
	switch CalleeName(call) {
	case "open", "open64", "_open", "_wopen":
		return Arg(call, 1)
	case "openat", "openat64":
		return Arg(call, 2)
	}
	return syntax.Node{}
}

// fsHasFlag reports whether an expression mentions one of the flags as an
// identifier that is not negated (O_EXCL in O_CREAT|O_EXCL|O_WRONLY).
func fsHasFlag(e syntax.Node, flags ...string) bool {
	found := false
	e.Walk(func(n syntax.Node) bool {
		if n.Kind() == "unary_expression" && n.FirstChild().Text() == "~" {
			return false
		}
		if n.Kind() == "identifier" {
			for _, f := range flags {
				if n.Text() == f {
					found = true
				}
			}
		}
		return !found
	})
	return found
}

// fsExclusiveOpen reports whether a later call in the function opens path
// exclusively (O_CREAT|O_EXCL, or fopen mode "x").
func fsExclusiveOpen(p *checkers.Pass, fn syntax.Node, path string, after int) bool {
	for _, c := range exCalls(p, fn) {
		if c.Start() < after || PathOf(Arg(c, fsPathIndex(c))) != path {
			continue
		}
		if fl := fsOpenFlags(c); fl.Valid() && fsHasFlag(fl, "O_EXCL") {
			return true
		}
		if name := CalleeName(c); name == "mkdir" || name == "mkfifo" || name == "symlink" {
			return true // fail when the name exists, like O_EXCL
		}
		if name := CalleeName(c); name == "fopen" || name == "fopen64" {
			if m, ok := StringValue(Arg(c, 1)); ok && strings.Contains(m, "x") {
				return true
			}
		}
	}
	return false
}

func fsPathIndex(c syntax.Node) int {
	if strings.HasPrefix(CalleeName(c), "openat") {
		return 1
	}
	return 0
}

// checkTmpname flags functions that only invent a temporary name.
func checkTmpname(p *checkers.Pass, h checkers.Hit) {
	call, ok := CallAt(h)
	if !ok {
		return
	}
	name := ""
	if a := Arg(call, 0); a.Valid() && !IsNullLiteral(a) && !strings.Contains(h.Word, "tempnam") {
		name = PathOf(addrOf(a)) // the template or buffer that receives the name
	}
	switch par := call.Parent(); par.Kind() {
	case "init_declarator":
		name = declIdent(par.Field("declarator"))
	case "assignment_expression":
		name = PathOf(par.Field("left"))
	}
	f := checkers.Finding{Rule: ruleTmpname, Span: checkers.NodeSpan(call),
		Message: fmt.Sprintf("%s() only picks a name: another process can create or symlink that path before this one opens it", h.Word)}
	if fn := EnclosingFunction(call); name != "" && fn.Valid() && fsExclusiveOpen(p, fn, name, call.End()) {
		f.Adjust, f.Severity = -0.4, issue.SeverityLow
		f.Message += " (it is then created exclusively, with O_EXCL or mkdir, which leaves only a denial of service)"
	}
	p.Report(f)
}

// fsCheckCalls are the calls that check a path (index of the path).
var fsCheckCalls = map[string]int{
	"access": 0, "faccessat": 1, "euidaccess": 0, "eaccess": 0, "_access": 0, "_waccess": 0,
	"stat": 0, "lstat": 0, "stat64": 0, "lstat64": 0, "fstatat": 1,
}

// fsUseCalls are the calls that use a path by name (index of the path).
var fsUseCalls = map[string]int{
	"open": 0, "open64": 0, "openat": 1, "fopen": 0, "fopen64": 0, "freopen": 0, "creat": 0,
	"unlink": 0, "remove": 0, "rename": 0, "chmod": 0, "chown": 0, "lchown": 0, "truncate": 0,
	"opendir": 0, "execv": 0, "execve": 0, "execl": 0, "execle": 0, "utime": 0, "utimes": 0,
}

// fsArgKey is the token text of an argument without a leading cast, for
// triage.
func fsArgKey(lx *checkers.Lexed, s checkers.Span) string {
	i := s.Start
	if lx.Is(i, "(") {
		if c := lx.Close(i); c > 0 && c+1 < s.End && lx.Kind(c+1) == checkers.TokIdent {
			i = c + 1
		}
	}
	var b strings.Builder
	for ; i < s.End; i++ {
		b.WriteString(lx.Text(i))
	}
	return b.String()
}

// triageTOCTOU keeps a check only when a later call in the same item uses
// the same path argument (by tokens).
func triageTOCTOU(lx *checkers.Lexed, tok int) bool {
	args, known, ok := exCallArgs(lx, tok)
	if !ok || !known {
		return ok
	}
	idx := fsCheckCalls[lx.Text(tok)]
	if idx >= len(args) {
		return false
	}
	key := fsArgKey(lx, args[idx])
	_, end := exFuncSpan(lx, tok)
	if end < 0 {
		return true
	}
	_, isStat := fsStatBuf[lx.Text(tok)]
	typeTested := !isStat
	for i := tok + 1; i < end; i++ {
		if t := &lx.Tokens[i]; t.Kind != checkers.TokIdent || t.First != 'S' && !fsWords().MayHave(lx, i) {
			continue // neither S_IS… nor one of fsWords: most identifiers
		}
		w := lx.Text(i)
		if fsTypeFields[w] || strings.HasPrefix(w, "S_IS") {
			typeTested = true
		}
		ui, isUse := fsUseCalls[w]
		if !isUse {
			continue
		}
		uargs, uknown, uok := exCallArgs(lx, i)
		if uok && (!uknown || ui < len(uargs) && fsArgKey(lx, uargs[ui]) == key) && (typeTested || !uknown || fsTokModifies(lx, w, uargs)) {
			return true
		}
	}
	return false
}

// fsWords are the words triageTOCTOU looks for.
var fsWords = sync.OnceValue(func() *checkers.WordSet {
	return checkers.NewWordSet(slices.Collect(maps.Keys(fsTypeFields)), slices.Collect(maps.Keys(fsUseCalls)))
})

// fsTypeFields are the stat fields that tell a file's type, owner or
// identity.
var fsTypeFields = map[string]bool{"st_mode": true, "st_uid": true, "st_gid": true, "st_nlink": true, "st_ino": true, "st_dev": true}

// fsTokModifies is fsCreates on tokens, for triage: true unless the call
// certainly does not create.
func fsTokModifies(lx *checkers.Lexed, name string, args []checkers.Span) bool {
	switch name {
	case "creat":
		return true
	case "fopen", "fopen64", "freopen":
		if len(args) < 2 || args[1].End-args[1].Start != 1 || lx.Kind(args[1].Start) != checkers.TokString {
			return true
		}
		return strings.ContainsAny(lx.Text(args[1].Start), "wa+")
	case "open", "open64", "openat":
		k := 1
		if name == "openat" {
			k = 2
		}
		if k >= len(args) {
			return false
		}
		for i := args[k].Start; i < args[k].End; i++ {
			switch w := lx.Text(i); {
			case w == "O_CREAT", w == "O_WRONLY", w == "O_RDWR", w == "O_TRUNC", w == "O_APPEND":
				return true
			case lx.Kind(i) == checkers.TokIdent && !strings.HasPrefix(w, "O_"):
				return true
			}
		}
		return false
	}
	return true
}

// checkTOCTOU flags a path checked by access/stat and then used by name.
func checkTOCTOU(p *checkers.Pass, h checkers.Hit) {
	check, ok := CallAt(h)
	if !ok {
		return
	}
	fn := EnclosingFunction(check)
	arg := Arg(check, fsCheckCalls[h.Word])
	if !fn.Valid() || !arg.Valid() {
		return
	}
	path := PathOf(arg)
	lit, isLit := StringValue(arg)
	if path == "" && !isLit {
		return
	}
	for _, use := range exCalls(p, fn) {
		if use.Start() < check.End() {
			continue
		}
		ui, ok := fsUseCalls[CalleeName(use)]
		if !ok {
			continue
		}
		ua := Arg(use, ui)
		if s, ok := StringValue(ua); !(isLit && ok && s == lit) && (path == "" || PathOf(ua) != path) {
			continue
		}
		if path != "" && fsWrittenBetween(p, fn, path, check.End(), use.Start()) {
			return
		}
		if fsSafeUse(p, fn, use) || !fsCheckDecides(p, fn, h.Word, check, use) {
			return
		}
		adjust := 0.0
		if !strings.Contains(h.Word, "access") {
			adjust -= 0.15
		}
		switch CalleeName(use) {
		case "unlink", "remove", "rename":
			adjust -= 0.1
		}
		p.Report(checkers.Finding{Rule: ruleTOCTOU, Span: checkers.NodeSpan(use), Adjust: adjust,
			Message: fmt.Sprintf("%s uses %s by name after %s checked it at line %d; the file can be replaced in between",
				CalleeName(use), fsQuote(ua), h.Word, exLine(p, check.Start()))})
		return
	}
}

// fsStatBuf maps the stat-family checks to the index of their buffer.
var fsStatBuf = map[string]int{"stat": 1, "lstat": 1, "stat64": 1, "lstat64": 1, "fstatat": 2}

// fsCheckDecides reports whether a check's outcome decides something the
// use relies on. access() is always a decision once its result is tested;
// a stat() is one when the file's type or owner is tested, or when it
// guards a use that creates, writes or removes. A stat() only for the size
// before a read, or whose result is ignored, is not.
func fsCheckDecides(p *checkers.Pass, fn syntax.Node, word string, check, use syntax.Node) bool {
	if fsResultIgnored(check) {
		return false
	}
	bi, isStat := fsStatBuf[word]
	if !isStat {
		return true
	}
	if buf := PathOf(addrOf(Arg(check, bi))); buf != "" && fsTypeTested(fn, buf, check, use) {
		return true
	}
	return fsCreates(use) && fsControls(check, use)
}

// fsResultIgnored reports whether a call's result is thrown away.
func fsResultIgnored(call syntax.Node) bool {
	n := call
	for n.Parent().Is("parenthesized_expression", "cast_expression") {
		n = n.Parent()
	}
	return n.Parent().Is("expression_statement", "comma_expression")
}

// fsTypeTested reports whether a condition between the check and the use
// tests the type, owner or identity fields of the stat buffer.
func fsTypeTested(fn syntax.Node, buf string, check, use syntax.Node) bool {
	from := EnclosingStatement(check).Start()
	found := false
	fn.Field("body").Walk(func(n syntax.Node) bool {
		if found || n.End() <= from || n.Start() >= use.Start() {
			return false
		}
		if n.Kind() != "field_expression" || PathOf(n.Field("argument")) != buf {
			return true
		}
		switch n.Field("field").Text() {
		case "st_mode", "st_uid", "st_gid", "st_nlink", "st_ino", "st_dev":
			for a := n.Parent(); a.Valid() && a.Index() != fn.Index(); a = a.Parent() {
				if a.Is("if_statement", "while_statement", "switch_statement", "conditional_expression") {
					found = Condition(a).Contains(n) || a.Field("condition").Contains(n)
					break
				}
			}
		}
		return !found
	})
	return found
}

// fsCreates reports whether a use may create the file (or write through
// a link planted in its place): an existence check that decides to create
// is the symlink race.
func fsCreates(use syntax.Node) bool {
	switch CalleeName(use) {
	case "open", "open64", "openat":
		fl := fsOpenFlags(use)
		return fsHasFlag(fl, "O_CREAT", "O_WRONLY", "O_RDWR", "O_TRUNC", "O_APPEND") ||
			Uncast(fl).Kind() == "identifier" && !strings.HasPrefix(Uncast(fl).Text(), "O_")
	case "fopen", "fopen64", "freopen":
		m, ok := StringValue(Arg(use, 1))
		return !ok || strings.ContainsAny(m, "wa+")
	case "creat":
		return true
	}
	return false
}

// fsControls reports whether the use runs only on one outcome of the
// check: inside a branch of the if that tests it, or after that if when a
// branch leaves the function or loop.
func fsControls(check, use syntax.Node) bool {
	for a := check.Parent(); a.Valid() && !a.Is("function_definition", "compound_statement"); a = a.Parent() {
		if a.Kind() != "if_statement" || !Condition(a).Contains(check) {
			continue
		}
		if a.Field("consequence").Contains(use) || a.Field("alternative").Contains(use) {
			return true
		}
		return use.Start() > a.End() && exBranchExits(a)
	}
	return false
}

// fsWrittenBetween reports whether the variable under path is assigned
// (or passed by address) between two offsets.
func fsWrittenBetween(p *checkers.Pass, fn syntax.Node, path string, from, to int) bool {
	for _, d := range exDefsOf(p, fn, rootName(path)) {
		if d.node.Start() >= from && d.node.Start() < to && (exPathCovers(d.path, path) || exPathCovers(path, d.path)) {
			return true
		}
	}
	return false
}

// fsSafeUse reports whether a use cannot be redirected: an exclusive or
// no-follow open, an fopen with "x", or an open whose descriptor is
// re-checked with fstat.
func fsSafeUse(p *checkers.Pass, fn, use syntax.Node) bool {
	if fl := fsOpenFlags(use); fl.Valid() && fsHasFlag(fl, "O_EXCL", "O_NOFOLLOW") {
		return true
	}
	if name := CalleeName(use); name == "fopen" || name == "fopen64" {
		if m, ok := StringValue(Arg(use, 1)); ok && strings.Contains(m, "x") {
			return true
		}
	}
	var fd string
	switch par := use.Parent(); par.Kind() {
	case "init_declarator":
		fd = declIdent(par.Field("declarator"))
	case "assignment_expression":
		fd = PathOf(par.Field("left"))
	}
	if fd == "" {
		return false
	}
	for _, c := range exCalls(p, fn) {
		if c.Start() <= use.End() {
			continue
		}
		switch CalleeName(c) {
		case "fstat", "fstat64", "fstatat":
			if PathOf(Arg(c, 0)) == fd {
				return true
			}
		case "fileno":
			if PathOf(Arg(c, 0)) == fd && c.Parent().Kind() == "argument_list" && strings.HasPrefix(CalleeName(c.Parent().Parent()), "fstat") {
				return true
			}
		}
	}
	return false
}

// checkChroot flags chroot() that is not followed by chdir("/") (or
// another absolute path, which now resolves inside the jail), nor preceded
// or followed by chdir into the same directory.
func checkChroot(p *checkers.Pass, h checkers.Hit) {
	call, ok := CallAt(h)
	if !ok {
		return
	}
	dir := Arg(call, 0)
	fn := EnclosingFunction(call)
	if !dir.Valid() || !fn.Valid() {
		return
	}
	dirText, _ := StringValue(dir)
	for _, c := range exCalls(p, fn) {
		switch CalleeName(c) {
		case "chdir":
			a := Arg(c, 0)
			s, lit := StringValue(a)
			if c.Start() > call.End() && lit && strings.HasPrefix(s, "/") {
				return // an absolute path now resolves inside the jail
			}
			if exSamePath(a, dir) {
				return
			}
			if c.Start() < call.Start() && dirText == "." {
				return
			}
		case "fchdir":
			if c.Start() > call.End() {
				return
			}
		}
	}
	p.Report(checkers.Finding{Rule: ruleChroot, Span: checkers.NodeSpan(call),
		Message: fmt.Sprintf("chroot(%s) is not followed by chdir(\"/\"): the working directory stays outside the jail and relative paths escape it", shortText(dir))})
}
