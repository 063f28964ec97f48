package c

import (
	"sort"
	"strings"

	"github.com/jsec/jsec/checkers"
	"github.com/jsec/jsec/checkers/syntax"
)

// This file reconstructs how a string handed to a command or query API
// was assembled in its function: the literal text of the formats and
// pieces, and the non-literal values spliced into it with the printf
// conversion that spliced each. Rules use it to tell "rm -f /tmp/x.%d"
// (a number cannot inject anything) from "ls %s" with a name.

// exBuilder describes a call that writes a formatted or copied string.
type exBuilder struct {
	dst     int  // argument written (its address for asprintf); -1: the result
	src     int  // format index (format=true) or the copied argument
	format  bool // src is a printf format followed by its arguments
	appends bool // keeps what dst held (strcat, strbuf_addf)
	all     bool // every argument is a piece (g_strconcat)
}

// exBuilders are the string builders jsec understands, libc first, then
// the string libraries of common C projects (GLib, git's strbuf, Redis'
// sds, SQLite).
var exBuilders = map[string]exBuilder{
	"sprintf": {dst: 0, src: 1, format: true}, "snprintf": {dst: 0, src: 2, format: true},
	"_snprintf": {dst: 0, src: 2, format: true}, "swprintf": {dst: 0, src: 2, format: true},
	"sprintf_s": {dst: 0, src: 2, format: true}, "_snprintf_s": {dst: 0, src: 3, format: true},
	"wsprintf": {dst: 0, src: 1, format: true}, "wsprintfA": {dst: 0, src: 1, format: true}, "wsprintfW": {dst: 0, src: 1, format: true},
	"asprintf": {dst: 0, src: 1, format: true}, "strbuf_addf": {dst: 0, src: 1, format: true, appends: true},
	"sqlite3_mprintf": {dst: -1, src: 0, format: true}, "g_strdup_printf": {dst: -1, src: 0, format: true},
	"xstrfmt": {dst: -1, src: 0, format: true}, "sdscatprintf": {dst: -1, src: 1, format: true, appends: true},
	"strcpy": {dst: 0, src: 1}, "strncpy": {dst: 0, src: 1}, "strlcpy": {dst: 0, src: 1}, "stpcpy": {dst: 0, src: 1},
	"wcscpy": {dst: 0, src: 1}, "strcpy_s": {dst: 0, src: 2}, "wcscpy_s": {dst: 0, src: 2},
	"strcat": {dst: 0, src: 1, appends: true}, "strncat": {dst: 0, src: 1, appends: true},
	"strlcat": {dst: 0, src: 1, appends: true}, "wcscat": {dst: 0, src: 1, appends: true},
	"strcat_s": {dst: 0, src: 2, appends: true}, "wcscat_s": {dst: 0, src: 2, appends: true},
	"strbuf_addstr": {dst: 0, src: 1, appends: true}, "sdscat": {dst: -1, src: 1, appends: true},
	"sdscatlen": {dst: -1, src: 1, appends: true}, "sdsnew": {dst: -1, src: 0},
	"strdup": {dst: -1, src: 0}, "xstrdup": {dst: -1, src: 0}, "g_strdup": {dst: -1, src: 0},
	"g_strconcat": {dst: -1, all: true},
	// C++ string constructors: std::string("..."), QString(x).
	"string": {dst: -1, src: 0}, "wstring": {dst: -1, src: 0}, "QString": {dst: -1, src: 0},
}

// exNumberStrings are calls that render a number as text.
var exNumberStrings = map[string]bool{"to_string": true, "to_wstring": true, "number": true}

// exPiece is a non-literal value spliced into an assembled string.
type exPiece struct {
	Node syntax.Node
	// Conv is the printf conversion that spliced it ("s", "d", "q"), ""
	// for a copied or concatenated piece.
	Conv string
	// Quoted is set when the conversion sits between quotes in the format
	// ('%s').
	Quoted bool
	// By is the builder call or assignment that spliced it in, if any.
	By syntax.Node
	// Lead is set when nothing precedes the piece in (one alternative of)
	// the assembled string: the piece decides how the string starts.
	Lead bool
}

