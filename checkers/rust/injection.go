package rust

import (
	"fmt"
	"path"
	"strings"

	"github.com/jsec/jsec/checkers"
	"github.com/jsec/jsec/checkers/syntax"
)

// Injection family: shell commands, SQL and file paths built from input,
// and check-then-use races on paths. Rules are in rules/rust_injection.go.
const (
	ruleCmdInjection = "rust.exec.command-injection"
	ruleSQLInjection = "rust.injection.sql"
	rulePathTraverse = "rust.path.traversal"
	ruleTOCTOU       = "rust.file.toctou"
)

// injectionCheckers is the injection family; its rules are in rules/rust_injection.go.
var injectionCheckers = []*checkers.Checker{
	{
		Name:     "rust/injection/command",
		Rules:    []string{ruleCmdInjection},
		Triggers: []string{"Command"},
		Triage:   triageCommand,
		Check:    checkCommand,
	},
	{
		Name:     "rust/injection/sql",
		Rules:    []string{ruleSQLInjection},
		Triggers: sqlSinks,
		Triage:   triageSQL,
		Check:    checkSQL,
	},
	{
		Name:     "rust/injection/path",
		Rules:    []string{rulePathTraverse},
		Triggers: pathSourceTriggers,
		Triage:   triagePathSource,
		Check:    checkPathSource,
	},
	{
		Name:     "rust/injection/toctou",
		Rules:    []string{ruleTOCTOU},
		Triggers: []string{"exists", "try_exists", "is_file", "is_dir", "metadata", "symlink_metadata"},
		Triage:   triageTOCTOU,
		Check:    checkTOCTOU,
	},
}

// triageCommand keeps Command::new( outside test items, unless its
// program is a literal that is not a shell.
func triageCommand(lx *checkers.Lexed, tok int) bool {
	if !lx.Is(tok+1, "::") || !lx.Is(tok+2, "new") || !lx.Is(tok+3, "(") {
		return false
	}
	if lx.Kind(tok+4) == checkers.TokString && lx.Is(tok+5, ")") {
		lit := strings.Trim(locTok(lx, tok+4), `"r#`)
		if _, shell := cmdShells[strings.ToLower(path.Base(strings.ReplaceAll(lit, "\\", "/")))]; !shell {
			return false
		}
	}
	it := lx.ItemOf(tok)
	return it >= 0 && !lx.Items[it].Test
}

// cmdShells are programs that parse their argument as a command line
// after the flag that introduces it.
var cmdShells = map[string]string{
	"sh": "-c", "bash": "-c", "zsh": "-c", "dash": "-c", "ksh": "-c", "fish": "-c", "ash": "-c",
	"cmd": "/c", "cmd.exe": "/c", "powershell": "-command", "powershell.exe": "-command", "pwsh": "-command",
}

// checkCommand flags a shell (sh -c, cmd /C, powershell -Command) whose
// script is built at run time, and a program path that derives from
// input. Command::new("git").arg(user) is silent: without a shell,
// arguments are not parsed.
func checkCommand(p *checkers.Pass, h checkers.Hit) {
	call, ok := cmdNewCall(h)
	if !ok || locInTest(p, call) {
		return
	}
	args := Args(call)
	if len(args) != 1 {
		return
	}
	prog := locPeel(args[0])
	if lit, ok := strLiteral(prog); ok {
		flag, shell := cmdShells[strings.ToLower(path.Base(strings.ReplaceAll(lit, "\\", "/")))]
		if shell {
			cmdCheckScript(p, call, lit, flag)
		}
		return
	}
	o := injOriginOf(p, prog, 0)
	if cmdConstant(p, prog) || o.kind < injCLI && !strings.Contains(prog.Text(), "format!") {
		return // a constant, a configured program, $EDITOR, a wrapper's parameter
	}
	adjust := -0.1
	what := "a value built at run time"
	if o.kind >= injCLI {
		what = o.what
		adjust = cmdAdjust(o.kind)
	}
	msg := fmt.Sprintf("Command::new runs a program chosen by %s: an attacker who controls it runs any binary", what)
	p.Report(checkers.Finding{Rule: ruleCmdInjection, Span: checkers.NodeSpan(args[0]), Adjust: adjust, Message: msg})
}

func cmdAdjust(k injKind) float64 {
	switch k {
	case injRequest:
		return 0.15
	case injStdin, injCLI:
		return 0.05
	case injEnv:
		return -0.1
	}
	return 0
}

// cmdNewCall returns the Command::new(…) call at the hit.
func cmdNewCall(h checkers.Hit) (syntax.Node, bool) {
	n := h.Node
	for q := n.Parent(); q.Kind() == "scoped_identifier"; q = q.Parent() {
		if q.Field("name").Text() == "new" {
			if c := q.Parent(); c.Kind() == "call_expression" && c.Field("function").Index() == q.Index() {
				return c, true
			}
			return syntax.Node{}, false
		}
	}
	return syntax.Node{}, false
}

