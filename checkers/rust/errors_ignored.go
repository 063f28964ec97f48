package rust

import (
	"fmt"
	"sort"
	"strings"

	"github.com/jsec/jsec/checkers"
	"github.com/jsec/jsec/checkers/syntax"
)

// ignoredOp describes an API whose Result matters when it is dropped.
type ignoredOp struct {
	what   string  // what goes unnoticed
	adjust float64 // confidence adjustment
	// args is the number of arguments the method takes (-1: any); it
	// tells io::Write::write(buf) from RwLock::write().
	args int
}

var ignoredOps = map[string]ignoredOp{
	"write":             {"a failed or partial write", 0, -1},
	"writeln":           {"a failed write", 0, -1},
	"write_all":         {"a failed write", 0.05, -1},
	"flush":             {"a failed flush (buffered data may be lost)", 0, 0},
	"sync_all":          {"a failed fsync (data may not be on disk)", 0.1, 0},
	"sync_data":         {"a failed fsync (data may not be on disk)", 0.1, 0},
	"set_len":           {"a failed truncation", 0, 1},
	"remove_file":       {"a file that was not removed", 0, -1},
	"remove_dir":        {"a directory that was not removed", 0, -1},
	"remove_dir_all":    {"a directory that was not removed", 0, -1},
	"rename":            {"a failed rename", 0, -1},
	"copy":              {"a failed copy", 0, -1},
	"create_dir":        {"a directory that was not created", -0.1, -1},
	"create_dir_all":    {"a directory that was not created", -0.1, -1},
	"set_permissions":   {"permissions that were not changed", 0.15, -1},
	"set_readonly":      {"permissions that were not changed", 0.1, 1},
	"send":              {"a message the receiver never got", -0.15, 1},
	"try_send":          {"a message the receiver never got", -0.15, 1},
	"kill":              {"a process that was not killed", 0.05, -1},
	"wait":              {"a child process that was not reaped", -0.05, 0},
	"join":              {"a panic in the joined thread", -0.05, 0},
	"shutdown":          {"a failed socket shutdown", -0.15, -1},
	"set_read_timeout":  {"a socket left without a timeout", 0.05, 1},
	"set_write_timeout": {"a socket left without a timeout", 0.05, 1},
	"set_nonblocking":   {"a socket left in the wrong mode", 0, 1},
	"commit":            {"a transaction that did not commit", 0.1, 0},
	"execute":           {"a failed SQL statement", 0.05, -1},
	"seek":              {"a failed seek (later I/O hits the wrong offset)", 0, 1},
}