// exBuild is what the function shows about how a string was assembled.
type exBuild struct {
	// Text is the literal text in order, each piece shown as "\x00".
	Text   string
	Pieces []exPiece
	// Complete is false when some part could not be followed.
	Complete bool

	cur  syntax.Node // the builder being applied
	lead bool        // nothing emitted yet in the current alternative
}

// lit appends literal text.
func (b *exBuild) lit(t *strings.Builder, s string) {
	t.WriteString(s)
	if strings.TrimSpace(s) != "" {
		b.lead = false
	}
}

// textual reports whether a piece can carry arbitrary text into the
// string: numeric conversions cannot.
func (pc exPiece) textual() bool {
	if pc.Conv == "" {
		return true
	}
	switch pc.Conv[len(pc.Conv)-1] {
	case 'd', 'i', 'u', 'x', 'X', 'o', 'f', 'F', 'e', 'E', 'g', 'G', 'a', 'A', 'p', 'n', '*':
		return false
	}
	return true
}

// exAssemble reconstructs the string e holds at use.
func exAssemble(p *checkers.Pass, e, use syntax.Node) exBuild {
	b := exBuild{Complete: true, lead: true}
	var t strings.Builder
	exAssembleInto(p, e, use, &b, &t, 0)
	b.Text = t.String()
	return b
}

func exAssembleInto(p *checkers.Pass, e, use syntax.Node, b *exBuild, t *strings.Builder, depth int) {
	e = Uncast(e)
	if depth > 6 {
		b.Complete = false
		exAddPiece(b, t, exPiece{Node: e})
		return
	}
	if s, ok := StringValue(e); ok {
		b.lit(t, s)
		return
	}
	if exLiteralish(e) {
		return
	}
	if recv, ok := exStringAccessor(e); ok {
		exAssembleInto(p, recv, use, b, t, depth+1)
		return
	}
	switch e.Kind() {
	case "call_expression":
		if exNumberStrings[CalleeName(e)] {
			exAddPiece(b, t, exPiece{Node: e, Conv: "d"})
			return
		}
		if bd, ok := exBuilders[CalleeName(e)]; ok && bd.dst < 0 {
			exApply(p, e, bd, use, b, t, depth)
			return
		}
	case "binary_expression":
		if BinaryOp(e) == "+" && exStringy(e) {
			saved := b.cur
			if !saved.Valid() {
				b.cur = e
			}
			exAssembleInto(p, e.Field("left"), use, b, t, depth+1)
			exAssembleInto(p, e.Field("right"), use, b, t, depth+1)
			b.cur = saved
			return
		}
	case "identifier", "field_expression", "subscript_expression", "pointer_expression":
		if exAssembleVar(p, e, use, b, t, depth) {
			return
		}
	}
	b.Complete = false
	exAddPiece(b, t, exPiece{Node: e})
}

// exStringy reports whether a "+" chain concatenates strings (one operand
// is a string literal somewhere down the chain) rather than adding numbers.
func exStringy(e syntax.Node) bool {
	for e.Kind() == "binary_expression" && BinaryOp(e) == "+" {
		if IsStringLiteral(e.Field("right")) {
			return true
		}
		e = Uncast(e.Field("left"))
	}
	return IsStringLiteral(e)
}

func exAddPiece(b *exBuild, t *strings.Builder, pc exPiece) {
	if !pc.By.Valid() {
		pc.By = b.cur
	}
	pc.Lead = b.lead
	b.lead = false
	b.Pieces = append(b.Pieces, pc)
	t.WriteByte(0)
}

// exApply adds what one builder call contributes.
func exApply(p *checkers.Pass, call syntax.Node, bd exBuilder, use syntax.Node, b *exBuild, t *strings.Builder, depth int) {
	saved := b.cur
	b.cur = call
	defer func() { b.cur = saved }()
	args := Args(call)
	switch {
	case bd.all:
		for _, a := range args {
			if !IsNullLiteral(a) {
				exAssembleInto(p, a, call, b, t, depth+1)
			}
		}
	case bd.format:
		if bd.src >= len(args) {
			b.Complete = false
			return
		}
		exFormatInto(args[bd.src], args[bd.src+1:], b, t)
	default:
		if bd.src < len(args) {
			exAssembleInto(p, args[bd.src], call, b, t, depth+1)
		}
	}
}

