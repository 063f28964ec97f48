package c

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/jsec/jsec/checkers"
	"github.com/jsec/jsec/checkers/syntax"
)

// fsModeCall describes a call that takes a permission mode: the index of
// the mode, of the path (-1 for none) and whether the process umask
// applies to it (file creation) or not (chmod).
type fsModeCall struct {
	mode, path int
	create     bool
	flags      int // open-style flags argument, -1 when the call always creates
}

var fsModeCalls = map[string]fsModeCall{
	"chmod": {1, 0, false, -1}, "fchmod": {1, -1, false, -1}, "fchmodat": {2, 1, false, -1}, "lchmod": {1, 0, false, -1},
	"open": {2, 0, true, 1}, "open64": {2, 0, true, 1}, "openat": {3, 1, true, 2}, "openat64": {3, 1, true, 2},
	"creat": {1, 0, true, -1}, "mkdir": {1, 0, true, -1}, "mkdirat": {2, 1, true, -1},
	"mkfifo": {1, 0, true, -1}, "mkfifoat": {2, 1, true, -1}, "mknod": {1, 0, true, -1},
	"shm_open": {2, 0, true, 1}, "sem_open": {2, 0, true, 1}, "mq_open": {2, 0, true, 1},
}

// fsModeConsts are the <sys/stat.h> permission macros.
var fsModeConsts = map[string]int64{
	"S_IRWXU": 0700, "S_IRUSR": 0400, "S_IWUSR": 0200, "S_IXUSR": 0100,
	"S_IRWXG": 070, "S_IRGRP": 040, "S_IWGRP": 020, "S_IXGRP": 010,
	"S_IRWXO": 07, "S_IROTH": 04, "S_IWOTH": 02, "S_IXOTH": 01,
	"S_ISUID": 04000, "S_ISGID": 02000, "S_ISVTX": 01000,
	"S_IREAD": 0400, "S_IWRITE": 0200, "S_IEXEC": 0100,
	"ACCESSPERMS": 0777, "ALLPERMS": 07777, "DEFFILEMODE": 0666,
}

const fsOtherWrite = 02

// fsModeTokenValue evaluates one token of a mode for triage: a number or
// a permission macro. ok is false for anything else (a variable).
func fsModeTokenValue(lx *checkers.Lexed, i int) (int64, bool) {
	switch lx.Kind(i) {
	case checkers.TokNumber:
		v, err := strconv.ParseInt(strings.TrimRight(strings.ToLower(lx.Text(i)), "ul"), 0, 64)
		return v, err == nil
	case checkers.TokIdent:
		v, ok := fsModeConsts[lx.Text(i)]
		return v, ok
	}
	return 0, true // operators and parentheses
}

// triageMode keeps a mode call whose mode may grant write to others (a
// constant with S_IWOTH, or anything not made of constants), and for
// creation calls only in files that call umask; umask calls whose mask
// may leave S_IWOTH open.
func triageMode(lx *checkers.Lexed, tok int) bool {
	args, known, ok := exCallArgs(lx, tok)
	if !ok || !known {
		return ok
	}
	if lx.Text(tok) == "umask" {
		return len(args) == 1 && fsTokModeArg(lx, tok, args[0], false) && !fsTokUmaskRestored(lx, tok)
	}
	mc := fsModeCalls[lx.Text(tok)]
	if mc.mode >= len(args) || !fsTokModeArg(lx, tok, args[mc.mode], true) {
		return false
	}
	return !mc.create || fsFileCallsUmask(lx)
}

// fsTokModeArg is fsTokMode for the mode argument of the call at tok; a
// lone variable counts only when the item assigns it such a constant
// before tok (the only way Check can evaluate a variable mode).
func fsTokModeArg(lx *checkers.Lexed, tok int, m checkers.Span, want bool) bool {
	if m.End-m.Start == 1 && lx.Kind(m.Start) == checkers.TokIdent && !exMacroName(lx.Text(m.Start)) {
		name := lx.Text(m.Start)
		if _, isConst := fsModeConsts[name]; !isConst && !fsTokDefines(lx, name) {
			return fsTokVarMode(lx, tok, name, want)
		}
	}
	return fsTokMode(lx, m, want)
}

// fsTokDefines reports whether the file #defines name. A directive that
// does not hold name at all is passed over without the regular
// expression, whose backtracker would otherwise allocate a bitmap the
// size of the directive times the program for every directive of the
// file, at every mode argument asked about.
func fsTokDefines(lx *checkers.Lexed, name string) bool {
	for _, i := range directiveToks(lx) {
		text := lx.Text(int(i))
		if !strings.Contains(text, name) {
			continue
		}
		if m := exDefineRE().FindStringSubmatch(text); m != nil && m[1] == name {
			return true
		}
	}
	return false
}

