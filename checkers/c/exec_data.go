package c

import (
	"fmt"
	"sort"
	"strings"

	"github.com/jsec/jsec/checkers"
	"github.com/jsec/jsec/checkers/syntax"
)

// This file holds the data-format rules of the exec family: object
// deserializers fed from input, and XML parsers that expand external
// entities.

// exNameOrigin is exOrigin for a name that the grammar may have parsed as
// a type (C++'s most vexing parse turns "T x(buf);" into a function
// declaration whose parameter type is "buf").
func exNameOrigin(p *checkers.Pass, n syntax.Node) Source {
	n = Uncast(n)
	switch n.Kind() {
	case "identifier", "field_expression", "subscript_expression", "call_expression", "pointer_expression", "binary_expression":
		return exOrigin(p, n)
	case "parameter_declaration":
		t := n.Field("type")
		if d := n.Field("declarator"); d.Kind() == "abstract_function_declarator" {
			// std::string(buf, n) parsed as a declaration: trace buf.
			t = d.Field("parameters").NamedChild(0).Field("type")
		}
		return exNameOrigin(p, t)
	case "type_identifier":
	default:
		return Source{Origin: OriginUnknown}
	}
	fn := EnclosingFunction(n)
	if !fn.Valid() {
		return Source{Origin: OriginUnknown}
	}
	name := n.Text()
	var res Source
	defs := Defs(p, fn).Reaching(name, n)
	for _, d := range defs {
		switch d.Kind {
		case DefExternal:
			res = res.max(Source{OriginExternal, CalleeName(d.Node) + "()"})
		case DefAssign:
			if d.Value.Is("argument_list", "initializer_list") {
				res = res.max(exCtorOrigin(p, []Def{d}))
			} else {
				res = res.max(exOrigin(p, d.Value))
			}
		case DefCopy:
			for _, s := range d.Sources {
				res = res.max(exOrigin(p, s))
			}
		}
	}
	if len(defs) > 0 {
		return res
	}
	if v := FuncScope(p, fn).Lookup(name, n); v != nil {
		if v.Param {
			return Source{OriginParam, "parameter '" + name + "'"}
		}
		if v.Init.Valid() {
			return exOrigin(p, v.Init)
		}
	}
	return Source{Origin: OriginUnknown}
}

// exCtorArgs returns the constructor arguments of a declarator, whatever
// shape the grammar gave it: T x(a, b), T x{a}, or the function
// declaration of the most vexing parse.
func exCtorArgs(d syntax.Node) (name string, args []syntax.Node) {
	switch d.Kind() {
	case "init_declarator":
		v := d.Field("value")
		if v.Kind() != "argument_list" && v.Kind() != "initializer_list" {
			return declIdent(d.Field("declarator")), []syntax.Node{v}
		}
		for c := range v.NamedChildren() {
			if c.Kind() != "comment" {
				args = append(args, c)
			}
		}
		return declIdent(d.Field("declarator")), args
	case "function_declarator":
		for c := range d.Field("parameters").NamedChildren() {
			if c.Kind() == "parameter_declaration" {
				args = append(args, c)
			}
		}
		return d.Field("declarator").Text(), args
	case "identifier":
		return d.Text(), nil
	}
	return "", nil
}

// exLocalDecl finds the declaration of name in fn before use: its type
// text and constructor arguments.
func exLocalDecl(fn syntax.Node, name string, use syntax.Node) (typ string, args []syntax.Node, found bool) {
	fn.Field("body").Walk(func(n syntax.Node) bool {
		if n.Start() >= use.Start() || found {
			return false
		}
		if n.Kind() != "declaration" {
			return true
		}
		for d := range n.NamedChildren() {
			if d.FieldName() != "declarator" {
				continue
			}
			if nm, a := exCtorArgs(d); nm == name {
				typ, args, found = n.Field("type").Text(), a, true
			}
		}
		return false
	})
	return typ, args, found
}

// exStreamReads are the calls that fill a stream buffer from a socket.
var exStreamReads = map[string]bool{"read": true, "read_until": true, "read_at": true, "async_read": true, "async_read_until": true, "read_some": true}

