package c

import (
	"maps"
	"slices"
	"sort"

	"github.com/jsec/jsec/checkers"
	"github.com/jsec/jsec/checkers/syntax"
)

// DefKind says how a definition gives a variable its value.
type DefKind int

// Definition kinds.
const (
	// DefAssign: "x = value", "T x = value", "x += value".
	DefAssign DefKind = iota + 1
	// DefExternal: a call that fills x with program input (fgets(x, …),
	// recv(s, x, …), scanf("%d", &x)).
	DefExternal
	// DefCopy: a call that copies other values into x (strcpy(x, src),
	// sprintf(x, fmt, …)).
	DefCopy
	// DefOther: x is passed by address or otherwise may change (&x to an
	// unknown call).
	DefOther
)

// Def is one definition of a variable.
type Def struct {
	Name    string
	Kind    DefKind
	Node    syntax.Node   // the assignment, declarator or call
	Value   syntax.Node   // DefAssign: the value
	Sources []syntax.Node // DefCopy: the copied arguments
	// Partial is set when the definition keeps part of the old value
	// (strcat appends), so earlier definitions still reach past it.
	Partial bool
	// Path is the defined lvalue ("s->len", "buf[0]", "n"; "" when it
	// has no plain path) and Op the assignment operator ("=", "+=", "|=")
	// of a DefAssign.
	Path, Op string
	// Stmt is the statement that holds the definition.
	Stmt syntax.Node
}

// DefIndex lists the definitions of every variable of a function, in
// source order.
type DefIndex struct {
	// byName holds each name's definitions in source order: each is added
	// when the walk, in pre-order, visits its node (TestDefsInSourceOrder).
	byName map[string][]Def
}

type defsKey struct {
	t  *syntax.Tree
	fn int
}

// Defs returns the definitions in fn, computed once per function.
func Defs(p *checkers.Pass, fn syntax.Node) *DefIndex {
	return checkers.Memo(p, defsKey{fn.Tree(), fn.Index()}, func() *DefIndex {
		x := &DefIndex{byName: map[string][]Def{}}
		scope := FuncScope(p, fn)
		fn.Field("body").Walk(func(n syntax.Node) bool {
			switch n.Kind() {
			case "init_declarator":
				if id := declIdent(n.Field("declarator")); id != "" {
					x.add(Def{Name: id, Kind: DefAssign, Node: n, Value: n.Field("value")})
				}
			case "assignment_expression":
				if id := PathOf(n.Field("left")); id != "" {
					// Op tells compound assignments (+=, |=) from plain ones;
					// Path tells stores into a field or element (s->n, buf[0])
					// from stores into the whole variable.
					x.add(Def{Name: rootName(id), Path: id, Op: BinaryOp(n), Kind: DefAssign, Node: n, Value: n.Field("right")})
				}
			case "call_expression":
				x.call(n)
				x.arrayArgs(n, scope)
			case "lambda_expression":
				return false
			}
			return true
		})
		return x
	})
}

func (x *DefIndex) add(d Def) {
	d.Stmt = EnclosingStatement(d.Node)
	x.byName[d.Name] = append(x.byName[d.Name], d)
}

func (x *DefIndex) call(n syntax.Node) {
	name := CalleeName(n)
	args := Args(n)
	// Most callees are in neither list: one hash tells.
	var idx int
	var fills, copies bool
	var cf copyFill
	if defCallWords.MayHaveString(name) {
		idx, fills = externalFills[name]
		cf, copies = copyFills[name]
	}
	if fills {
		if idx >= 0 && idx < len(args) {
			if path := PathOf(addrOf(args[idx])); rootName(path) != "" {
				x.add(Def{Name: rootName(path), Path: path, Kind: DefExternal, Node: n})
			}
		} else if idx < 0 {
			start := 1
			if name == "fscanf" {
				start = 2
			}
			for _, a := range args[min(start, len(args)):] {
				if path := PathOf(addrOf(a)); rootName(path) != "" {
					x.add(Def{Name: rootName(path), Path: path, Kind: DefExternal, Node: n})
				}
			}
		}
		return
	}
	if copies && cf.dst < len(args) {
		path := PathOf(args[cf.dst])
		id := rootName(path)
		if id == "" {
			return
		}
		var srcs []syntax.Node
		partial := false
		for k, s := range cf.srcs {
			if s == -1 {
				from := cf.srcs[k-1] + 1
				for j := from; j < len(args); j++ {
					srcs = append(srcs, args[j])
				}
				continue
			}
			if s < len(args) && s != cf.dst {
				srcs = append(srcs, args[s])
			} else if s == cf.dst {
				partial = true // strcat(x, y): x keeps what it had
			}
		}
		x.add(Def{Name: id, Path: path, Kind: DefCopy, Node: n, Sources: srcs, Partial: partial})
		return
	}
	if name == "sscanf" && len(args) > 2 {
		for _, a := range args[2:] {
			if path := PathOf(addrOf(a)); rootName(path) != "" {
				x.add(Def{Name: rootName(path), Path: path, Kind: DefCopy, Node: n, Sources: []syntax.Node{args[0]}})
			}
		}
		return
	}
	// &x passed to any other call may change x.
	for _, a := range args {
		if a.Kind() == "pointer_expression" && a.FirstChild().Text() == "&" {
			if id := rootName(PathOf(a.Field("argument"))); id != "" {
				x.add(Def{Name: id, Kind: DefOther, Node: n})
			}
		}
	}
}