// cmdCheckScript finds the argument after the shell's -c flag and
// reports it when it is not a constant.
func cmdCheckScript(p *checkers.Pass, call syntax.Node, shell, flag string) {
	args := cmdArgs(p, call)
	for i, a := range args {
		lit, ok := strLiteral(locPeel(a))
		if !ok || strings.ToLower(lit) != flag && !(flag == "-c" && len(lit) > 1 && lit[0] == '-' && strings.HasSuffix(lit, "c") && !strings.HasPrefix(lit, "--")) {
			continue
		}
		if i+1 >= len(args) {
			return
		}
		script := args[i+1]
		s := locPeel(script)
		if _, ok := strLiteral(s); ok || cmdConstant(p, s) {
			return
		}
		o := injOriginOf(p, s, 0)
		adjust := cmdAdjust(o.kind)
		what := "a string built at run time"
		switch {
		case o.kind > injNone:
			what = o.what
		case s.Kind() == "macro_invocation":
			what = "format!"
		default:
			adjust -= 0.1
		}
		msg := fmt.Sprintf("%s %s runs a script built from %s: shell metacharacters in it run other commands; pass the values as separate .arg()s to the program itself", shell, lit, what)
		p.Report(checkers.Finding{Rule: ruleCmdInjection, Span: checkers.NodeSpan(script), Adjust: adjust, Message: msg})
		return
	}
}

// cmdArgs lists the arguments given to the command, in order: the
// .arg()/.args() calls chained on Command::new(…) and, when it is bound by
// a let, the .arg()/.args() calls on that binding later in the function.
func cmdArgs(p *checkers.Pass, newCall syntax.Node) []syntax.Node {
	var out []syntax.Node
	top := newCall
	for {
		fe := top.Parent()
		if fe.Kind() != "field_expression" || fe.Parent().Kind() != "call_expression" {
			break
		}
		top = fe.Parent()
		out = cmdAppendArgs(out, top)
	}
	let := top.Parent()
	if let.Kind() != "let_declaration" {
		return out
	}
	pat := let.Field("pattern")
	if pat.Kind() == "mut_pattern" {
		pat = pat.NamedChild(pat.NamedChildCount() - 1)
	}
	if pat.Kind() != "identifier" {
		return out
	}
	let.Parent().Walk(func(n syntax.Node) bool {
		if n.Start() < let.End() || n.Kind() != "call_expression" {
			return true
		}
		for r := n; r.Kind() == "call_expression"; {
			_, method, recv := locCallName(r)
			if !method {
				break
			}
			if recv.Kind() == "identifier" && recv.Text() == pat.Text() {
				// cmd.arg(a).arg(b): collect the chain from the innermost call
				out = cmdAppendChain(out, r)
				return false
			}
			r = recv
		}
		return true
	})
	return out
}

// cmdAppendChain appends the args of a method chain that starts at call
// c (cmd.arg(a)) and continues upward (.arg(b)).
func cmdAppendChain(out []syntax.Node, c syntax.Node) []syntax.Node {
	out = cmdAppendArgs(out, c)
	for {
		fe := c.Parent()
		if fe.Kind() != "field_expression" || fe.Parent().Kind() != "call_expression" {
			return out
		}
		c = fe.Parent()
		out = cmdAppendArgs(out, c)
	}
}

// cmdAppendArgs appends the arguments that call c adds: .arg(x) adds x,
// .args([a, b]) adds a and b.
func cmdAppendArgs(out []syntax.Node, c syntax.Node) []syntax.Node {
	name, method, _ := locCallName(c)
	a := Args(c)
	if !method || len(a) != 1 {
		return out
	}
	switch name {
	case "arg":
		return append(out, a[0])
	case "args":
		list := locPeel(a[0])
		switch list.Kind() {
		case "array_expression":
			for e := range list.NamedChildren() {
				out = append(out, e)
			}
		case "macro_invocation":
			tt := list.NamedChild(1)
			for e := range tt.NamedChildren() {
				out = append(out, e)
			}
		default:
			out = append(out, list)
		}
	}
	return out
}

// strLiteral returns the contents of a string literal node.
func strLiteral(n syntax.Node) (string, bool) {
	switch n.Kind() {
	case "string_literal", "raw_string_literal":
		var b strings.Builder
		for c := range n.NamedChildren() {
			if c.Kind() == "string_content" || c.Kind() == "escape_sequence" {
				b.WriteString(c.Text())
			}
		}
		return b.String(), true
	}
	return "", false
}

