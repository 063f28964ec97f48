package c

import (
	"strings"

	"github.com/jsec/jsec/checkers"
	"github.com/jsec/jsec/checkers/syntax"
)

// Origin says where a value comes from, as far as one function shows.
// Origins are ordered: combining two takes the larger.
type Origin int

// Origins, least worrying first.
const (
	// OriginLiteral: a literal or constant expression.
	OriginLiteral Origin = iota
	// OriginUnknown: computed by a call or an expression jsec cannot see into.
	OriginUnknown
	// OriginParam: a parameter of the enclosing function: its caller decides.
	OriginParam
	// OriginExternal: program input: argv, the environment, stdin, a file or
	// a socket read in this function.
	OriginExternal
)

func (o Origin) String() string {
	return [...]string{"literal", "unknown", "parameter", "external input"}[o]
}

// Source is the result of tracing a value back.
type Source struct {
	Origin Origin
	// What names the origin for messages: "argv[1]", "getenv(\"PATH\")",
	// "recv()", "parameter 'name'".
	What string
}

func (s Source) max(t Source) Source {
	if t.Origin > s.Origin {
		return t
	}
	return s
}

// externalReturns are calls whose result is program input.
var externalReturns = map[string]bool{
	"getenv": true, "secure_getenv": true, "readline": true, "fgetln": true, "getpass": true,
}

// externalFills maps calls that write program input into one of their
// arguments to that argument's index (-1: every pointer argument after the
// format, as for scanf).
var externalFills = map[string]int{
	"fgets": 0, "gets": 0, "fgetws": 0, "read": 1, "pread": 1, "recv": 1, "recvfrom": 1, "recvmsg": 1,
	"fread": 0, "getline": 0, "getdelim": 0, "scanf": -1, "fscanf": -1, "vscanf": -1,
	"readlink": 1, "SSL_read": 1, "BIO_read": 1,
}

// copyFill is a call that copies arguments srcs into argument dst.
type copyFill struct {
	dst  int
	srcs []int // -1: every argument from the previous index on
}

// copyFills maps calls that copy one argument into another: dst ← srcs.
var copyFills = map[string]copyFill{
	"strcpy": {0, []int{1}}, "strncpy": {0, []int{1}}, "strcat": {0, []int{0, 1}}, "strncat": {0, []int{0, 1}},
	"memcpy": {0, []int{1}}, "memmove": {0, []int{1}}, "strlcpy": {0, []int{1}}, "strlcat": {0, []int{0, 1}},
	"sprintf": {0, []int{1, -1}}, "snprintf": {0, []int{2, -1}}, "vsprintf": {0, []int{1, 2}}, "vsnprintf": {0, []int{2, 3}},
	"wcscpy": {0, []int{1}}, "wcscat": {0, []int{0, 1}}, "stpcpy": {0, []int{1}},
}

// Trace follows expr back through assignments, initialisers and the calls
// that fill buffers (fgets, recv, strcpy, sprintf …) within its function
// and says where it comes from. It is a may-analysis over straight-line
// code: a definition in an earlier branch counts, and an unconditional
// one hides everything before it.
func Trace(p *checkers.Pass, expr syntax.Node) Source {
	t := tracer{p: p, seen: map[int]bool{}}
	fn := EnclosingFunction(expr)
	if fn.Valid() {
		t.scope = FuncScope(p, fn)
		t.defs = Defs(p, fn)
	}
	return t.trace(expr, 0)
}

type tracer struct {
	p     *checkers.Pass
	scope *Scope
	defs  *DefIndex
	seen  map[int]bool
}

