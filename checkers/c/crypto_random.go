package c

import (
	"fmt"
	"slices"
	"strings"

	"github.com/jsec/jsec/checkers"
	"github.com/jsec/jsec/checkers/syntax"
	"github.com/jsec/jsec/issue"
)

// Insecure randomness: rand() and its kin are predictable. They are
// reported only where their value lands in something that names a secret
// (a token, a nonce, a key …) or feeds a crypto API, never for simulations,
// jitter or sampling; their seeds are reported when predictable.

// rngGenerators maps each libc generator to the seeding call that sets
// its state ("" for generators that keep their state in an argument).
var rngGenerators = map[string]string{
	"rand": "srand", "random": "srandom", "drand48": "srand48", "lrand48": "srand48", "mrand48": "srand48",
	"rand_r": "", "erand48": "", "nrand48": "", "jrand48": "",
}

// rngSeeders set the state of the libc generators.
var rngSeeders = map[string]bool{"srand": true, "srandom": true, "srand48": true}

// rngCryptoPrefixes name crypto and auth libraries: a random value passed
// to one of their calls is a security value.
var rngCryptoPrefixes = []string{
	"EVP_", "HMAC", "AES_", "DES_", "RAND_", "mbedtls_", "gcry_", "gnutls_", "crypto_", "sodium_",
	"SSL_", "BF_", "RC4", "CC_", "wc_", "PKCS5_", "BCrypt", "Crypt",
}

// rngWriters are calls whose first argument receives a value built from
// the others: snprintf(token, n, "%x", rand()) puts it in token.
var rngWriters = map[string]bool{"sprintf": true, "snprintf": true, "swprintf": true, "memcpy": true, "memmove": true}

// rngTimeCalls return a predictable seed.
var rngTimeCalls = map[string]string{
	"time": "the time", "getpid": "the process id", "getppid": "the process id", "clock": "the clock",
	"gettid": "the thread id", "pthread_self": "the thread id", "GetTickCount": "the tick count",
	"GetTickCount64": "the tick count", "GetCurrentProcessId": "the process id", "timeGetTime": "the time",
	"gettimeofday": "the time", "clock_gettime": "the time", "ftime": "the time",
}

// rngTriggers are the generators and their seeding calls.
func rngTriggers() []string {
	var out []string
	for k := range rngGenerators {
		out = append(out, k)
	}
	for k := range rngSeeders {
		out = append(out, k)
	}
	return out
}

// triageRandom keeps calls only ("rand" as a variable or a field is not
// the generator), and generator calls only in items that hold a name a
// random value could land in: a secret-like name (token, s->nonce,
// make_salt) or a crypto API. rngLanding never looks outside the item.
func triageRandom(lx *checkers.Lexed, tok int) bool {
	if !lx.Is(tok+1, "(") || lx.Is(tok-1, ".") || lx.Is(tok-1, "->") {
		return false
	}
	it := lx.ItemOf(tok)
	if rngSeeders[lx.Text(tok)] || it < 0 {
		return it >= 0
	}
	// Weak names (key, session) count only as the direct target, in the
	// statement of the call; strong names and crypto calls anywhere in
	// the item (through a local, a return, an argument).
	stmtStart, stmtEnd := tok, tok
	for stmtStart > lx.Items[it].TokStart && !lx.Is(stmtStart-1, ";") && !lx.Is(stmtStart-1, "}") &&
		!(lx.Is(stmtStart-1, "{") && !lx.Is(stmtStart-2, "=") && !lx.Is(stmtStart-2, ",") && !lx.Is(stmtStart-2, "{")) {
		stmtStart-- // an initialiser's brace does not start a statement
	}
	for stmtEnd < lx.Items[it].TokEnd && !lx.Is(stmtEnd, ";") {
		stmtEnd++
	}
	names := rngNames(lx, it)
	if names.strong {
		return true
	}
	k, _ := slices.BinarySearch(names.weak, int32(stmtStart))
	return k < len(names.weak) && int(names.weak[k]) < stmtEnd
}