// fsTokVarMode reports whether the item assigns the variable v, before
// tok, a constant that may hold (want) or lack S_IWOTH.
func fsTokVarMode(lx *checkers.Lexed, tok int, v string, want bool) bool {
	it := lx.ItemOf(tok)
	if it < 0 {
		return true
	}
	for i := lx.Items[it].TokStart; i+1 < tok; i++ {
		if !lx.Is(i, v) || !lx.Is(i+1, "=") {
			continue
		}
		end := i + 2
		for end < tok && !lx.Is(end, ";") && !lx.Is(end, ",") {
			end++
		}
		if fsTokMode(lx, checkers.Span{Start: i + 2, End: end}, want) {
			return true
		}
	}
	return false
}

// fsTokMode reports whether the tokens of a mode may hold S_IWOTH (want)
// or may lack it (!want). Field accesses, subscripts and calls make the
// mode one Check cannot evaluate (false); other names and operators than |
// count as maybe.
func fsTokMode(lx *checkers.Lexed, s checkers.Span, want bool) bool {
	for i := s.Start; i < s.End; i++ {
		if lx.Is(i, ".") || lx.Is(i, "->") || lx.Is(i, "[") || lx.Kind(i) == checkers.TokIdent && lx.Is(i+1, "(") {
			return false
		}
	}
	var or int64
	for i := s.Start; i < s.End; i++ {
		v, ok := fsModeTokenValue(lx, i)
		if !ok || lx.Kind(i) == checkers.TokPunct && !lx.Is(i, "|") && !lx.Is(i, "(") && !lx.Is(i, ")") {
			return true
		}
		or |= v
	}
	return (or&fsOtherWrite != 0) == want
}

// fsFileCallsUmask reports whether the file calls umask with a mask that
// may leave S_IWOTH open (and does not just read the umask).
func fsFileCallsUmask(lx *checkers.Lexed) bool {
	for i, t := range lx.Tokens {
		if t.Kind != checkers.TokIdent || t.End-t.Start != 5 || !lx.Is(i, "umask") {
			continue
		}
		if args, ok := lx.CallArgs(i); ok && len(args) == 1 && fsTokModeArg(lx, i, args[0], false) && !fsTokUmaskRestored(lx, i) {
			return true
		}
	}
	return false
}

// fsModeValue evaluates a mode expression: octal literals, permission
// macros, the file's integer macros, | & ^ ~ + <<, and a variable whose
// reaching definitions all evaluate to one value.
func fsModeValue(p *checkers.Pass, e, use syntax.Node, depth int) (int64, bool) {
	e = Uncast(e)
	if depth > 6 {
		return 0, false
	}
	switch e.Kind() {
	case "number_literal":
		return IntValue(e, nil)
	case "identifier":
		if v, ok := fsModeConsts[e.Text()]; ok {
			return v, true
		}
		if v, ok := Facts(p).Macros[e.Text()]; ok {
			return v, true
		}
		return fsModeVar(p, e, use, depth)
	case "unary_expression":
		v, ok := fsModeValue(p, e.Field("argument"), use, depth+1)
		if ok && e.FirstChild().Text() == "~" {
			return ^v, true
		}
		return 0, false
	case "binary_expression":
		a, ok1 := fsModeValue(p, e.Field("left"), use, depth+1)
		b, ok2 := fsModeValue(p, e.Field("right"), use, depth+1)
		if !ok1 || !ok2 {
			return 0, false
		}
		switch BinaryOp(e) {
		case "|", "+":
			return a | b, true
		case "&":
			return a & b, true
		case "^":
			return a ^ b, true
		case "<<":
			return a << (b & 63), true
		}
	}
	return 0, false
}

func fsModeVar(p *checkers.Pass, e, use syntax.Node, depth int) (int64, bool) {
	fn := EnclosingFunction(use)
	if !fn.Valid() {
		return 0, false
	}
	defs := Defs(p, fn).Reaching(e.Text(), use)
	if len(defs) == 0 {
		return 0, false
	}
	var val int64
	for i, d := range defs {
		if d.Kind != DefAssign || BinaryOp(d.Node) != "=" && d.Node.Kind() != "init_declarator" {
			return 0, false
		}
		v, ok := fsModeValue(p, d.Value, d.Node, depth+1)
		if !ok || i > 0 && v != val {
			return 0, false
		}
		val = v
	}
	return val, true
}

// fsUmaskRestored recognises the idiom that reads the umask: old =
// umask(0); umask(old);
func fsUmaskRestored(p *checkers.Pass, call syntax.Node) bool {
	var saved string
	switch par := call.Parent(); par.Kind() {
	case "init_declarator":
		saved = declIdent(par.Field("declarator"))
	case "assignment_expression":
		saved = PathOf(par.Field("left"))
	}
	fn := EnclosingFunction(call)
	if saved == "" || !fn.Valid() {
		return false
	}
	for _, c := range exCalls(p, fn) {
		if c.Start() > call.End() && CalleeName(c) == "umask" && PathOf(Arg(c, 0)) == saved {
			return true
		}
	}
	return false
}

// fsOpenUmask is an umask call of the file that leaves S_IWOTH unmasked.
type fsOpenUmask struct {
	line int
	mask int64
}