// exFormatInto adds a printf format and the arguments it consumes.
func exFormatInto(format syntax.Node, rest []syntax.Node, b *exBuild, t *strings.Builder) {
	fmtText, ok := StringValue(format)
	if !ok {
		b.Complete = false
		exAddPiece(b, t, exPiece{Node: format})
		return
	}
	convs := exFormatConvs(fmtText)
	last := 0
	for i, cv := range convs {
		b.lit(t, fmtText[last:cv.start])
		last = cv.end
		if i >= len(rest) {
			b.Complete = false
			continue
		}
		arg := rest[i]
		if cv.conv == "*" {
			continue
		}
		if s, ok := StringValue(arg); ok && strings.HasSuffix(cv.conv, "s") {
			b.lit(t, s)
			continue
		}
		if exLiteralish(arg) {
			b.lit(t, "0")
			continue
		}
		exAddPiece(b, t, exPiece{Node: arg, Conv: cv.conv, Quoted: cv.quoted})
	}
	b.lit(t, fmtText[last:])
}

// exConv is one conversion of a printf format: its span in the format,
// the conversion with its length modifier ("s", "ld", "*" for a width
// taken from the arguments) and whether quotes surround it.
type exConv struct {
	start, end int
	conv       string
	quoted     bool
}

// exFormatConvs parses a printf format; a "*" width or precision yields a
// conversion of its own because it consumes an argument.
func exFormatConvs(f string) []exConv {
	var out []exConv
	for i := 0; i < len(f); i++ {
		if f[i] != '%' {
			continue
		}
		start := i
		i++
		if i < len(f) && f[i] == '%' {
			continue
		}
		for i < len(f) && strings.IndexByte("-+ #0'123456789.$*", f[i]) >= 0 {
			if f[i] == '*' {
				out = append(out, exConv{start: start, end: start, conv: "*"})
			}
			i++
		}
		mod := i
		for i < len(f) && strings.IndexByte("hlLqjztI", f[i]) >= 0 && !(f[i] == 'q' && (i+1 >= len(f) || !isConvLetter(f[i+1]))) {
			i++
		}
		if i >= len(f) {
			break
		}
		cv := exConv{start: start, end: i + 1, conv: f[mod : i+1]}
		if start > 0 && i+1 < len(f) && (f[start-1] == '\'' || f[start-1] == '"') && f[i+1] == f[start-1] {
			cv.quoted = true
		}
		out = append(out, cv)
	}
	return out
}

func isConvLetter(c byte) bool { return strings.IndexByte("diouxXfFeEgGaAcspnSCQqw", c) >= 0 }

// exDef is a definition of a string variable that exAssemble follows.
type exDef struct {
	node    syntax.Node
	stmt    syntax.Node
	bd      exBuilder // a builder call that writes the variable
	builder bool
	value   syntax.Node // an assignment's value
	partial bool
	other   bool // written in a way jsec cannot follow
}

// exAssembleVar follows the definitions of a variable that reach use.
func exAssembleVar(p *checkers.Pass, e, use syntax.Node, b *exBuild, t *strings.Builder, depth int) bool {
	fn := EnclosingFunction(use)
	path := PathOf(e)
	if !fn.Valid() || path == "" {
		return false
	}
	defs := exReachingDefs(p, fn, path, use)
	if len(defs) == 0 {
		return exOrigin(p, e).Origin == OriginLiteral
	}
	entry := b.lead
	for _, d := range defs {
		if !d.partial {
			b.lead = entry // each replacing definition is an alternative
		}
		switch {
		case d.other:
			b.Complete = false
			exAddPiece(b, t, exPiece{Node: e})
		case d.builder:
			exApply(p, d.node, d.bd, use, b, t, depth)
		case d.partial && !b.cur.Valid():
			b.cur = d.node
			exAssembleInto(p, d.value, d.node, b, t, depth+1)
			b.cur = syntax.Node{}
		default:
			exAssembleInto(p, d.value, d.node, b, t, depth+1)
		}
	}
	return true
}