// defCallWords holds the callees DefIndex looks up.
var defCallWords = checkers.NewWordSet(slices.Collect(maps.Keys(externalFills)), slices.Collect(maps.Keys(copyFills)),
	slices.Collect(maps.Keys(readOnlyCallees)))

// readOnlyCallees never write through their arguments.
var readOnlyCallees = map[string]bool{
	"strlen": true, "strnlen": true, "strcmp": true, "strncmp": true, "strcasecmp": true, "strncasecmp": true,
	"memcmp": true, "strchr": true, "strrchr": true, "strstr": true, "strspn": true, "strcspn": true, "strpbrk": true,
	"printf": true, "fprintf": true, "puts": true, "fputs": true, "write": true, "send": true, "fwrite": true,
	"atoi": true, "atol": true, "strtol": true, "strtoul": true, "strdup": true, "free": true, "syslog": true,
	"system": true, "popen": true, "open": true, "fopen": true, "access": true, "stat": true, "perror": true,
}

// arrayArgs records that an array passed by name to a call that is not
// known to only read it may have been filled by that call (so the array
// is no longer "nobody wrote to it").
func (x *DefIndex) arrayArgs(n syntax.Node, scope *Scope) {
	name := CalleeName(n)
	if scope == nil {
		return
	}
	if defCallWords.MayHaveString(name) {
		if readOnlyCallees[name] {
			return
		}
		if _, ok := externalFills[name]; ok {
			return
		}
		if _, ok := copyFills[name]; ok {
			return
		}
	}
	for _, a := range Args(n) {
		if a = Uncast(a); a.Kind() != "identifier" {
			continue
		}
		if v := scope.Lookup(a.Text(), a); v != nil && v.IsArray() && !v.Param {
			x.add(Def{Name: a.Text(), Kind: DefOther, Node: n})
		}
	}
}

// addrOf strips one "&" so that scanf("%d", &n) defines n.
func addrOf(n syntax.Node) syntax.Node {
	n = Uncast(n)
	if n.Kind() == "pointer_expression" && n.FirstChild().Text() == "&" {
		return n.Field("argument")
	}
	return n
}

// rootName returns the identifier a path starts with: "s" for s->buf[2].
func rootName(path string) string {
	i := 0
	for i < len(path) && path[i] == '*' {
		i++
	}
	j := i
	for j < len(path) && IdentByte(path[j]) {
		j++
	}
	return path[i:j]
}

func declIdent(d syntax.Node) string {
	for d.Valid() {
		switch d.Kind() {
		case "identifier":
			return d.Text()
		case "pointer_declarator", "array_declarator", "init_declarator":
			d = d.Field("declarator")
		case "reference_declarator", "parenthesized_declarator":
			d = d.NamedChild(0)
		default:
			return ""
		}
	}
	return ""
}

// reachingSearchMin is the number of definitions of a name from which
// Reaching finds the last one before the use by binary search. A variable
// so that tests can ask both ways.
var reachingSearchMin = 16

// All returns the definitions of name in source order.
func (x *DefIndex) All(name string) []Def { return x.byName[name] }

// Reaching returns the definitions of name that may reach the use at node
// use, latest first: walking back from the use, every definition counts
// until one that runs unconditionally before it (its statement's block
// encloses the use).
func (x *DefIndex) Reaching(name string, use syntax.Node) []Def {
	defs := x.byName[name]
	end := len(defs)
	if end > reachingSearchMin {
		// The definitions that start after the use's start also end
		// after it: skip them all at once (a variable assigned thousands
		// of times in a generated function).
		end = sort.Search(end, func(i int) bool { return defs[i].Node.Start() > use.Start() })
	}
	var out []Def
	for i := end - 1; i >= 0; i-- {
		d := defs[i]
		if d.Node.End() > use.Start() || d.Node.Contains(use) {
			continue
		}
		out = append(out, d)
		if d.Kind != DefOther && !d.Partial && d.Stmt.Valid() && d.Stmt.Parent().Contains(use) {
			break
		}
	}
	return out
}