// fsUmasks finds the file's umask calls with a constant mask that leaves
// S_IWOTH open, by tokens (their items need not be parsed).
func fsUmasks(p *checkers.Pass) []fsOpenUmask {
	type key struct{}
	return checkers.Memo(p, key{}, func() []fsOpenUmask {
		var out []fsOpenUmask
		lx := p.Lex
		for i, t := range lx.Tokens {
			if t.Kind != checkers.TokIdent || !lx.Is(i, "umask") {
				continue
			}
			args, ok := lx.CallArgs(i)
			if !ok || len(args) != 1 {
				continue
			}
			var mask int64
			known := true
			for j := args[0].Start; j < args[0].End; j++ {
				v, ok := fsModeTokenValue(lx, j)
				if !ok || lx.Kind(j) == checkers.TokPunct && !lx.Is(j, "|") && !lx.Is(j, "(") && !lx.Is(j, ")") {
					known = false
					break
				}
				mask |= v
			}
			if known && mask&fsOtherWrite == 0 && !fsTokUmaskRestored(lx, i) {
				out = append(out, fsOpenUmask{line: exLine(p, int(t.Start)), mask: mask})
			}
		}
		return out
	})
}

// fsTokUmaskRestored is fsUmaskRestored on tokens: "v = umask(...)"
// followed in the same item by "umask(v)", seen from either call.
func fsTokUmaskRestored(lx *checkers.Lexed, tok int) bool {
	it := lx.ItemOf(tok)
	if it < 0 {
		return false
	}
	item := lx.Items[it]
	if lx.Is(tok-1, "=") && lx.Kind(tok-2) == checkers.TokIdent {
		saved := lx.Text(tok - 2)
		for i := tok + 1; i+3 < item.TokEnd; i++ {
			if lx.Is(i, "umask") && lx.Is(i+1, "(") && lx.Is(i+2, saved) && lx.Is(i+3, ")") {
				return true
			}
		}
	}
	if lx.Kind(tok+2) == checkers.TokIdent && lx.Is(tok+3, ")") {
		saved := lx.Text(tok + 2)
		for i := item.TokStart; i+2 < tok; i++ {
			if lx.Is(i, saved) && lx.Is(i+1, "=") && lx.Is(i+2, "umask") {
				return true
			}
		}
	}
	return false
}

// checkMode flags modes that grant write to others: chmod-family modes,
// umask values that do not mask S_IWOTH, and files or directories created
// with S_IWOTH in a file whose umask lets it through.
func checkMode(p *checkers.Pass, h checkers.Hit) {
	call, ok := CallAt(h)
	if !ok {
		return
	}
	if h.Word == "umask" {
		mask, ok := fsModeValue(p, Arg(call, 0), call, 0)
		if ok && mask&fsOtherWrite == 0 && !fsUmaskRestored(p, call) {
			p.Report(checkers.Finding{Rule: rulePermissive, Span: checkers.NodeSpan(call),
				Message: fmt.Sprintf("umask(%#o) does not mask S_IWOTH: files this process creates with the usual 0666/0777 become world-writable", mask)})
		}
		return
	}
	mc := fsModeCalls[h.Word]
	modeArg := Arg(call, mc.mode)
	mode, ok := fsModeValue(p, modeArg, call, 0)
	if !ok || mode&fsOtherWrite == 0 {
		return
	}
	target := "the file"
	if mc.path >= 0 {
		target = fsQuote(Arg(call, mc.path))
	} else if a := Arg(call, 0); a.Valid() {
		target = fmt.Sprintf("descriptor '%s'", shortText(a))
	}
	if !mc.create {
		adjust := 0.0
		if mode&01000 != 0 {
			adjust = -0.3 // a sticky shared directory like /tmp
		}
		p.Report(checkers.Finding{Rule: rulePermissive, Span: checkers.NodeSpan(call), Adjust: adjust,
			Message: fmt.Sprintf("%s makes %s world-writable (mode %#o)", h.Word, target, mode)})
		return
	}
	if mc.flags >= 0 {
		fl := Arg(call, mc.flags)
		if !fl.Valid() || !fsHasFlag(fl, "O_CREAT", "O_TMPFILE") && (Uncast(fl).Kind() != "identifier" || strings.HasPrefix(Uncast(fl).Text(), "O_")) {
			return // the mode is ignored without O_CREAT
		}
	}
	ums := fsUmasks(p)
	if len(ums) == 0 {
		return // the process umask (usually 022) applies
	}
	p.Report(checkers.Finding{Rule: rulePermissive, Span: checkers.NodeSpan(call),
		Message: fmt.Sprintf("%s creates %s with mode %#o, and this file sets umask(%#o) at line %d, so it is world-writable", h.Word, target, mode, ums[0].mask, ums[0].line)})
}

// fsQuote renders an argument for a message: literals as written, other
// expressions in quotes.
func fsQuote(e syntax.Node) string {
	if IsStringLiteral(e) {
		return shortText(e)
	}
	return "'" + shortText(e) + "'"
}