// rngItemNames are the secret names of one item, found once for all its
// calls (a scan of the item per call was quadratic in a function with
// thousands of them): whether it names a strong secret or calls a crypto
// library anywhere, and otherwise where its weak names are (token
// indices, in order).
type rngItemNames struct {
	strong bool
	weak   []int32
}

var rngNamesSlot = checkers.NewMemoSlot()

func rngNames(lx *checkers.Lexed, it int) rngItemNames {
	return checkers.ItemMemo(lx, rngNamesSlot, it, func() rngItemNames {
		var r rngItemNames
		for i := lx.Items[it].TokStart; i < lx.Items[it].TokEnd; i++ {
			if lx.Kind(i) != checkers.TokIdent {
				continue
			}
			w := lx.Text(i)
			switch s := randomSecretName(w); {
			case s == secretStrong || rngCryptoName(w):
				return rngItemNames{strong: true}
			case s == secretWeak:
				r.weak = append(r.weak, int32(i))
			}
		}
		return r
	})
}

// rngCryptoName reports whether a callee belongs to a crypto library.
func rngCryptoName(name string) bool {
	for _, pre := range rngCryptoPrefixes {
		if strings.HasPrefix(name, pre) {
			return true
		}
	}
	return false
}

// checkRandom dispatches a generator or seeding call.
func checkRandom(p *checkers.Pass, h checkers.Hit) {
	call, ok := CallAt(h)
	if !ok {
		return
	}
	if rngSeeders[h.Word] {
		checkSeed(p, call, h.Word)
		return
	}
	target, strength := rngLanding(p, call, true)
	if strength == secretNone {
		return
	}
	f := checkers.Finding{Rule: ruleRandom, Span: checkers.NodeSpan(call),
		Message: fmt.Sprintf("%s() produces %s, a security value; its output is predictable from a few samples", h.Word, target)}
	if strength == secretWeak {
		f.Adjust = -0.15
	}
	p.Report(f)
}

// rngLanding follows the value of call up through arithmetic, casts,
// array lookups (charset[rand() % n]) and initialisers to where it lands,
// and says whether that place names a secret. With hop set, a value
// stored in an ordinary local is followed to the uses that variable's
// definition reaches (r = rand(); token[i] = alphabet[r % 62]).
func rngLanding(p *checkers.Pass, call syntax.Node, hop bool) (string, secretStrength) {
	e := call
	for depth := 0; depth < 16; depth++ {
		parent := e.Parent()
		switch parent.Kind() {
		case "parenthesized_expression", "cast_expression", "initializer_list", "subscript_argument_list":
		case "unary_expression":
			if op := parent.FirstChild().Text(); op != "-" && op != "~" && op != "+" {
				return "", secretNone // !rand() is a decision, not a value
			}
		case "pointer_expression":
			if parent.FirstChild().Text() != "&" {
				return "", secretNone
			}
		case "binary_expression":
			switch BinaryOp(parent) {
			case "+", "-", "*", "/", "%", "&", "|", "^", "<<", ">>":
			default:
				return "", secretNone // a comparison: the value decides, it is not kept
			}
		case "conditional_expression":
			if parent.Field("condition").Index() == e.Index() {
				return "", secretNone
			}
		case "subscript_expression":
			if parent.Field("argument").Index() == e.Index() {
				return "", secretNone
			}
		case "assignment_expression":
			if parent.Field("right").Index() != e.Index() {
				return "", secretNone
			}
			return rngTarget(p, parent, parent.Field("left"), hop)
		case "init_declarator":
			return rngTarget(p, parent, parent.Field("declarator"), hop)
		case "initializer_pair":
			name := parent.Field("designator").Text()
			name = strings.TrimLeft(name, ".")
			return rngNamed(name, "field '"+name+"'")
		case "return_statement":
			name := checkers.FunctionName(parent)
			if i := strings.LastIndex(name, "::"); i >= 0 {
				name = name[i+2:]
			}
			return rngStrong(rngNamed(name, "the return value of '"+name+"'"))
		case "argument_list":
			if cryptoNamedCast(parent.Parent()) {
				break // static_cast<unsigned>(rand())
			}
			return rngArgument(parent.Parent(), e)
		default:
			return "", secretNone
		}
		e = parent
	}
	return "", secretNone
}