// cmdConstant reports whether e is a constant: a SCREAMING_CASE name, or
// a let bound to a literal.
func cmdConstant(p *checkers.Pass, e syntax.Node) bool {
	switch e.Kind() {
	case "identifier":
		if locIsConstName(e.Text()) {
			return true
		}
		if b, ok := locResolve(p, e); ok && b.Direct && b.Value.Valid() {
			v := locPeel(b.Value)
			_, lit := strLiteral(v)
			return lit || v.Kind() == "identifier" && locIsConstName(v.Text())
		}
	case "scoped_identifier":
		return locIsConstName(e.Field("name").Text())
	}
	return false
}

// sqlSinks are the query-running functions and methods of rusqlite,
// postgres, mysql, sqlx and diesel.
var sqlSinks = []string{
	"query", "execute", "prepare", "query_as", "sql_query", "query_map", "query_row", "execute_batch",
	"prepare_cached", "batch_execute", "query_one", "query_opt", "simple_query", "query_scalar",
	"query_drop", "query_first", "exec", "exec_drop", "query_iter",
}

var (
	sqlWordRE = checkers.LazyRegexp(`(?i)\b(select|insert|update|delete|where)\b`)
	sqlRE     = checkers.LazyRegexp(`(?is)\bselect\b.+\bfrom\b|\binsert\s+into\b|\bupdate\s+\S+\s+set\b|\bdelete\s+from\b|\bwhere\s+\S+\s*(=|<|>|!=|\blike\b|\bin\b)|\border\s+by\b`)
)

// triageSQL keeps query calls outside test items whose item holds a
// string with an SQL keyword (whole word, any case).
func triageSQL(lx *checkers.Lexed, tok int) bool {
	if !lx.Is(tok+1, "(") && !(lx.Is(tok+1, "::") && lx.Is(tok+2, "<")) {
		return false
	}
	it := lx.ItemOf(tok)
	if it < 0 || lx.Items[it].Test {
		return false
	}
	for j := lx.Items[it].TokStart; j < lx.Items[it].TokEnd; j++ {
		if lx.Kind(j) == checkers.TokString && sqlWordRE().MatchString(locTok(lx, j)) {
			return true
		}
	}
	return false
}

// checkSQL flags a query whose SQL text is built at run time (format!,
// +, push_str) with interpolated values that are not constants or
// integers.
func checkSQL(p *checkers.Pass, h checkers.Hit) {
	call, _, ok := MethodCallAt(h)
	if !ok {
		call, ok = CallAt(h)
	}
	if !ok || locInTest(p, call) {
		return
	}
	args := Args(call)
	if len(args) == 0 {
		return
	}
	b := sqlBuilt(p, locPeel(args[0]), 0)
	if !b.ok || !sqlRE().MatchString(b.text) || len(b.values) == 0 {
		return
	}
	adjust := 0.0
	if strings.Contains(b.text, "$1") || strings.Contains(b.text, "?") {
		adjust -= 0.2 // placeholders for some values; the interpolated one may be a table name
	}
	o := injOrigin{}
	for _, v := range b.values {
		o = o.stronger(injOriginOf(p, v, 0))
	}
	what := "run-time values"
	if o.kind > injNone {
		what = o.what
		adjust += cmdAdjust(o.kind)
	}
	names := make([]string, 0, len(b.values))
	for _, v := range b.values {
		names = append(names, "`"+strings.Join(strings.Fields(v.Text()), "")+"`")
	}
	msg := fmt.Sprintf("SQL built with %s interpolates %s (from %s) into the query text passed to %s: use placeholders and bind the values",
		b.how, strings.Join(names, ", "), what, h.Word)
	p.Report(checkers.Finding{Rule: ruleSQLInjection, Span: checkers.NodeSpan(args[0]), Adjust: adjust, Message: msg})
}

// sqlText is an SQL string built at run time.
type sqlText struct {
	ok     bool
	text   string        // the literal parts, joined
	values []syntax.Node // the interpolated non-constant values
	how    string        // "format!", "string concatenation", "push_str"
}

// sqlBuilt describes how expression e builds a string.
func sqlBuilt(p *checkers.Pass, e syntax.Node, depth int) sqlText {
	if depth > 4 {
		return sqlText{}
	}
	switch e.Kind() {
	case "macro_invocation":
		if locMacroName(e) != "format" {
			return sqlText{}
		}
		return sqlFormat(p, e)
	case "binary_expression":
		if e.Field("operator").Text() != "+" {
			return sqlText{}
		}
		var out sqlText
		sqlConcat(p, e, &out)
		out.how = "string concatenation"
		out.ok = out.text != ""
		return out
	case "identifier":
		b, ok := locResolve(p, e)
		if !ok || !b.Direct || !b.Value.Valid() {
			return sqlText{}
		}
		out := sqlBuilt(p, locPeel(b.Value), depth+1)
		if lit, ok := strLiteral(locPeel(sqlUnwrapNew(b.Value))); ok {
			out = sqlText{ok: true, text: lit, how: "push_str"}
		}
		sqlPushes(p, b, e, &out)
		return out
	}
	return sqlText{}
}