func ignoredTriggers() []string {
	out := []string{"ok"}
	for k := range ignoredOps {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// triageIgnored keeps "let _ = <chain with the API>;" and "<expr>.ok();"
// outside test items.
func triageIgnored(lx *checkers.Lexed, tok int) bool {
	it := lx.ItemOf(tok)
	if it < 0 || lx.Items[it].Test {
		return false
	}
	if lx.Is(tok, "ok") {
		return lx.Is(tok-1, ".") && lx.Is(tok+1, "(") && lx.Is(tok+2, ")") && lx.Is(tok+3, ";")
	}
	s := locChainStart(lx, tok+1)
	return lx.Is(s-1, "=") && lx.Is(s-2, "_") && lx.Is(s-3, "let")
}

func checkIgnored(p *checkers.Pass, h checkers.Hit) {
	if locInTest(p, h.Node) {
		return
	}
	if h.Word == "ok" {
		checkIgnoredOk(p, h)
		return
	}
	call, name, recv, ok := ignoredCall(h)
	if !ok {
		return
	}
	op := ignoredOps[name]
	if op.args >= 0 && recv.Valid() && len(Args(call)) != op.args {
		return
	}
	// Climb the chain (.map_err(..), .context(..), .ok()) to the let.
	top := call
	for {
		fe := top.Parent()
		if fe.Kind() != "field_expression" || fe.Field("value").Index() != top.Index() || fe.Parent().Kind() != "call_expression" {
			break
		}
		top = fe.Parent()
	}
	let := top.Parent()
	if let.Kind() != "let_declaration" || let.Field("value").Index() != top.Index() || let.Field("pattern").Kind() != "_" {
		return
	}
	adjust, silent := ignoredContext(p, call, name, recv)
	if silent {
		return
	}
	msg := fmt.Sprintf("`let _ =` discards the Result of %s: %s goes unnoticed", ignoredSubject(call), op.what)
	p.Report(checkers.Finding{Rule: ruleIgnoredResult, Span: checkers.NodeSpan(let), Adjust: op.adjust + adjust, Message: msg})
}

// ignoredCall returns the call, macro invocation or method call at the hit
// and the receiver of a method call.
func ignoredCall(h checkers.Hit) (call syntax.Node, name string, recv syntax.Node, ok bool) {
	if c, r, ok := MethodCallAt(h); ok {
		return c, h.Word, r, true
	}
	if c, ok := CallAt(h); ok {
		if Path(c) == h.Word && h.Word != "kill" {
			return syntax.Node{}, "", syntax.Node{}, false // a local function of that name
		}
		return c, h.Word, syntax.Node{}, true
	}
	if m, ok := locMacroAt(h); ok && (h.Word == "write" || h.Word == "writeln") {
		return m, h.Word, syntax.Node{}, true
	}
	return syntax.Node{}, "", syntax.Node{}, false
}

// ignoredContext lowers the confidence, or silences the finding, where a
// dropped error carries no information: writes to stdout/stderr, to a
// String or a fmt::Formatter, cleanup inside Drop.
func ignoredContext(p *checkers.Pass, call syntax.Node, name string, recv syntax.Node) (float64, bool) {
	target, text := recv, recv.Text()
	if call.Kind() == "macro_invocation" {
		// write!(target, ...): the tokens before the first comma.
		tt := call.NamedChild(1)
		text = ""
		for c := range tt.Children() {
			if c.Kind() == "," {
				break
			}
			if c.Kind() != "(" {
				text += c.Text()
			}
		}
		target = tt.NamedChild(0)
		if target.Text() != text {
			target = syntax.Node{}
		}
	}
	if strings.Contains(text, "stdout") || strings.Contains(text, "stderr") {
		return 0, true
	}
	ty := ""
	switch target.Kind() {
	case "identifier":
		ty = locDeclared(p, target)
	case "field_expression":
		ty = locFieldTypes(p)[target.Field("field").Text()]
	}
	if strings.Contains(ty, "Formatter") || strings.HasPrefix(ty, "String") {
		return 0, true
	}
	if call.Kind() == "macro_invocation" && !ignoredIOType(ty) {
		return -0.15, false // formatting into something that may be an in-memory buffer
	}
	if implTrait(call) == "Drop" {
		return -0.2, false // Drop cannot return the error
	}
	return 0, false
}

// ignoredIOType reports whether a declared type is a file, socket or
// writer whose writes can fail.
func ignoredIOType(ty string) bool {
	for _, w := range []string{"File", "TcpStream", "UnixStream", "BufWriter", "LineWriter", "Stdout", "Stderr", "io::Write", "dynWrite", "implWrite"} {
		if strings.Contains(ty, w) {
			return true
		}
	}
	return false
}

// checkIgnoredOk flags "<expr>.ok();": the Result is turned into an
// Option and dropped.
func checkIgnoredOk(p *checkers.Pass, h checkers.Hit) {
	call, recv, ok := MethodCallAt(h)
	if !ok || len(Args(call)) != 0 || call.Parent().Kind() != "expression_statement" {
		return
	}
	inner := locPeel(recv)
	adjust := -0.1
	what := "an error"
	if inner.Kind() == "call_expression" || inner.Kind() == "macro_invocation" {
		var name string
		var r syntax.Node
		if inner.Kind() == "macro_invocation" {
			name = locMacroName(inner)
		} else {
			name, _, r = locCallName(inner)
		}
		if op, ok := ignoredOps[name]; ok {
			a, silent := ignoredContext(p, inner, name, r)
			if silent {
				return
			}
			adjust, what = op.adjust+a, op.what
		}
	}
	msg := fmt.Sprintf(".ok() discards the Result of %s: %s goes unnoticed", ignoredSubject(recv), what)
	p.Report(checkers.Finding{Rule: ruleIgnoredResult, Span: checkers.NodeSpan(call.Parent()), Adjust: adjust, Message: msg})
}

func ignoredSubject(n syntax.Node) string {
	lines := strings.Split(n.Text(), "\n")
	for i, l := range lines {
		if c := strings.Index(l, "//"); c >= 0 {
			lines[i] = l[:c]
		}
	}
	s := strings.Join(strings.Fields(strings.Join(lines, " ")), " ")
	s = strings.ReplaceAll(strings.ReplaceAll(s, " .", "."), ". ", ".")
	if len(s) > 60 {
		s = s[:57] + "..."
	}
	return s
}