// rngArgument judges a random value passed to a call: to a crypto API,
// to a function whose name denotes a secret, or into the destination of
// a formatting or copying call.
func rngArgument(call, arg syntax.Node) (string, secretStrength) {
	name := CalleeName(call)
	if rngCryptoName(name) {
		return "an argument of " + name + "()", secretStrong
	}
	if rngWriters[name] {
		if dst := Arg(call, 0); dst.Valid() && dst.Index() != arg.Index() {
			n := rngPathName(dst)
			return rngNamed(n, "'"+shortText(dst)+"'")
		}
	}
	return rngStrong(rngNamed(name, "an argument of "+name+"()"))
}

// rngStrong keeps only strong matches: function names such as
// getRandomKey or pick_session name a choice, not a secret.
func rngStrong(what string, s secretStrength) (string, secretStrength) {
	if s != secretStrong {
		return "", secretNone
	}
	return what, s
}

// rngTarget judges the left side of an assignment or a declarator.
func rngTarget(p *checkers.Pass, def, lhs syntax.Node, hop bool) (string, secretStrength) {
	var name string
	if lhs.Kind() == "identifier" || def.Kind() == "assignment_expression" {
		name = rngPathName(lhs)
	} else {
		name = declIdent(lhs)
	}
	if name == "" {
		return "", secretNone
	}
	if what, s := rngNamed(name, "'"+shortText(lhs)+"'"); s != secretNone {
		return what, s
	}
	if !hop || Uncast(lhs).Kind() != "identifier" {
		return "", secretNone // only plain locals are followed
	}
	return rngFollow(p, def, name)
}

// rngFollow looks at the uses of a plain local that a random value was
// stored in: the first use that lands in a secret decides.
func rngFollow(p *checkers.Pass, def syntax.Node, name string) (string, secretStrength) {
	fn := EnclosingFunction(def)
	if !fn.Valid() {
		return "", secretNone
	}
	defs := Defs(p, fn)
	var what string
	var best secretStrength
	fn.Field("body").Walk(func(n syntax.Node) bool {
		if best == secretStrong {
			return false
		}
		if n.Kind() != "identifier" || n.Text() != name || n.Start() < def.End() {
			return true
		}
		reached := false
		for _, d := range defs.Reaching(name, n) {
			reached = reached || d.Node.Index() == def.Index()
		}
		if !reached {
			return true
		}
		if w, s := rngStrong(rngLanding(p, n, false)); s > best {
			what, best = fmt.Sprintf("'%s', which ends up in %s", name, w), s
		}
		return true
	})
	return what, best
}

// rngPathName returns the last name of an lvalue: "nonce" for s->nonce,
// "key" for key[i], "iv" for *iv.
func rngPathName(n syntax.Node) string {
	for {
		n = Uncast(n)
		switch n.Kind() {
		case "identifier", "field_identifier":
			return n.Text()
		case "field_expression":
			return n.Field("field").Text()
		case "subscript_expression", "pointer_expression":
			n = n.Field("argument")
		default:
			return ""
		}
	}
}

// rngNamed judges a name with randomSecretName and describes it.
func rngNamed(name, what string) (string, secretStrength) {
	if s := randomSecretName(name); s != secretNone {
		return what, s
	}
	return "", secretNone
}

// checkSeed reports srand(time(NULL)) and other predictable seeds. It is
// Medium when the file uses the seeded generator for a security value,
// Low otherwise (a predictable seed then only matters for reproducibility
// of simulations).
func checkSeed(p *checkers.Pass, call syntax.Node, seeder string) {
	arg := Arg(call, 0)
	what := rngSeedKind(p, arg, 0)
	if what == "" {
		return
	}
	f := checkers.Finding{Rule: ruleRandomSeed, Span: checkers.NodeSpan(call)}
	if use := rngFileSecretUse(p)[seeder]; use != "" {
		f.Message = fmt.Sprintf("%s() seeds the generator with %s (%s), which an attacker can guess; this file uses its output for %s", seeder, what, shortText(arg), use)
		f.Adjust = 0.1
	} else {
		f.Message = fmt.Sprintf("%s() seeds the generator with %s (%s), which an attacker can guess; do not use its output for anything secret", seeder, what, shortText(arg))
		f.Severity = issue.SeverityLow
		f.Adjust = -0.1
	}
	p.Report(f)
}

