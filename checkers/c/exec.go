package c

import (
	"fmt"
	"path"
	"strconv"
	"strings"

	"github.com/jsec/jsec/checkers"
	"github.com/jsec/jsec/checkers/syntax"
)

// Exec family: commands, programs, queries, paths and URLs built from
// input; deserialization; XML external entities. Rows in rules/c_exec.go.
const (
	ruleSystem       = "c.exec.system"
	ruleExec         = "c.exec.exec"
	ruleExecWindows  = "c.exec.windows"
	ruleSQL          = "c.injection.sql"
	rulePathTraverse = "c.path.traversal"
	ruleCurlURL      = "c.ssrf.curl-url"
	ruleFetchCommand = "c.ssrf.fetch-command"
	ruleDeserialize  = "c.deserialize.untrusted"
	ruleXXE          = "c.xml.xxe"
)

// execCheckers is the exec family; its rules are in rules/c_exec.go.
var execCheckers = []*checkers.Checker{
	{
		Name:     "c/exec/system",
		Rules:    []string{ruleSystem, ruleFetchCommand},
		Triggers: []string{"system", "popen", "_popen", "_wsystem", "_wpopen"},
		Triage:   exTriageArg(0),
		Check:    checkSystem,
	},
	{
		Name:     "c/exec/exec",
		Rules:    []string{ruleExec},
		Triggers: []string{"execl", "execlp", "execle", "execv", "execvp", "execvpe", "execve", "execvP", "posix_spawn", "posix_spawnp"},
		Check:    checkExec,
	},
	{
		Name:  "c/exec/windows",
		Rules: []string{ruleExecWindows},
		Triggers: []string{"ShellExecute", "ShellExecuteA", "ShellExecuteW", "ShellExecuteEx", "ShellExecuteExA", "ShellExecuteExW",
			"WinExec", "CreateProcess", "CreateProcessA", "CreateProcessW", "CreateProcessAsUser", "CreateProcessAsUserA", "CreateProcessAsUserW"},
		Check: checkWindowsExec,
	},
	{
		Name:  "c/exec/sql",
		Rules: []string{ruleSQL},
		Triggers: []string{"mysql_query", "mysql_real_query", "mysql_send_query", "sqlite3_exec", "sqlite3_prepare", "sqlite3_prepare_v2",
			"sqlite3_prepare_v3", "sqlite3_prepare16", "sqlite3_prepare16_v2", "sqlite3_prepare16_v3", "PQexec", "PQsendQuery",
			"PQprepare", "SQLExecDirect", "SQLExecDirectA", "SQLExecDirectW", "SQLPrepare", "SQLPrepareA", "SQLPrepareW"},
		Triage: exTriageArg(1),
		Check:  checkSQL,
	},
	{
		Name:     "c/exec/path",
		Rules:    []string{rulePathTraverse},
		Triggers: exPathTriggers(),
		Triage:   triagePath,
		Check:    checkPath,
	},
	{
		Name:     "c/exec/curl-url",
		Rules:    []string{ruleCurlURL},
		Triggers: []string{"CURLOPT_URL", "CURLUPART_URL"},
		Triage:   triageCurlURL,
		Check:    checkCurlURL,
	},
	{
		Name:  "c/exec/deserialize",
		Rules: []string{ruleDeserialize},
		Triggers: []string{"text_iarchive", "binary_iarchive", "xml_iarchive", "text_wiarchive", "binary_wiarchive", "xml_wiarchive",
			"polymorphic_text_iarchive", "polymorphic_binary_iarchive", "polymorphic_xml_iarchive",
			"BinaryInputArchive", "PortableBinaryInputArchive", "JSONInputArchive", "XMLInputArchive",
			"msgpack_unpack", "msgpack_unpack_next", "unpack"},
		Triage: triageDeserialize,
		Check:  checkDeserialize,
	},
	{
		Name:     "c/exec/xxe",
		Rules:    []string{ruleXXE},
		Triggers: exXXETriggers(),
		Check:    checkXXE,
	},
}

// checkSystem flags system/popen whose command is not constant.
func checkSystem(p *checkers.Pass, h checkers.Hit) {
	call, ok := CallAt(h)
	if !ok {
		return
	}
	cmd := Arg(call, 0)
	if !cmd.Valid() || exLiteralish(cmd) {
		return
	}
	sh, ok := exShellCommand(p, cmd, call)
	if !ok {
		return
	}
	exReportShell(p, call, h.Word+"()", sh, ruleSystem)
}

// exShell is what jsec knows about a non-constant shell command.
type exShell struct {
	origin Source
	worst  syntax.Node // the non-constant part with the worst origin
	by     syntax.Node // the call that built the command, if any
	fetch  bool        // a curl/wget command line
	text   string      // the literal text, pieces shown as "\x00"
}