func (t *tracer) trace(e syntax.Node, depth int) Source {
	e = Uncast(e)
	if depth > 12 || !e.Valid() {
		return Source{Origin: OriginUnknown}
	}
	switch e.Kind() {
	case "string_literal", "concatenated_string", "raw_string_literal", "number_literal", "char_literal",
		"sizeof_expression", "null", "true", "false", "nullptr":
		return Source{Origin: OriginLiteral}
	case "identifier":
		return t.name(e, depth)
	case "subscript_expression", "field_expression", "pointer_expression":
		base := baseIdent(e)
		if !base.Valid() {
			return Source{Origin: OriginUnknown}
		}
		if base.Text() == "argv" && t.isMainArgv(base) {
			return Source{OriginExternal, e.Text()}
		}
		if e.Kind() == "pointer_expression" && e.FirstChild().Text() == "&" {
			return t.trace(e.Field("argument"), depth+1)
		}
		if e.Kind() == "field_expression" {
			return t.nameAt(base, PathOf(e), depth)
		}
		return t.name(base, depth)
	case "call_expression":
		name := CalleeName(e)
		if externalReturns[name] {
			return Source{OriginExternal, shortText(e)}
		}
		switch name {
		case "strdup", "strndup", "xstrdup", "g_strdup", "basename", "dirname", "strchr", "strrchr", "strstr",
			// Conversions keep the origin: atoi(argv[1]) is still argv.
			"atoi", "atol", "atoll", "atof", "strtol", "strtoul", "strtoll", "strtoull", "strtod", "strtof",
			"strtoimax", "strtoumax", "ntohs", "ntohl", "htons", "htonl", "be16toh", "be32toh", "be64toh",
			"le16toh", "le32toh", "le64toh", "abs", "labs", "llabs", "tolower", "toupper":
			return t.trace(Arg(e, 0), depth+1)
		}
		return Source{Origin: OriginUnknown}
	case "conditional_expression":
		return t.trace(e.Field("consequence"), depth+1).max(t.trace(e.Field("alternative"), depth+1))
	case "binary_expression":
		return t.trace(e.Field("left"), depth+1).max(t.trace(e.Field("right"), depth+1))
	case "comma_expression":
		return t.trace(e.Field("right"), depth+1)
	case "assignment_expression":
		return t.trace(e.Field("right"), depth+1)
	}
	return Source{Origin: OriginUnknown}
}

// name traces an identifier through its reaching definitions.
func (t *tracer) name(id syntax.Node, depth int) Source { return t.nameAt(id, "", depth) }

// nameAt traces the member path (s->len; "" for the whole variable id)
// through the reaching definitions of its variable, leaving out those
// of other members (s->buf = read(…) says nothing of s->len).
func (t *tracer) nameAt(id syntax.Node, path string, depth int) Source {
	name := id.Text()
	if name == "optarg" {
		return Source{OriginExternal, "optarg"}
	}
	if t.scope == nil {
		return Source{Origin: OriginUnknown}
	}
	v := t.scope.Lookup(name, id)
	if v != nil && v.Param && name == "argv" && t.isMainArgv(id) {
		return Source{OriginExternal, "argv"}
	}
	var res Source
	found := false
	for _, d := range t.defs.Reaching(name, id) {
		if t.seen[d.Node.Index()] || path != "" && !pathsOverlap(d.Path, path) {
			continue
		}
		t.seen[d.Node.Index()] = true
		found = true
		res = res.max(t.def(d, depth))
		delete(t.seen, d.Node.Index())
	}
	if found {
		return res
	}
	switch {
	case v == nil:
		return Source{Origin: OriginUnknown}
	case v.Param:
		return Source{OriginParam, "parameter '" + name + "'"}
	case v.Init.Valid():
		return t.trace(v.Init, depth+1)
	case v.IsArray():
		return Source{Origin: OriginLiteral} // an array nobody wrote to here
	}
	return Source{Origin: OriginUnknown}
}

func (t *tracer) def(d Def, depth int) Source {
	switch d.Kind {
	case DefAssign:
		return t.trace(d.Value, depth+1)
	case DefExternal:
		return Source{OriginExternal, CalleeName(d.Node) + "()"}
	case DefCopy:
		var res Source
		for _, a := range d.Sources {
			res = res.max(t.trace(a, depth+1))
		}
		return res
	}
	return Source{Origin: OriginUnknown}
}

func (t *tracer) isMainArgv(n syntax.Node) bool {
	fn := EnclosingFunction(n)
	name := checkers.DeclaratorName(fn.Field("declarator"))
	params := Params(fn)
	return (name == "main" || name == "wmain") && len(params) >= 2 && params[1] == n.Text()
}

// baseIdent returns the identifier at the root of a[i], a->b, *a.
func baseIdent(e syntax.Node) syntax.Node {
	for {
		e = Uncast(e)
		switch e.Kind() {
		case "identifier":
			return e
		case "subscript_expression", "field_expression", "pointer_expression":
			e = e.Field("argument")
		default:
			return syntax.Node{}
		}
	}
}

func shortText(n syntax.Node) string {
	s := n.Text()
	if len(s) > 40 {
		s = s[:37] + "..."
	}
	return s
}

// pathsOverlap reports whether a definition of the lvalue def may define
// part of path: def is the whole variable (or has no plain path), or one
// of the two is a member of the other (s->a and s->a.b).
func pathsOverlap(def, path string) bool {
	if def == "" || !strings.ContainsAny(def, ".[") && !strings.Contains(def, "->") {
		return true
	}
	within := func(inner, outer string) bool {
		if !strings.HasPrefix(inner, outer) {
			return false
		}
		if len(inner) == len(outer) {
			return true
		}
		c := inner[len(outer)]
		return c == '.' || c == '-' || c == '['
	}
	return within(def, path) || within(path, def)
}