// exStreamOrigin says where the data an input stream yields comes from.
func exStreamOrigin(p *checkers.Pass, arg, use syntax.Node, depth int) Source {
	arg = addrOf(Uncast(arg))
	text := strings.Join(strings.Fields(arg.Text()), "")
	switch text {
	case "std::cin", "cin", "std::wcin", "wcin":
		return Source{OriginExternal, "standard input"}
	}
	fn := EnclosingFunction(use)
	name := text
	if k := arg.Kind(); k == "parameter_declaration" {
		name = strings.Join(strings.Fields(arg.Field("type").Text()), "")
	}
	if !fn.Valid() || depth > 4 || !exIsName(name) {
		return exNameOrigin(p, arg)
	}
	typ, args, ok := exLocalDecl(fn, name, use)
	if !ok {
		return exNameOrigin(p, arg)
	}
	switch {
	case strings.Contains(typ, "tcp::iostream") || strings.Contains(typ, "socket_iostream"):
		return Source{OriginExternal, "socket stream '" + name + "'"}
	case strings.Contains(typ, "streambuf"):
		for _, c := range exCalls(p, fn) {
			if c.Start() < use.Start() && exStreamReads[CalleeName(c)] {
				for _, a := range Args(c) {
					if strings.TrimPrefix(strings.Join(strings.Fields(a.Text()), ""), "&") == name {
						return Source{OriginExternal, "socket data read by " + CalleeName(c) + "() into '" + name + "'"}
					}
				}
			}
		}
		return Source{Origin: OriginUnknown}
	case strings.Contains(typ, "ifstream") || strings.Contains(typ, "fstream"):
		if len(args) > 0 {
			if src := exNameOrigin(p, args[0]); src.Origin == OriginExternal {
				return Source{OriginExternal, "a file named by " + src.What}
			}
		}
		return Source{Origin: OriginUnknown}
	}
	var res Source
	if len(args) > 0 {
		if typArg := args[0]; strings.Contains(typ, "stringstream") || strings.Contains(typ, "istrstream") || strings.Contains(typ, "bufferstream") {
			res = exNameOrigin(p, typArg)
		} else {
			res = exStreamOrigin(p, typArg, use, depth+1)
		}
	}
	return res.max(exStreamFed(p, fn, name, use))
}

// exStreamFed looks for data written into a string stream before use:
// ss.str(x), ss.write(x, n), ss << x.
func exStreamFed(p *checkers.Pass, fn syntax.Node, name string, use syntax.Node) Source {
	var res Source
	fn.Field("body").Walk(func(n syntax.Node) bool {
		if n.Start() >= use.Start() {
			return false
		}
		switch n.Kind() {
		case "call_expression":
			f := n.Field("function")
			if f.Kind() == "field_expression" && f.Field("argument").Text() == name {
				switch f.Field("field").Text() {
				case "str", "write":
					res = res.max(exOrigin(p, Arg(n, 0)))
				}
			}
		case "binary_expression":
			if BinaryOp(n) == "<<" && Uncast(n.Field("left")).Text() == name {
				res = res.max(exOrigin(p, n.Field("right")))
			}
		}
		return true
	})
	return res
}

func exIsName(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !IdentByte(s[i]) {
			return false
		}
	}
	return true
}

// triageDeserialize keeps msgpack's C++ unpack only when qualified.
func triageDeserialize(lx *checkers.Lexed, tok int) bool {
	if lx.Text(tok) == "unpack" {
		return lx.Is(tok-1, "::") && lx.Is(tok-2, "msgpack")
	}
	return true
}