// exFetchRE finds a curl or wget invocation at the start of a command or
// after a shell separator.
var exFetchRE = checkers.LazyRegexp(`(?:^|[;&|(\x60]|\$\()\s*(?:[\w./-]*/)?(?:curl|wget)(?:\.exe)?(?:\s|$)`)

// exShellCommand decides whether cmd, run at use, is a command whose
// non-constant parts can carry text. ok is false when every non-constant
// part is a number (or the whole command is constant).
func exShellCommand(p *checkers.Pass, cmd, use syntax.Node) (exShell, bool) {
	b := exAssemble(p, cmd, use)
	var sh exShell
	textual := false
	for _, pc := range b.Pieces {
		if !pc.textual() {
			continue
		}
		src := exOrigin(p, pc.Node)
		if src.Origin == OriginLiteral {
			continue
		}
		if !textual || src.Origin > sh.origin.Origin {
			sh.origin, sh.worst, sh.by = src, pc.Node, pc.By
		}
		textual = true
	}
	if !textual {
		if b.Complete {
			return sh, false
		}
		sh.origin, sh.worst = exOrigin(p, cmd), cmd
		if sh.origin.Origin == OriginLiteral {
			return sh, false
		}
	}
	sh.text = b.Text
	sh.fetch = textual && exFetchRE().MatchString(b.Text)
	return sh, true
}

// exReportShell reports a shell command (as the fetch-command rule when it
// is a curl/wget command line).
func exReportShell(p *checkers.Pass, call syntax.Node, what string, sh exShell, rule string) {
	built := exBuiltBy(p, sh.by)
	from := exDescribe(sh.worst, sh.origin)
	adjust := exOriginAdjust(sh.origin)
	if sh.fetch && rule == ruleSystem {
		p.Report(checkers.Finding{Rule: ruleFetchCommand, Span: checkers.NodeSpan(call), Adjust: adjust,
			Message: fmt.Sprintf("%s runs a curl/wget command line%s from %s: the URL it fetches and any shell metacharacters come from that value", what, built, from)})
		return
	}
	p.Report(checkers.Finding{Rule: rule, Span: checkers.NodeSpan(call), Adjust: adjust,
		Message: fmt.Sprintf("%s runs a shell command%s from %s; shell metacharacters in it run commands of their own", what, built, from)})
}

// exBuiltBy renders " built by snprintf at line 12" for a builder call or
// concatenation, "" for none.
func exBuiltBy(p *checkers.Pass, by syntax.Node) string {
	if !by.Valid() {
		return ""
	}
	name := CalleeName(by)
	if name == "" {
		name = "concatenation"
	}
	return fmt.Sprintf(" built by %s at line %d", name, exLine(p, by.Start()))
}

// exExecForm describes an exec-family call: the program argument and the
// argument list (variadic) or vector.
type exExecForm struct {
	prog, args int
	list       bool
}

var exExecForms = map[string]exExecForm{
	"execl": {0, 1, true}, "execlp": {0, 1, true}, "execle": {0, 1, true},
	"execv": {0, 1, false}, "execvp": {0, 1, false}, "execvpe": {0, 1, false}, "execve": {0, 1, false}, "execvP": {0, 2, false},
	"posix_spawn": {1, 4, false}, "posix_spawnp": {1, 4, false},
}

// exShells are the programs that run their -c argument as a command line.
var exShells = map[string]bool{"sh": true, "bash": true, "dash": true, "zsh": true, "ksh": true, "csh": true, "tcsh": true, "ash": true, "mksh": true, "busybox": true}

var exDashC = checkers.LazyRegexp(`^-[a-zA-Z]*c[a-zA-Z]*$`)

// checkExec flags exec*/posix_spawn of a non-constant program, and of a
// shell whose -c command is not constant.
func checkExec(p *checkers.Pass, h checkers.Hit) {
	call, ok := CallAt(h)
	if !ok {
		return
	}
	form := exExecForms[h.Word]
	args := Args(call)
	if form.prog >= len(args) {
		return
	}
	var elems map[int]syntax.Node
	if form.list {
		elems = map[int]syntax.Node{}
		for i, a := range args[form.args:] {
			elems[i] = a
		}
	} else if form.args < len(args) {
		elems = exArgvElems(p, args[form.args], call)
	}
	prog := Uncast(args[form.prog])
	if e, ok := elems[0]; ok && !form.list && exIsElem(prog, args[form.args], 0) {
		prog = Uncast(e)
	}
	if name, ok := exProgramName(p, prog); ok {
		if exShells[path.Base(name)] || strings.Contains(name, "SHELL") {
			exCheckShellArgs(p, call, h.Word, name, elems)
		}
		return
	}
	if exLiteralish(prog) {
		return
	}
	src, ch := exPathOrigin(p, prog, call)
	if src.Origin == OriginLiteral {
		return
	}
	adjust := exOriginAdjust(src)
	msg := fmt.Sprintf("%s runs the program named by %s", h.Word, exDescribe(prog, src))
	if exGuardOf(p, call, ch.paths) != 0 {
		adjust -= 0.15
		msg += "; a check on it was found, make sure it is an allow-list"
	}
	p.Report(checkers.Finding{Rule: ruleExec, Span: checkers.NodeSpan(call), Adjust: adjust, Message: msg})
}