// rngSeedKind describes a predictable seed ("the time", "the constant
// 42", "the time and the process id"), or returns "" when the seed may
// carry entropy.
func rngSeedKind(p *checkers.Pass, e syntax.Node, depth int) string {
	e = Uncast(e)
	for cryptoNamedCast(e) {
		e = Uncast(Arg(e, 0))
	}
	if depth > 4 || !e.Valid() {
		return ""
	}
	if v, ok := IntValue(e, Facts(p).Macros); ok {
		return fmt.Sprintf("the constant %d", v)
	}
	switch e.Kind() {
	case "call_expression":
		return rngTimeCalls[CalleeName(e)]
	case "field_expression":
		switch e.Field("field").Text() {
		case "tv_sec", "tv_usec", "tv_nsec", "time", "millitm":
			return "the time"
		}
	case "binary_expression":
		a, b := rngSeedKind(p, e.Field("left"), depth+1), rngSeedKind(p, e.Field("right"), depth+1)
		if a == "" || b == "" {
			return ""
		}
		return rngJoin(a, b)
	case "identifier":
		return rngSeedVar(p, e, depth)
	}
	return ""
}

// rngSeedVar traces a seed variable through its reaching definitions:
// every one must be predictable (time(&t) counts as setting t to the time).
func rngSeedVar(p *checkers.Pass, id syntax.Node, depth int) string {
	fn := EnclosingFunction(id)
	if !fn.Valid() {
		return ""
	}
	v := FuncScope(p, fn).Lookup(id.Text(), id)
	if v == nil || v.Param || v.Global {
		return ""
	}
	defs := Defs(p, fn).Reaching(id.Text(), id)
	if len(defs) == 0 {
		if v.Init.Valid() {
			return rngSeedKind(p, v.Init, depth+1)
		}
		return ""
	}
	kind := ""
	for _, d := range defs {
		var k string
		switch d.Kind {
		case DefAssign:
			k = rngSeedKind(p, d.Value, depth+1)
		case DefOther:
			k = rngTimeCalls[CalleeName(d.Node)]
		}
		if k == "" || kind != "" && k != kind {
			return ""
		}
		kind = k
	}
	return kind
}

// rngUseKey memoizes rngFileSecretUse per file.
type rngUseKey struct{}

// rngFileSecretUse maps each seeding call to the first security use of
// its generator in the file's parsed code (every item that calls a
// generator is parsed, since generator calls are triggers).
func rngFileSecretUse(p *checkers.Pass) map[string]string {
	return checkers.Memo(p, rngUseKey{}, func() map[string]string {
		out := map[string]string{}
		p.Tree.Root().Walk(func(n syntax.Node) bool {
			if n.Kind() != "call_expression" {
				return true
			}
			seeder := rngGenerators[CalleeName(n)]
			if seeder == "" || out[seeder] != "" {
				return true
			}
			if what, s := rngLanding(p, n, true); s != secretNone {
				out[seeder] = what
			}
			return true
		})
		return out
	})
}

// rngJoin combines two seed descriptions: "the time" and "the process
// id" make "the time and the process id"; constants add nothing.
func rngJoin(a, b string) string {
	if strings.HasPrefix(b, "the constant") {
		return a
	}
	if strings.HasPrefix(a, "the constant") {
		return b
	}
	parts := strings.Split(a, " and ")
	for _, q := range strings.Split(b, " and ") {
		if !slices.Contains(parts, q) {
			parts = append(parts, q)
		}
	}
	return strings.Join(parts, " and ")
}

// cryptoNamedCast reports whether call is a C++ named cast
// (static_cast<T>(x) parses as a call of a template function).
func cryptoNamedCast(call syntax.Node) bool {
	if call.Kind() != "call_expression" || call.Field("function").Kind() != "template_function" {
		return false
	}
	switch CalleeName(call) {
	case "static_cast", "reinterpret_cast", "const_cast":
		return true
	}
	return false
}