// checkDeserialize flags object deserializers whose input is a socket,
// stdin, or a buffer filled from input.
func checkDeserialize(p *checkers.Pass, h checkers.Hit) {
	switch h.Word {
	case "msgpack_unpack", "msgpack_unpack_next", "unpack":
		exCheckMsgpack(p, h)
		return
	}
	decl := h.Node.Ancestor("declaration", "new_expression")
	if !decl.Valid() || !decl.Field("type").Contains(h.Node) {
		return
	}
	var declarators []syntax.Node
	if decl.Kind() == "new_expression" {
		declarators = append(declarators, decl)
	} else {
		for d := range decl.NamedChildren() {
			if d.FieldName() == "declarator" {
				declarators = append(declarators, d)
			}
		}
	}
	for _, d := range declarators {
		var args []syntax.Node
		if d.Kind() == "new_expression" {
			for c := range d.Field("arguments").NamedChildren() {
				args = append(args, c)
			}
		} else {
			_, args = exCtorArgs(d)
		}
		if len(args) == 0 {
			continue
		}
		src := exStreamOrigin(p, args[0], d, 0)
		if src.Origin != OriginExternal {
			continue
		}
		adjust := 0.0
		if exInputKind(src) == exInputNetwork || strings.Contains(src.What, "socket") || strings.Contains(src.What, "read") {
			adjust = 0.15
		}
		what := src.What
		if strings.HasSuffix(what, "()") {
			what = "data from " + what
		}
		p.Report(checkers.Finding{Rule: ruleDeserialize, Span: checkers.NodeSpan(d), Adjust: adjust,
			Message: fmt.Sprintf("%s deserializes objects from '%s', which carries %s", h.Word, shortText(args[0]), what)})
	}
}

// exCheckMsgpack flags msgpack unpacking of a buffer filled from input.
func exCheckMsgpack(p *checkers.Pass, h checkers.Hit) {
	call, ok := CallAt(h)
	if !ok {
		return
	}
	idx := []int{0}
	switch h.Word {
	case "msgpack_unpack_next":
		idx = []int{1}
	case "unpack":
		idx = []int{0, 1}
	}
	for _, i := range idx {
		data := Arg(call, i)
		if !data.Valid() {
			continue
		}
		src := exOrigin(p, data)
		if src.Origin != OriginExternal {
			continue
		}
		name := h.Word
		if name == "unpack" {
			name = "msgpack::unpack"
		}
		p.Report(checkers.Finding{Rule: ruleDeserialize, Span: checkers.NodeSpan(call), Adjust: -0.1,
			Message: fmt.Sprintf("%s decodes %s into objects without a size or depth limit", name, exDescribe(data, src))})
		return
	}
}

// exXMLReader describes a libxml2 parse call: the index of its options
// argument and of its document (-1 when it has none).
type exXMLReader struct{ options, doc int }

var exXMLReaders = map[string]exXMLReader{
	"xmlReadFile": {2, 0}, "xmlReadMemory": {4, 0}, "xmlReadDoc": {3, 0}, "xmlReadFd": {3, 0}, "xmlReadIO": {5, -1},
	"xmlCtxtReadFile": {3, 1}, "xmlCtxtReadMemory": {5, 1}, "xmlCtxtReadDoc": {4, 1}, "xmlCtxtReadFd": {4, 1}, "xmlCtxtReadIO": {6, -1},
	"xmlReaderForFile": {2, 0}, "xmlReaderForMemory": {4, 0}, "xmlReaderForDoc": {3, 0}, "xmlReaderForFd": {3, 0}, "xmlReaderForIO": {5, -1},
	"xmlCtxtUseOptions": {1, -1}, "xmlCtxtSetOptions": {1, -1}, "xmlParseInNodeContext": {3, 1},
}