// exProgramName returns a constant program: a literal, a macro of the file
// defined as a literal, or a macro defined elsewhere (its name is
// returned: SHELL_PATH comes from the build).
func exProgramName(p *checkers.Pass, prog syntax.Node) (string, bool) {
	if s, ok := StringValue(prog); ok {
		return s, true
	}
	if prog.Kind() != "identifier" || !exMacroName(prog.Text()) {
		return "", false
	}
	if fn := EnclosingFunction(prog); fn.Valid() && FuncScope(p, fn).Lookup(prog.Text(), prog) != nil {
		return "", false
	}
	if s, ok := exStringMacros(p)[prog.Text()]; ok {
		return s, true
	}
	return prog.Text(), true
}

// exStringMacros are the file's object-like macros defined as one string
// literal.
func exStringMacros(p *checkers.Pass) map[string]string {
	type key struct{}
	return checkers.Memo(p, key{}, func() map[string]string {
		out := map[string]string{}
		for _, i := range directiveToks(p.Lex) {
			m := exDefineRE().FindStringSubmatch(p.Lex.Text(int(i)))
			if m == nil {
				continue
			}
			if v, err := strconv.Unquote(strings.TrimSpace(m[2])); err == nil {
				out[m[1]] = v
			}
		}
		return out
	})
}

// exCheckShellArgs flags "sh -c <command>" when the command is not constant.
func exCheckShellArgs(p *checkers.Pass, call syntax.Node, fn, shell string, elems map[int]syntax.Node) {
	last := 0
	for i := range elems {
		last = max(last, i)
	}
	for i := 1; i < last; i++ {
		flag, ok := StringValue(elems[i])
		if !ok || !exDashC().MatchString(flag) {
			continue
		}
		cmd, ok := elems[i+1]
		if !ok || exLiteralish(cmd) {
			return
		}
		sh, ok := exShellCommand(p, cmd, call)
		if !ok {
			return
		}
		exReportShell(p, call, fmt.Sprintf("%s of %s -c", fn, shell), sh, ruleExec)
		return
	}
}

// exIsElem reports whether e is arr[i].
func exIsElem(e, arr syntax.Node, i int) bool {
	return e.Kind() == "subscript_expression" && PathOf(e) == fmt.Sprintf("%s[%d]", PathOf(arr), i)
}

// exArgvElems returns what the elements of an argument vector hold at
// use: its initializer list, overridden by assignments to constant
// subscripts before use.
func exArgvElems(p *checkers.Pass, arr, use syntax.Node) map[int]syntax.Node {
	arr = Uncast(arr)
	out := map[int]syntax.Node{}
	name := Ident(arr)
	fn := EnclosingFunction(use)
	if name == "" || !fn.Valid() {
		return out
	}
	if v := FuncScope(p, fn).Lookup(name, use); v != nil && v.Init.Kind() == "initializer_list" {
		i := 0
		for c := range v.Init.NamedChildren() {
			if c.Kind() != "comment" {
				out[i] = c
				i++
			}
		}
	}
	for _, d := range exDefsOf(p, fn, name) {
		if d.node.Start() > use.Start() || d.node.Kind() != "assignment_expression" || d.other {
			continue
		}
		var idx int
		if _, err := fmt.Sscanf(strings.TrimPrefix(d.path, name), "[%d]", &idx); err == nil {
			out[idx] = d.value
		}
	}
	return out
}

