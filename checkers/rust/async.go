package rust

import (
	"fmt"
	"strings"

	"github.com/jsec/jsec/checkers"
	"github.com/jsec/jsec/checkers/syntax"
)

// Async family: blocking calls on an executor thread. Rules are in
// rules/rust_async.go.
const ruleBlockingCall = "rust.async.blocking-call"

// asyncCheckers is the async family; its rules are in rules/rust_async.go.
var asyncCheckers = []*checkers.Checker{
	{
		Name:     "rust/async/blocking-call",
		Rules:    []string{ruleBlockingCall},
		Triggers: []string{"sleep", "fs", "File", "TcpStream", "TcpListener", "UdpSocket", "stdin", "blocking", "Command"},
		Triage:   triageBlocking,
		Check:    checkBlocking,
	},
}

// triageBlocking keeps the trigger in call position inside items that
// hold async code, outside tests.
func triageBlocking(lx *checkers.Lexed, tok int) bool {
	switch locTok(lx, tok) {
	case "sleep", "stdin":
		if !lx.Is(tok+1, "(") || lx.Is(tok-1, ".") {
			return false
		}
	case "blocking":
		if !lx.Is(tok-1, "::") || !lx.Is(tok+1, "::") {
			return false
		}
	default:
		if !lx.Is(tok+1, "::") {
			return false
		}
	}
	it := lx.ItemOf(tok)
	if it < 0 || lx.Items[it].Test {
		return false
	}
	for j := lx.Items[it].TokStart; j < lx.Items[it].TokEnd; j++ {
		if lx.Is(j, "async") {
			return true
		}
	}
	return false
}

// asyncAdvice says what to use instead of each kind of blocking call.
var asyncAdvice = map[string]string{
	"sleep":    "tokio::time::sleep(…).await",
	"fs":       "tokio::fs (or spawn_blocking)",
	"file":     "tokio::fs::File (or spawn_blocking)",
	"net":      "tokio::net with .await",
	"stdin":    "tokio::io::stdin() with .await (or spawn_blocking)",
	"blocking": "the async reqwest::Client with .await",
	"process":  "tokio::process::Command with .await",
}

// checkBlocking flags a blocking std call that runs directly in an async
// fn or async block: not awaited (async equivalents must be), and not
// inside a spawn_blocking, block_in_place or thread::spawn closure.
func checkBlocking(p *checkers.Pass, h checkers.Hit) {
	call, kind, ok := blockingCall(p, h)
	if !ok || locInTest(p, call) || asyncAwaited(call) {
		return
	}
	where, adjust, ok := asyncContext(call)
	if !ok {
		return
	}
	what := strings.Join(strings.Fields(call.Text()), "")
	if len(what) > 60 {
		what = what[:57] + "..."
	}
	msg := fmt.Sprintf("%s blocks the executor thread inside %s: other tasks on this worker stall until it returns; use %s",
		what, where, asyncAdvice[kind])
	p.Report(checkers.Finding{Rule: ruleBlockingCall, Span: checkers.NodeSpan(call), Adjust: adjust, Message: msg})
}

// blockingCall returns the blocking call at the hit and its kind.
func blockingCall(p *checkers.Pass, h checkers.Hit) (syntax.Node, string, bool) {
	switch h.Word {
	case "sleep":
		call, ok := CallAt(h)
		path := Path(call)
		if !ok || strings.HasPrefix(path, "tokio") || strings.HasPrefix(path, "async_std") {
			return syntax.Node{}, "", false
		}
		if path == "sleep" && !asyncImportsThreadSleep(p) || path != "sleep" && !strings.HasSuffix(path, "thread::sleep") {
			return syntax.Node{}, "", false
		}
		return call, "sleep", true
	case "stdin":
		call, ok := CallAt(h)
		if !ok || asyncRootedAt(call, "tokio", "async_std") {
			return syntax.Node{}, "", false
		}
		top := asyncChainTop(call)
		if top.Index() == call.Index() {
			return syntax.Node{}, "", false // stdin() alone does not block
		}
		return top, "stdin", true
	case "Command":
		call, ok := cmdNewCall(h)
		if !ok || asyncRootedAt(call, "tokio", "async_std", "async_process", "smol") {
			return syntax.Node{}, "", false
		}
		top := asyncChainTop(call)
		if name, method, _ := locCallName(top); !method || name != "output" && name != "status" {
			return syntax.Node{}, "", false
		}
		return top, "process", true
	}
	// fs::read(…), std::fs::File::open(…), File::create(…),
	// TcpStream::connect(…), reqwest::blocking::get(…)
	n := h.Node
	for n.Parent().Kind() == "scoped_identifier" {
		n = n.Parent()
	}
	call := n.Parent()
	if call.Kind() != "call_expression" || call.Field("function").Index() != n.Index() || asyncRootedAt(call, "tokio", "async_std", "smol", "futures", "async_fs", "compio", "monoio", "glommio") {
		return syntax.Node{}, "", false
	}
	name, _, _ := locCallName(call)
	switch h.Word {
	case "fs":
		return call, "fs", asyncFsBlocking[name]
	case "File":
		return call, "file", name == "open" || name == "create" || name == "create_new"
	case "blocking":
		return call, "blocking", true
	default:
		return call, "net", name == "connect" || name == "bind" || name == "connect_timeout"
	}
}