func exXXETriggers() []string {
	out := []string{"xmlSubstituteEntitiesDefault", "XML_SetParamEntityParsing", "xmlTextReaderSetParserProp", "xmlLoadExtDtdDefaultValue"}
	for k := range exXMLReaders {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// exXMLFlags are the libxml2 options that expand entities or load DTDs.
type exXMLFlags uint8

const (
	exXMLNoent exXMLFlags = 1 << iota
	exXMLDTDLoad
)

// checkXXE flags libxml2 and expat configured to expand external entities.
func checkXXE(p *checkers.Pass, h checkers.Hit) {
	if h.Word == "xmlLoadExtDtdDefaultValue" {
		exCheckLoadExtDtd(p, h)
		return
	}
	call, ok := CallAt(h)
	if !ok {
		return
	}
	args := Args(call)
	switch h.Word {
	case "xmlSubstituteEntitiesDefault":
		if v, ok := IntValue(Arg(call, 0), nil); ok && v != 0 {
			p.Report(checkers.Finding{Rule: ruleXXE, Span: checkers.NodeSpan(call),
				Message: "xmlSubstituteEntitiesDefault(1) makes every later libxml2 parse substitute entities, including external ones that read files or URLs"})
		}
		return
	case "XML_SetParamEntityParsing":
		switch Uncast(Arg(call, 1)).Text() {
		case "XML_PARAM_ENTITY_PARSING_ALWAYS":
			p.Report(checkers.Finding{Rule: ruleXXE, Span: checkers.NodeSpan(call),
				Message: "XML_SetParamEntityParsing(..., XML_PARAM_ENTITY_PARSING_ALWAYS) lets documents pull in external parameter entities"})
		case "XML_PARAM_ENTITY_PARSING_UNLESS_STANDALONE":
			p.Report(checkers.Finding{Rule: ruleXXE, Span: checkers.NodeSpan(call), Adjust: -0.15,
				Message: "XML_SetParamEntityParsing(..., XML_PARAM_ENTITY_PARSING_UNLESS_STANDALONE) lets non-standalone documents pull in external parameter entities"})
		}
		return
	case "xmlTextReaderSetParserProp":
		prop := Uncast(Arg(call, 1)).Text()
		if v, ok := IntValue(Arg(call, 2), nil); ok && v != 0 && (prop == "XML_PARSER_SUBST_ENTITIES" || prop == "XML_PARSER_LOADDTD") {
			p.Report(checkers.Finding{Rule: ruleXXE, Span: checkers.NodeSpan(call),
				Message: fmt.Sprintf("xmlTextReaderSetParserProp enables %s: the reader will load external entities or DTDs", prop)})
		}
		return
	}
	rd := exXMLReaders[h.Word]
	if rd.options >= len(args) {
		return
	}
	flags := exXMLOptions(p, args[rd.options], call, 0)
	if flags == 0 {
		return
	}
	adjust := 0.0
	what := "XML_PARSE_NOENT (entity substitution)"
	if flags&exXMLNoent == 0 {
		what = "XML_PARSE_DTDLOAD (external DTD loading)"
		adjust -= 0.1
	}
	if rd.doc >= 0 && rd.doc < len(args) {
		switch exOrigin(p, args[rd.doc]).Origin {
		case OriginExternal:
			adjust += 0.1
		case OriginLiteral:
			adjust -= 0.2
		}
	}
	p.Report(checkers.Finding{Rule: ruleXXE, Span: checkers.NodeSpan(call), Adjust: adjust,
		Message: fmt.Sprintf("%s parses with %s: a DOCTYPE can make it read local files or fetch URLs", h.Word, what)})
}

// exCheckLoadExtDtd flags "xmlLoadExtDtdDefaultValue = <non-zero>": every
// later parse loads external DTDs.
func exCheckLoadExtDtd(p *checkers.Pass, h checkers.Hit) {
	asg := h.Node.Parent()
	if asg.Kind() != "assignment_expression" || asg.Field("left").Index() != h.Node.Index() {
		return
	}
	if v, ok := IntValue(asg.Field("right"), nil); ok && v == 0 {
		return
	}
	if !exLiteralish(asg.Field("right")) && !exMacroExpr(asg.Field("right")) {
		return
	}
	p.Report(checkers.Finding{Rule: ruleXXE, Span: checkers.NodeSpan(asg), Adjust: -0.1,
		Message: fmt.Sprintf("%s makes every later libxml2 parse load external DTDs", strings.Join(strings.Fields(asg.Text()), " "))})
}

// exMacroExpr reports whether e is made of constant macros, numbers and
// bitwise operators (XML_DETECT_IDS | XML_COMPLETE_ATTRS).
func exMacroExpr(e syntax.Node) bool {
	ok := true
	e.Walk(func(n syntax.Node) bool {
		switch n.Kind() {
		case "identifier":
			ok = ok && exMacroName(n.Text())
		case "number_literal", "binary_expression", "parenthesized_expression":
		default:
			if n.IsNamed() {
				ok = false
			}
		}
		return ok
	})
	return ok
}

// exXMLOptions evaluates which dangerous flags an options expression sets:
// literals, | and & ~ of them, variables (following = |= &=) and macros.
func exXMLOptions(p *checkers.Pass, e, use syntax.Node, depth int) exXMLFlags {
	e = Uncast(e)
	if depth > 6 {
		return 0
	}
	switch e.Kind() {
	case "identifier":
		switch e.Text() {
		case "XML_PARSE_NOENT":
			return exXMLNoent
		case "XML_PARSE_DTDLOAD":
			return exXMLDTDLoad
		}
		if f, ok := exXMLMacro(p, e.Text()); ok {
			return f
		}
		return exXMLVar(p, e, use, depth)
	case "binary_expression":
		l := exXMLOptions(p, e.Field("left"), use, depth+1)
		r := Uncast(e.Field("right"))
		switch BinaryOp(e) {
		case "|", "+", "^":
			return l | exXMLOptions(p, r, use, depth+1)
		case "&":
			if r.Kind() == "unary_expression" && r.FirstChild().Text() == "~" {
				return l &^ exXMLOptions(p, r.Field("argument"), use, depth+1)
			}
			return l & exXMLOptions(p, r, use, depth+1)
		}
	case "conditional_expression":
		return exXMLOptions(p, e.Field("consequence"), use, depth+1) | exXMLOptions(p, e.Field("alternative"), use, depth+1)
	}
	return 0
}

// exXMLVar follows a variable holding parser options.
func exXMLVar(p *checkers.Pass, e, use syntax.Node, depth int) exXMLFlags {
	fn := EnclosingFunction(use)
	if !fn.Valid() {
		return 0
	}
	var f exXMLFlags
	for _, d := range exReachingDefs(p, fn, e.Text(), use) {
		if !d.value.Valid() {
			continue
		}
		v := exXMLOptions(p, d.value, d.node, depth+1)
		switch op := BinaryOp(d.node); {
		case d.node.Kind() == "init_declarator" || op == "=":
			f = v
		case op == "|=" || op == "+=" || op == "^=":
			f |= v
		case op == "&=":
			if r := Uncast(d.value); r.Kind() == "unary_expression" && r.FirstChild().Text() == "~" {
				f &^= exXMLOptions(p, r.Field("argument"), d.node, depth+1)
			} else {
				f &= v
			}
		}
	}
	return f
}

var exDefineRE = checkers.LazyRegexp(`^#\s*define\s+(\w+)\s+(.*)$`)

// exXMLMacro evaluates an object-like macro of the file as parser options.
func exXMLMacro(p *checkers.Pass, name string) (exXMLFlags, bool) {
	type key struct{}
	macros := checkers.Memo(p, key{}, func() map[string]exXMLFlags {
		out := map[string]exXMLFlags{}
		for _, i := range directiveToks(p.Lex) {
			text := strings.ReplaceAll(p.Lex.Text(int(i)), "\\\n", " ")
			m := exDefineRE().FindStringSubmatch(text)
			if m == nil {
				continue
			}
			var f exXMLFlags
			body := strings.ReplaceAll(m[2], " ", "")
			if strings.Contains(body, "XML_PARSE_NOENT") && !strings.Contains(body, "~XML_PARSE_NOENT") {
				f |= exXMLNoent
			}
			if strings.Contains(body, "XML_PARSE_DTDLOAD") && !strings.Contains(body, "~XML_PARSE_DTDLOAD") {
				f |= exXMLDTDLoad
			}
			out[m[1]] = f
		}
		return out
	})
	f, ok := macros[name]
	return f, ok
}
