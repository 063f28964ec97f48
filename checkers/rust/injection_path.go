package rust

import (
	"fmt"
	"strings"

	"github.com/jsec/jsec/checkers"
	"github.com/jsec/jsec/checkers/syntax"
)

// pathSourceTriggers are the identifiers that bring outside input into a
// function: env::args/var, read_line, and web-handler extractors.
var pathSourceTriggers = []string{
	"args", "args_os", "var", "var_os", "read_line", "match_info", "query_string",
	"Path", "Query", "Form", "Json", "HttpRequest",
}

// pathSinks maps file-system functions (the last path segment; the
// module must be fs, File or a tokio/async-std equivalent) to the index
// of their path argument(s).
var pathSinks = map[string][]int{
	"open": {0}, "create": {0}, "read": {0}, "read_to_string": {0}, "write": {0}, "remove_file": {0},
	"remove_dir": {0}, "remove_dir_all": {0}, "create_dir": {0}, "create_dir_all": {0}, "copy": {0, 1},
	"rename": {0, 1}, "read_dir": {0}, "set_permissions": {0}, "hard_link": {0, 1}, "symlink": {1},
	"open_options": {0},
}

// triagePathSource keeps sources in items outside tests that also touch
// the file system.
func triagePathSource(lx *checkers.Lexed, tok int) bool {
	switch w := locTok(lx, tok); w {
	case "args", "args_os", "var", "var_os":
		if !lx.Is(tok-1, "::") || !lx.Is(tok+1, "(") {
			return false
		}
	case "read_line", "match_info", "query_string":
		if !lx.Is(tok-1, ".") {
			return false
		}
	case "HttpRequest":
		if !lx.Is(tok-1, ":") && !lx.Is(tok-1, "&") {
			return false
		}
	default:
		if !lx.Is(tok+1, "<") || !lx.Is(tok-1, ":") && !lx.Is(tok-1, "::") {
			return false
		}
	}
	it := lx.ItemOf(tok)
	if it < 0 || lx.Items[it].Test {
		return false
	}
	for j := lx.Items[it].TokStart; j < lx.Items[it].TokEnd; j++ {
		switch locTok(lx, j) {
		case "File", "fs", "OpenOptions", "NamedFile", "open", "create":
			return true
		}
	}
	return false
}

type pathFnKey struct{ fn int }

// checkPathSource analyzes, once per function, every file-system call
// whose path derives from outside input. Input from a web request is
// reported wherever it flows; command-line, environment and stdin input
// only when it is joined onto a base directory (the code means to
// confine the path, and "../" escapes it). Functions that canonicalize
// and check starts_with, or reject ".." components, are silent.
func checkPathSource(p *checkers.Pass, h checkers.Hit) {
	fn := EnclosingFunction(h.Node)
	if !fn.Valid() || locInTest(p, h.Node) {
		return
	}
	done := true
	checkers.Memo(p, pathFnKey{fn.Index()}, func() bool { done = false; return true })
	if done || pathSanitized(fn) {
		return
	}
	fn.Field("body").Walk(func(n syntax.Node) bool {
		if n.Kind() != "call_expression" {
			return true
		}
		for _, a := range pathSinkArgs(n) {
			o := injOriginOf(p, locPeel(a), 0)
			if o.kind < injEnv || o.kind != injRequest && !o.joined {
				continue
			}
			adjust := 0.0
			switch o.kind {
			case injRequest:
				adjust = 0.15
			case injEnv, injCLI:
				adjust = -0.15
			case injStdin:
				adjust = -0.05
			}
			how := "used as"
			if o.joined {
				how = "joined into"
			}
			msg := fmt.Sprintf("%s is %s the path passed to %s without canonicalize()+starts_with(base) or a check for \"..\" components: it can name files outside the intended directory",
				o.what, how, strings.Join(strings.Fields(n.Field("function").Text()), ""))
			p.Report(checkers.Finding{Rule: rulePathTraverse, Span: checkers.NodeSpan(a), Adjust: adjust, Message: msg})
		}
		return true
	})
}

// pathSinkArgs returns the path arguments of a file-system call:
// File::open(p), fs::write(p, …), tokio::fs::read(p),
// OpenOptions::new()….open(p), NamedFile::open(p).
func pathSinkArgs(call syntax.Node) []syntax.Node {
	name, method, recv := locCallName(call)
	idx, ok := pathSinks[name]
	if !ok {
		return nil
	}
	args := Args(call)
	if method {
		if name != "open" || !strings.Contains(recv.Text(), "OpenOptions") && !strings.Contains(recv.Text(), "options()") {
			return nil
		}
	} else {
		mod := call.Field("function").Field("path").Text()
		last := mod[strings.LastIndex(mod, ":")+1:]
		if last != "fs" && last != "File" && last != "NamedFile" && last != "ServeFile" && last != "ServeDir" {
			return nil
		}
	}
	var out []syntax.Node
	for _, i := range idx {
		if i < len(args) {
			out = append(out, args[i])
		}
	}
	return out
}

// pathSanitized reports whether fn confines paths itself: canonicalize
// with starts_with, a look at the path's components() (ParentDir,
// Normal), a contains("..") test, or a sanitize/normalize helper.
func pathSanitized(fn syntax.Node) bool {
	t := fn.Text()
	return strings.Contains(t, "canonicalize") && strings.Contains(t, "starts_with") ||
		strings.Contains(t, "ParentDir") || strings.Contains(t, `contains("..")`) || strings.Contains(t, ".components()") ||
		strings.Contains(t, "sanitize") || strings.Contains(t, "normalize")
}