// asyncFsBlocking are the std::fs functions that touch the disk (not
// DirBuilder::new, OpenOptions::new, Permissions …).
var asyncFsBlocking = map[string]bool{
	"read": true, "read_to_string": true, "write": true, "read_dir": true, "metadata": true,
	"symlink_metadata": true, "canonicalize": true, "copy": true, "rename": true, "remove_file": true,
	"remove_dir": true, "remove_dir_all": true, "create_dir": true, "create_dir_all": true,
	"hard_link": true, "read_link": true, "set_permissions": true, "symlink": true, "symlink_file": true,
	"symlink_dir": true, "open": true, "create": true,
}

// asyncRootedAt reports whether a call's path starts with one of the
// async runtimes' crates.
func asyncRootedAt(call syntax.Node, roots ...string) bool {
	path := Path(call)
	for _, r := range roots {
		if strings.HasPrefix(path, r+"::") {
			return true
		}
	}
	return false
}

// asyncChainTop climbs a method chain: stdin() → stdin().lock().read_line(…).
func asyncChainTop(call syntax.Node) syntax.Node {
	top := call
	for {
		fe := top.Parent()
		if fe.Kind() != "field_expression" || fe.Parent().Kind() != "call_expression" {
			return top
		}
		top = fe.Parent()
	}
}

// asyncAwaited reports whether the value of call is awaited (then it is
// the async API of the same name): f(…).await, f(…)?.await, f(…).await?.
func asyncAwaited(call syntax.Node) bool {
	n := call
	for {
		par := n.Parent()
		switch par.Kind() {
		case "await_expression":
			return true
		case "try_expression", "parenthesized_expression":
			n = par
			continue
		case "field_expression":
			if par.Parent().Kind() == "call_expression" {
				n = par.Parent() // a chain such as .read_to_string(&mut s).await
				continue
			}
		}
		return false
	}
}

// asyncContext finds the async fn or async block that runs n directly.
// A spawn_blocking, block_in_place or thread::spawn closure moves the
// work off the executor (silent); any other closure is assumed to run
// in place, with lower confidence.
func asyncContext(n syntax.Node) (string, float64, bool) {
	adjust := 0.0
	for q := n.Parent(); q.Valid(); q = q.Parent() {
		switch q.Kind() {
		case "async_block":
			return "an async block", adjust, true
		case "closure_expression":
			if strings.HasPrefix(q.Text(), "async") {
				return "an async closure", adjust, true
			}
			if c := q.Parent().Parent(); c.Kind() == "call_expression" && q.Parent().Kind() == "arguments" {
				name, _, _ := locCallName(c)
				switch name {
				case "spawn_blocking", "block_in_place", "spawn", "scope", "unblock", "block_on":
					return "", 0, false
				}
				if asyncAwaited(c) {
					// asyncify(|| std::fs::read(p)).await: a closure handed to
					// an awaited call runs on a blocking pool.
					return "", 0, false
				}
			}
			adjust = -0.1
		case "function_item":
			if HasModifier(q, "async") {
				return "async fn " + q.Field("name").Text() + "()", adjust, true
			}
			return "", 0, false
		}
	}
	return "", 0, false
}

type asyncSleepKey struct{}

// asyncImportsThreadSleep reports whether the file imports
// std::thread::sleep, so that a bare sleep(…) is the blocking one.
func asyncImportsThreadSleep(p *checkers.Pass) bool {
	return checkers.Memo(p, asyncSleepKey{}, func() bool {
		lx := p.Lex
		for i := 0; i+2 < len(lx.Tokens); i++ {
			if !lx.Is(i, "use") {
				continue
			}
			thread := false
			for j := i + 1; j < len(lx.Tokens) && !lx.Is(j, ";"); j++ {
				thread = thread || lx.Is(j, "thread")
				if thread && lx.Is(j, "sleep") {
					return true
				}
			}
		}
		return false
	})
}