// sqlUnwrapNew returns x for String::from(x) and x.to_string().
func sqlUnwrapNew(v syntax.Node) syntax.Node {
	if v.Kind() == "call_expression" {
		if name, method, _ := locCallName(v); !method && name == "from" && len(Args(v)) == 1 {
			return Args(v)[0]
		}
	}
	return v
}

// sqlFormat reads a format! invocation: its format string and the
// arguments that are not constants or integers.
func sqlFormat(p *checkers.Pass, m syntax.Node) sqlText {
	out := sqlText{how: "format!"}
	tt := m.NamedChild(1)
	first := true
	for c := range tt.NamedChildren() {
		if first {
			lit, ok := strLiteral(c)
			if !ok {
				return sqlText{}
			}
			out.text, out.ok, first = lit, true, false
			for _, name := range injInlineArgs(lit) {
				if b, ok := injFindBind(p, m, name); ok && !sqlHarmlessBind(p, b) {
					out.values = append(out.values, b.Pat)
				}
			}
			continue
		}
		if c.Kind() == "identifier" && c.PrevSibling().Kind() != "." && c.NextSibling().Kind() != "=" && c.NextSibling().Kind() != "." && !sqlHarmless(p, c) {
			out.values = append(out.values, c)
		}
	}
	return out
}

// sqlConcat collects the literal parts and values of a + chain.
func sqlConcat(p *checkers.Pass, e syntax.Node, out *sqlText) {
	if e.Kind() == "binary_expression" && e.Field("operator").Text() == "+" {
		sqlConcat(p, e.Field("left"), out)
		sqlConcat(p, e.Field("right"), out)
		return
	}
	v := locPeel(e)
	if lit, ok := strLiteral(v); ok {
		out.text += lit
		return
	}
	if !sqlHarmless(p, v) {
		out.values = append(out.values, v)
	}
}

// sqlPushes adds the q.push_str(x) / q += x / write!(q, …) that extend
// binding b before use.
func sqlPushes(p *checkers.Pass, b locBind, use syntax.Node, out *sqlText) {
	b.Scope.Walk(func(n syntax.Node) bool {
		if n.Start() >= use.Start() {
			return false
		}
		switch n.Kind() {
		case "call_expression":
			name, method, recv := locCallName(n)
			if method && (name == "push_str" || name == "push") && recv.Text() == b.Name && len(Args(n)) == 1 {
				sqlAddPiece(p, locPeel(Args(n)[0]), out)
			}
		case "compound_assignment_expr":
			if n.Field("left").Text() == b.Name && n.Field("operator").Text() == "+=" {
				sqlAddPiece(p, locPeel(n.Field("right")), out)
			}
		}
		return true
	})
}

func sqlAddPiece(p *checkers.Pass, v syntax.Node, out *sqlText) {
	if lit, ok := strLiteral(v); ok {
		out.text += lit
		out.ok = true
		return
	}
	if v.Kind() == "macro_invocation" && locMacroName(v) == "format" {
		f := sqlFormat(p, v)
		out.text += f.text
		out.values = append(out.values, f.values...)
		out.ok = out.ok || f.ok
		return
	}
	if !sqlHarmless(p, v) {
		out.values = append(out.values, v)
		out.how = "push_str"
	}
}

// sqlHarmless reports whether an interpolated value cannot carry SQL: a
// literal, a constant, an integer or boolean.
func sqlHarmless(p *checkers.Pass, v syntax.Node) bool {
	v = locPeel(v)
	if locIsLiteral(v) || cmdConstant(p, v) {
		return true
	}
	if castInt(locType(p, v, 0)) != "" {
		return true
	}
	if v.Kind() == "identifier" {
		if b, ok := locResolve(p, v); ok {
			return sqlHarmlessBind(p, b)
		}
	}
	return false
}

func sqlHarmlessBind(p *checkers.Pass, b locBind) bool {
	if b.Type.Valid() {
		t := locTypeText(b.Type)
		return castInt(t) != "" || t == "bool" || t == "f64" || t == "f32"
	}
	if b.Direct && b.Value.Valid() {
		v := locPeel(b.Value)
		return locIsLiteral(v) || cmdConstant(p, v) || castInt(locType(p, v, 0)) != ""
	}
	return locIsConstName(b.Name)
}