// exReachingDefs returns the definitions of path that may reach use, in
// source order: walking back from use, every definition counts until one
// that replaces the whole value unconditionally.
func exReachingDefs(p *checkers.Pass, fn syntax.Node, path string, use syntax.Node) []exDef {
	all := exDefsOf(p, fn, rootName(path))
	end := len(all)
	if end > reachingSearchMin {
		// Sorted by start: those starting after the use's start end
		// after it too; skip them at once.
		end = sort.Search(end, func(i int) bool { return all[i].node.Start() > use.Start() })
	}
	var out []exDef
	for i := end - 1; i >= 0; i-- {
		d := all[i]
		if d.node.End() > use.Start() || d.node.Contains(use) {
			continue
		}
		if !exPathCovers(d.path, path) {
			continue
		}
		out = append(out, d.exDef)
		if !d.partial && !d.other && d.stmt.Valid() && d.stmt.Parent().Contains(use) {
			break
		}
	}
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out
}

type exPathDef struct {
	exDef
	path string
}

// exDefsOf lists the definitions of the variable name and of paths rooted
// at it (s.buf, q->sql) in fn, in source order, computed once per
// function and name.
func exDefsOf(p *checkers.Pass, fn syntax.Node, name string) []exPathDef {
	type key struct {
		fn   int
		name string
	}
	return checkers.Memo(p, key{fn.Index(), name}, func() []exPathDef {
		var out []exPathDef
		add := func(path string, d exDef) {
			if rootName(path) != name {
				return
			}
			d.stmt = EnclosingStatement(d.node)
			out = append(out, exPathDef{d, path})
		}
		fn.Field("body").Walk(func(n syntax.Node) bool {
			switch n.Kind() {
			case "lambda_expression":
				return false
			case "init_declarator":
				if id := declIdent(n.Field("declarator")); id != "" && n.Field("value").Valid() && n.Field("value").Kind() != "argument_list" {
					add(id, exDef{node: n, value: n.Field("value")})
				}
			case "assignment_expression":
				path := PathOf(n.Field("left"))
				op := BinaryOp(n)
				add(path, exDef{node: n, value: n.Field("right"), partial: op == "+=", other: op != "=" && op != "+="})
			case "call_expression":
				exCallDef(n, add)
			}
			return true
		})
		sort.SliceStable(out, func(i, j int) bool { return out[i].node.Start() < out[j].node.Start() })
		return out
	})
}

// exCallDef records a call that writes one of its arguments.
func exCallDef(n syntax.Node, add func(string, exDef)) {
	name := CalleeName(n)
	args := Args(n)
	if bd, ok := exBuilders[name]; ok && bd.dst >= 0 && bd.dst < len(args) {
		add(PathOf(addrOf(args[bd.dst])), exDef{node: n, bd: bd, builder: true, partial: bd.appends})
		return
	}
	if idx, ok := externalFills[name]; ok {
		for k, a := range args {
			if idx < 0 && k > 0 || k == idx {
				add(PathOf(addrOf(a)), exDef{node: n, other: true})
			}
		}
		return
	}
	for _, a := range args {
		a = Uncast(a)
		if a.Kind() == "pointer_expression" && a.FirstChild().Text() == "&" {
			add(PathOf(a.Field("argument")), exDef{node: n, other: true})
		}
	}
}

// exPathCovers reports whether writing def writes (part of) use: the same
// path, or a path that holds it (a write to s covers s.buf).
func exPathCovers(def, use string) bool {
	if def == use {
		return true
	}
	if !strings.HasPrefix(use, def) {
		return false
	}
	rest := use[len(def):]
	return strings.HasPrefix(rest, ".") || strings.HasPrefix(rest, "->") || strings.HasPrefix(rest, "[")
}
