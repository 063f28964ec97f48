package rust

import (
	"strings"

	"github.com/jsec/jsec/checkers"
	"github.com/jsec/jsec/checkers/syntax"
)

// This file is the source model of the injection family: where a value
// in a function comes from. It follows lets, format!, concatenation,
// Path::join and conversions inside one function; it never guesses from
// names.

// injKind ranks the origins of a value, weakest first.
type injKind int

const (
	injNone    injKind = iota
	injParam           // a parameter of the function: the caller decides
	injEnv             // an environment variable (env::var)
	injCLI             // a command-line argument (env::args)
	injStdin           // a line read from standard input or another reader
	injRequest         // an HTTP request: path, query, form, body, headers
)

// injOrigin is what a value derives from.
type injOrigin struct {
	kind   injKind
	what   string // "env::var(\"DIR\")", "request parameter `name`"
	joined bool   // joined onto a base: .join(x), .push(x), format!("{}/{}", base, x)
}

func (o injOrigin) stronger(b injOrigin) injOrigin {
	if b.kind > o.kind {
		b.joined = b.joined || o.joined && o.kind == b.kind
		return b
	}
	o.joined = o.joined || b.joined && b.kind == o.kind
	return o
}

// injRequestTypes are the parameter types of web handlers whose values
// the client controls (actix-web, axum, rocket, warp, hyper).
var injRequestTypes = []string{"Path<", "Query<", "Form<", "Json<", "web::", "HttpRequest", "Request<", "Multipart", "Bytes", "RawQuery", "HeaderMap"}

// injOriginOf returns the strongest origin of expression e.
func injOriginOf(p *checkers.Pass, e syntax.Node, depth int) injOrigin {
	if depth > 6 || !e.Valid() {
		return injOrigin{}
	}
	switch e.Kind() {
	case "parenthesized_expression", "try_expression", "reference_expression", "await_expression", "unary_expression", "type_cast_expression":
		return injOriginOf(p, e.NamedChild(0), depth+1)
	case "identifier":
		return injIdentOrigin(p, e, depth)
	case "field_expression":
		return injOriginOf(p, e.Field("value"), depth+1)
	case "index_expression":
		return injOriginOf(p, e.NamedChild(0), depth+1)
	case "macro_invocation":
		return injMacroOrigin(p, e, depth)
	case "binary_expression":
		if e.Field("operator").Text() != "+" {
			return injOrigin{}
		}
		l, r := injOriginOf(p, e.Field("left"), depth+1), injOriginOf(p, e.Field("right"), depth+1)
		if r.kind > injNone && l.kind == injNone {
			r.joined = true // "base/" + x
		}
		return l.stronger(r)
	case "call_expression":
		return injCallOrigin(p, e, depth)
	}
	return injOrigin{}
}

// injCallOrigin handles calls: sources (env::args, env::var, stdin),
// conversions that keep the origin, and joins that mark it joined.
func injCallOrigin(p *checkers.Pass, e syntax.Node, depth int) injOrigin {
	path := Path(e)
	name, method, recv := locCallName(e)
	switch {
	case strings.Contains(path, "env::args") || strings.HasSuffix(path, "args_os"):
		return injOrigin{kind: injCLI, what: "a command-line argument"}
	case strings.Contains(path, "env::var"):
		return injOrigin{kind: injEnv, what: "environment variable " + injArgText(e)}
	case !method && name == "stdin" || strings.HasSuffix(path, "io::stdin"):
		return injOrigin{kind: injStdin, what: "standard input"}
	}
	if !method {
		switch {
		case name == "from" || name == "new" && (strings.Contains(path, "Path") || strings.Contains(path, "OsStr")), name == "from_utf8", name == "from_utf8_lossy":
			o := injOrigin{}
			for _, a := range Args(e) {
				o = o.stronger(injOriginOf(p, a, depth+1))
			}
			return o
		}
		return injOrigin{}
	}
	o := injOriginOf(p, recv, depth+1)
	switch name {
	case "join", "push", "with_file_name", "with_extension":
		for _, a := range Args(e) {
			if ao := injOriginOf(p, a, depth+1); ao.kind > injNone {
				ao.joined = true
				o = o.stronger(ao)
			}
		}
	case "file_name", "file_stem", "canonicalize", "len", "is_empty", "parse", "contains", "starts_with", "ends_with":
		return injOrigin{} // a sanitizer or a value that carries no path
	case "get", "match_info", "query_string", "param", "headers", "uri", "path", "body", "nth", "next", "collect", "into_inner":
		if o.kind == injRequest || name == "nth" || name == "next" || name == "collect" {
			return o
		}
	}
	return o
}

// injArgText returns the first argument of a call as written, for
// messages ("\"HOME\"").
func injArgText(call syntax.Node) string {
	if a := Args(call); len(a) > 0 {
		t := a[0].Text()
		if len(t) > 30 {
			t = t[:27] + "..."
		}
		return t
	}
	return ""
}