// checkWindowsExec flags ShellExecute/WinExec/CreateProcess with a
// non-constant program or command line.
func checkWindowsExec(p *checkers.Pass, h checkers.Hit) {
	call, ok := CallAt(h)
	if !ok {
		return
	}
	args := Args(call)
	switch w := strings.TrimRight(h.Word, "AW"); w {
	case "WinExec":
		if len(args) > 0 && !exLiteralish(args[0]) {
			if sh, ok := exShellCommand(p, args[0], call); ok {
				exReportShell(p, call, h.Word+"()", sh, ruleExecWindows)
			}
		}
	case "ShellExecute":
		if len(args) >= 4 {
			exWindowsProgram(p, call, h.Word, args[2], args[3])
		}
	case "ShellExecuteEx":
		if len(args) == 1 {
			file, params := exShellExecInfo(p, args[0], call)
			exWindowsProgram(p, call, h.Word, file, params)
		}
	case "CreateProcess", "CreateProcessAsUser":
		k := 0
		if w == "CreateProcessAsUser" {
			k = 1
		}
		if len(args) < k+2 {
			return
		}
		app, line := args[k], args[k+1]
		if !IsNullLiteral(app) {
			exWindowsProgram(p, call, h.Word, app, line)
			return
		}
		if !exLiteralish(line) {
			if sh, ok := exShellCommand(p, line, call); ok {
				if prog := exFixedProgram(sh.text); prog != "" {
					exWindowsArgs(p, call, h.Word, prog, sh)
					return
				}
				p.Report(checkers.Finding{Rule: ruleExecWindows, Span: checkers.NodeSpan(call), Adjust: exOriginAdjust(sh.origin),
					Message: fmt.Sprintf("%s has no application name, so the program is whatever the command line%s from %s names first",
						h.Word, exBuiltBy(p, sh.by), exDescribe(sh.worst, sh.origin))})
			}
		}
	}
}

// exWindowsProgram reports a program that is not constant, or parameters
// that are not constant (weaker unless the program is a shell).
func exWindowsProgram(p *checkers.Pass, call syntax.Node, fn string, prog, params syntax.Node) {
	if prog.Valid() && !exLiteralish(prog) {
		if src := exOrigin(p, prog); src.Origin != OriginLiteral {
			p.Report(checkers.Finding{Rule: ruleExecWindows, Span: checkers.NodeSpan(call), Adjust: exOriginAdjust(src),
				Message: fmt.Sprintf("%s starts the program or document named by %s", fn, exDescribe(prog, src))})
			return
		}
	}
	if !params.Valid() || exLiteralish(params) || IsNullLiteral(params) {
		return
	}
	sh, ok := exShellCommand(p, params, call)
	if !ok {
		return
	}
	name, ok := exLiteralText(prog)
	if !ok {
		name = shortText(prog)
	}
	exWindowsArgs(p, call, fn, name, sh)
}

// exWindowsArgs reports a command line for a fixed program: argument
// injection, unless the program is a command interpreter.
func exWindowsArgs(p *checkers.Pass, call syntax.Node, fn, prog string, sh exShell) {
	adjust := exOriginAdjust(sh.origin)
	base := strings.ToLower(path.Base(strings.ReplaceAll(prog, "\\", "/")))
	if base != "cmd.exe" && base != "cmd" && base != "powershell.exe" && base != "powershell" {
		adjust -= 0.15
	}
	p.Report(checkers.Finding{Rule: ruleExecWindows, Span: checkers.NodeSpan(call), Adjust: adjust,
		Message: fmt.Sprintf("%s passes a command line%s from %s to '%s'", fn, exBuiltBy(p, sh.by), exDescribe(sh.worst, sh.origin), prog)})
}

// exFixedProgram returns the program a command line starts with when that
// part is literal ("helper.exe --daemon \x00" → "helper.exe"), else "".
func exFixedProgram(text string) string {
	lit, _, _ := strings.Cut(text, "\x00")
	lit = strings.TrimLeft(lit, " \t")
	if strings.HasPrefix(lit, "\"") {
		if end := strings.IndexByte(lit[1:], '"'); end >= 0 {
			return lit[1 : end+1]
		}
		return ""
	}
	if i := strings.IndexAny(lit, " \t"); i > 0 {
		return lit[:i]
	}
	return ""
}

// exLiteralText returns the text of a literal, seeing through TEXT()/_T().
func exLiteralText(e syntax.Node) (string, bool) {
	e = Uncast(e)
	if s, ok := StringValue(e); ok {
		return s, true
	}
	if e.Kind() == "call_expression" && len(Args(e)) == 1 && exLiteralish(e) {
		return exLiteralText(Arg(e, 0))
	}
	return "", false
}

// exShellExecInfo finds the values stored into info->lpFile and
// info->lpParameters before use (info is &sei or a pointer).
func exShellExecInfo(p *checkers.Pass, arg, use syntax.Node) (file, params syntax.Node) {
	fn := EnclosingFunction(use)
	base := PathOf(addrOf(arg))
	if !fn.Valid() || base == "" {
		return
	}
	for _, d := range exDefsOf(p, fn, rootName(base)) {
		if d.node.Start() > use.Start() || d.node.Kind() != "assignment_expression" {
			continue
		}
		switch d.path {
		case base + ".lpFile", base + "->lpFile":
			file = d.value
		case base + ".lpParameters", base + "->lpParameters":
			params = d.value
		}
	}
	return file, params
}