// triageTOCTOU keeps path checks outside test items whose item also
// creates, writes, removes or changes files.
func triageTOCTOU(lx *checkers.Lexed, tok int) bool {
	if !lx.Is(tok+1, "(") {
		return false
	}
	it := lx.ItemOf(tok)
	if it < 0 || lx.Items[it].Test {
		return false
	}
	for j := lx.Items[it].TokStart; j < lx.Items[it].TokEnd; j++ {
		if _, ok := toctouUses[locTok(lx, j)]; ok {
			return true
		}
	}
	return false
}

// toctouUses are the operations that act on a path after a check; the
// value is the index of the path argument (-1: the last).
var toctouUses = map[string]int{
	"create": 0, "write": 0, "remove_file": 0, "remove_dir": 0, "remove_dir_all": 0,
	"set_permissions": 0, "rename": -1, "copy": -1, "symlink": -1, "hard_link": -1, "open": 0,
}

// checkTOCTOU flags a file-system change on a path after an exists()
// (is_file, is_dir, metadata) check of the same path in the function: the
// file can appear, vanish or become a symlink in between.
func checkTOCTOU(p *checkers.Pass, h checkers.Hit) {
	key, check, ok := toctouCheck(h)
	if !ok || locInTest(p, check) || !toctouInCondition(check, h.Word) {
		return
	}
	fn := EnclosingFunction(check)
	line := p.File.Lines().Line(check.Start())
	fn.Field("body").Walk(func(n syntax.Node) bool {
		if n.Start() < check.End() || n.Kind() != "call_expression" {
			return true
		}
		arg, what, ok := toctouUse(n)
		if !ok || toctouKey(arg) != key {
			return true
		}
		msg := fmt.Sprintf("%s on `%s` after the %s check on line %d: the path can be created, removed or swapped for a symlink in between; act on it once and handle the error (OpenOptions::create_new(true) to create)",
			what, key, h.Word, line)
		p.Report(checkers.Finding{Rule: ruleTOCTOU, Span: checkers.NodeSpan(n), Message: msg})
		return true
	})
}

// toctouCheck returns the checked path at the hit: p.exists(),
// Path::new(p).is_file(), fs::metadata(p), p.try_exists().
func toctouCheck(h checkers.Hit) (key string, check syntax.Node, ok bool) {
	if call, recv, ok := MethodCallAt(h); ok && len(Args(call)) == 0 {
		return toctouKey(recv), call, toctouKey(recv) != ""
	}
	if call, ok := CallAt(h); ok && (h.Word == "metadata" || h.Word == "symlink_metadata") && strings.Contains(Path(call), "fs::") {
		if a := Args(call); len(a) == 1 {
			return toctouKey(a[0]), call, toctouKey(a[0]) != ""
		}
	}
	return "", syntax.Node{}, false
}

// toctouInCondition reports whether the check decides a branch: it sits
// in an if/while condition or a match scrutinee, or (for the boolean
// checks) is bound by a let.
func toctouInCondition(check syntax.Node, word string) bool {
	for q := check; q.Valid(); q = q.Parent() {
		switch q.Parent().Kind() {
		case "if_expression", "while_expression", "match_expression":
			return q.FieldName() == "condition" || q.FieldName() == "value"
		case "let_declaration":
			return !strings.Contains(word, "metadata")
		case "block", "closure_expression", "function_item":
			return false
		}
	}
	return false
}

// toctouUse returns the path argument of a file-system change.
func toctouUse(call syntax.Node) (arg syntax.Node, what string, ok bool) {
	name, method, recv := locCallName(call)
	i, known := toctouUses[name]
	args := Args(call)
	if !known || len(args) == 0 {
		return syntax.Node{}, "", false
	}
	fnText := strings.Join(strings.Fields(call.Field("function").Text()), "")
	if method {
		// Only OpenOptions::open counts as a method; create_new(true) is
		// the race-free way to create.
		chain := recv.Text()
		if name != "open" || !strings.Contains(chain, "OpenOptions") && !strings.Contains(chain, "options()") ||
			strings.Contains(strings.ReplaceAll(chain, " ", ""), "create_new(true)") || !strings.Contains(chain, "write") && !strings.Contains(chain, "create") && !strings.Contains(chain, "append") {
			return syntax.Node{}, "", false
		}
		return args[0], "OpenOptions::open", true
	}
	mod := call.Field("function").Field("path").Text()
	last := mod[strings.LastIndex(mod, ":")+1:]
	if last != "fs" && last != "File" || name == "open" {
		return syntax.Node{}, "", false
	}
	if i < 0 {
		i = len(args) - 1
	}
	return args[i], fnText, true
}

// toctouKey normalizes a path expression: &p, p.as_path(), Path::new(&p),
// p.clone() all give "p". It returns "" for expressions that are not
// plain paths (calls, literals).
func toctouKey(e syntax.Node) string {
	for i := 0; i < 6; i++ {
		e = locPeel(e)
		if e.Kind() == "call_expression" {
			if name, method, _ := locCallName(e); !method && (name == "new" || name == "from") && strings.Contains(Path(e), "Path") && len(Args(e)) == 1 {
				e = Args(e)[0]
				continue
			}
		}
		break
	}
	switch e.Kind() {
	case "identifier", "field_expression", "self":
		if _, ok := borrowKey(e); ok {
			return strings.Join(strings.Fields(e.Text()), "")
		}
	}
	return ""
}