// injIdentOrigin resolves an identifier: a web-handler parameter, another
// parameter, a let (whose value is followed), a buffer filled by
// read_line.
func injIdentOrigin(p *checkers.Pass, id syntax.Node, depth int) injOrigin {
	b, ok := locResolve(p, id)
	if !ok {
		return injOrigin{}
	}
	return injBindOrigin(p, b, id, depth)
}

// injBindOrigin returns the origin of binding b used at node use.
func injBindOrigin(p *checkers.Pass, b locBind, use syntax.Node, depth int) injOrigin {
	if b.Decl.Kind() == "parameter" && b.Decl.Parent().Kind() == "parameters" {
		ty := strings.Join(strings.Fields(b.Type.Text()), "")
		for _, r := range injRequestTypes {
			if strings.Contains(ty, r) {
				return injOrigin{kind: injRequest, what: "request parameter `" + b.Name + "`"}
			}
		}
		return injOrigin{kind: injParam, what: "parameter `" + b.Name + "`"}
	}
	if b.IsParam() {
		return injOrigin{}
	}
	o := injOriginOf(p, b.Value, depth+1)
	if b.Direct && b.Value.Valid() {
		o = o.stronger(injFilled(p, b, use, depth))
	}
	return o
}

// injFilled follows what the code puts into binding b before use: a
// buffer filled by r.read_line(&mut buf) or read_to_string(&mut buf),
// a PathBuf extended by p.push(x), a String by s.push_str(x).
func injFilled(p *checkers.Pass, b locBind, use syntax.Node, depth int) injOrigin {
	var o injOrigin
	b.Scope.Walk(func(n syntax.Node) bool {
		if n.Start() >= use.Start() {
			return false
		}
		if n.Kind() != "call_expression" {
			return true
		}
		name, method, recv := locCallName(n)
		switch {
		case !method:
		case name == "read_line" || name == "read_to_string":
			for _, a := range Args(n) {
				if strings.Join(strings.Fields(a.Text()), "") == "&mut"+b.Name {
					o = o.stronger(injOrigin{kind: injStdin, what: "a line read from " + strings.Join(strings.Fields(recv.Text()), "")})
				}
			}
		case (name == "push" || name == "push_str" || name == "set_file_name") && recv.Text() == b.Name && len(Args(n)) == 1:
			if a := injOriginOf(p, Args(n)[0], depth+1); a.kind > injNone {
				a.joined = true
				o = o.stronger(a)
			}
		}
		return true
	})
	return o
}

// injMacroOrigin follows the arguments of format!-like macros; a literal
// text before the first interpolation makes the result joined.
func injMacroOrigin(p *checkers.Pass, m syntax.Node, depth int) injOrigin {
	switch locMacroName(m) {
	case "format", "concat", "format_args":
	default:
		return injOrigin{}
	}
	var o injOrigin
	tt := m.NamedChild(1)
	prefix := false
	for c := range tt.NamedChildren() {
		switch c.Kind() {
		case "string_literal", "raw_string_literal":
			if i := strings.Index(c.Text(), "{"); i > 1 {
				prefix = true
			}
			for _, name := range injInlineArgs(c.Text()) {
				if b, ok := injFindBind(p, m, name); ok {
					o = o.stronger(injBindOrigin(p, b, m, depth+1))
				}
			}
		case "identifier":
			if c.PrevSibling().Kind() == "." || c.NextSibling().Kind() == "=" {
				continue // a method name, or a named argument's name
			}
			o = o.stronger(injIdentOrigin(p, c, depth+1))
		}
	}
	if o.kind > injNone && prefix {
		o.joined = true
	}
	return o
}

// injInlineArgs returns the names captured by a format string:
// "{name}", "{name:?}".
func injInlineArgs(lit string) []string {
	var out []string
	for i := 0; i < len(lit); i++ {
		if lit[i] != '{' {
			continue
		}
		if i+1 < len(lit) && lit[i+1] == '{' {
			i++
			continue
		}
		j := i + 1
		for j < len(lit) && (lit[j] == '_' || lit[j] >= 'a' && lit[j] <= 'z' || lit[j] >= 'A' && lit[j] <= 'Z' || lit[j] >= '0' && lit[j] <= '9') {
			j++
		}
		if j > i+1 && j < len(lit) && (lit[j] == '}' || lit[j] == ':') && (lit[i+1] < '0' || lit[i+1] > '9') {
			out = append(out, lit[i+1:j])
		}
	}
	return out
}

// injFindBind finds the binding named name visible at node at (for
// names captured inside format strings).
func injFindBind(p *checkers.Pass, at syntax.Node, name string) (locBind, bool) {
	fn := EnclosingFunction(at)
	if !fn.Valid() {
		return locBind{}, false
	}
	var best locBind
	found := false
	for _, b := range locBindings(p, fn) {
		if b.Name == name && at.Start() >= b.From && b.Scope.Contains(at) && (!found || b.From >= best.From) {
			best, found = b, true
		}
	}
	return best, found
}
