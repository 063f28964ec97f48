package c

import (
	"fmt"
	"sort"
	"strings"

	"github.com/jsec/jsec/checkers"
	"github.com/jsec/jsec/checkers/syntax"
)

// Errors family: calls whose result says whether they worked, used as
// expression statements so that the result is lost. Its rules are in
// rules/c_errors.go. A call counts as unchecked only when it is a whole
// statement: assigned, compared, returned, passed on or cast to (void), its
// result is somebody's branchChoice.
const (
	ruleUncheckedIO        = "c.errors.unchecked-io"
	ruleUncheckedNetwork   = "c.errors.unchecked-network"
	ruleUncheckedPrivilege = "c.errors.unchecked-privilege"
	ruleUncheckedPthread   = "c.errors.unchecked-pthread"
)

// uncheckedCall describes one call whose result must be checked.
type uncheckedCall struct {
	rule   string
	what   string  // what goes unnoticed
	adjust float64 // evidence beyond the rule's base confidence
	// stream is the 1-based position of a file-descriptor or stream
	// argument; writes to stdout/stderr (diagnostics) are not reported.
	stream int
	// length is the 1-based position of a length argument; a literal 0 (a
	// zero-length send that only pokes the socket) is not reported.
	length int
	// removal marks unlink and remove: they are reported only when the
	// function then creates something at the same path (a failed removal
	// makes the creation follow or reuse what an attacker left there); a
	// removal for cleanup is not worth checking.
	removal bool
	// option is the 1-based position of a socket option: only options that
	// protect something (securityOptions) are reported; tuning options
	// (buffer sizes, TCP_NODELAY) are not.
	option int
	// sticky marks stdio writes: a stream's error flag is sticky, so the
	// call is fine when the function later checks ferror(stream) or the
	// result of fclose(stream).
	sticky bool
}

const (
	shortIO  = "a short or failed transfer goes unnoticed"
	readIO   = "a failed or short read leaves the buffer partly unset"
	seekIO   = "a failed seek makes the next read or write use the wrong offset"
	fsIO     = "the program goes on as if the file-system change had happened"
	rmIO     = "the file may still be there (a stale lock, or data meant to be gone)"
	netIO    = "a failed or partial transfer is treated as complete"
	netSetup = "the program goes on with a socket that is not set up"
	privDrop = "if it fails the program keeps running with the privileges it meant to drop"
	permSet  = "if it fails the file keeps its old owner or permissions"
	pthrIO   = "a failure goes unnoticed and the object or thread is used as if the call had worked"
)

// uncheckedCalls is the call list of the family: data, not code.
var uncheckedCalls = map[string]uncheckedCall{
	// File and stream I/O.
	"read":      {rule: ruleUncheckedIO, what: readIO, adjust: 0.1},
	"pread":     {rule: ruleUncheckedIO, what: readIO, adjust: 0.1},
	"readv":     {rule: ruleUncheckedIO, what: readIO, adjust: 0.1},
	"fread":     {rule: ruleUncheckedIO, what: readIO, adjust: 0.1},
	"write":     {rule: ruleUncheckedIO, what: shortIO, stream: 1, length: 3},
	"pwrite":    {rule: ruleUncheckedIO, what: shortIO, stream: 1},
	"writev":    {rule: ruleUncheckedIO, what: shortIO, stream: 1},
	"fwrite":    {rule: ruleUncheckedIO, what: shortIO, stream: 4, sticky: true},
	"fseek":     {rule: ruleUncheckedIO, what: seekIO},
	"fseeko":    {rule: ruleUncheckedIO, what: seekIO},
	"lseek":     {rule: ruleUncheckedIO, what: seekIO},
	"ftruncate": {rule: ruleUncheckedIO, what: fsIO},
	"truncate":  {rule: ruleUncheckedIO, what: fsIO},
	"fsync":     {rule: ruleUncheckedIO, what: "data may not have reached the disk"},
	"fdatasync": {rule: ruleUncheckedIO, what: "data may not have reached the disk"},
	"fflush":    {rule: ruleUncheckedIO, what: "buffered data may be lost without notice", adjust: -0.15, stream: 1, sticky: true},
	"rename":    {rule: ruleUncheckedIO, what: fsIO, adjust: 0.05},
	"unlink":    {rule: ruleUncheckedIO, what: rmIO, removal: true},
	"remove":    {rule: ruleUncheckedIO, what: rmIO, removal: true},
	"mkdir":     {rule: ruleUncheckedIO, what: "the program goes on to use a directory that may not exist or belong to someone else", adjust: -0.05},
	"chdir":     {rule: ruleUncheckedIO, what: "the program goes on in the wrong working directory", adjust: 0.15},
	"pipe":      {rule: ruleUncheckedIO, what: "the descriptors stay uninitialised when it fails", adjust: 0.1},

	// Sockets.
	"recv":       {rule: ruleUncheckedNetwork, what: "the received length is unknown and a failure goes unnoticed", adjust: 0.15},
	"recvfrom":   {rule: ruleUncheckedNetwork, what: "the received length is unknown and a failure goes unnoticed", adjust: 0.15},
	"recvmsg":    {rule: ruleUncheckedNetwork, what: "the received length is unknown and a failure goes unnoticed", adjust: 0.15},
	"send":       {rule: ruleUncheckedNetwork, what: netIO, length: 3},
	"sendto":     {rule: ruleUncheckedNetwork, what: netIO, length: 3},
	"sendmsg":    {rule: ruleUncheckedNetwork, what: netIO},
	"connect":    {rule: ruleUncheckedNetwork, what: netSetup, adjust: 0.05},
	"bind":       {rule: ruleUncheckedNetwork, what: netSetup, adjust: 0.1},
	"listen":     {rule: ruleUncheckedNetwork, what: netSetup},
	"accept":     {rule: ruleUncheckedNetwork, what: "the accepted descriptor is lost (leaked) and errors go unnoticed", adjust: 0.05},
	"accept4":    {rule: ruleUncheckedNetwork, what: "the accepted descriptor is lost (leaked) and errors go unnoticed", adjust: 0.05},
	"setsockopt": {rule: ruleUncheckedNetwork, what: "the socket goes on without the protection the option was to give", option: 3},

	// Privilege and permission changes.
	"setuid":     {rule: ruleUncheckedPrivilege, what: privDrop},
	"setgid":     {rule: ruleUncheckedPrivilege, what: privDrop},
	"seteuid":    {rule: ruleUncheckedPrivilege, what: privDrop},
	"setegid":    {rule: ruleUncheckedPrivilege, what: privDrop},
	"setreuid":   {rule: ruleUncheckedPrivilege, what: privDrop},
	"setregid":   {rule: ruleUncheckedPrivilege, what: privDrop},
	"setresuid":  {rule: ruleUncheckedPrivilege, what: privDrop},
	"setresgid":  {rule: ruleUncheckedPrivilege, what: privDrop},
	"setgroups":  {rule: ruleUncheckedPrivilege, what: "if it fails the process keeps its supplementary (possibly root) groups"},
	"initgroups": {rule: ruleUncheckedPrivilege, what: "if it fails the process keeps its supplementary (possibly root) groups"},
	"chroot":     {rule: ruleUncheckedPrivilege, what: "if it fails the process is not confined and goes on with the whole file system"},
	"chown":      {rule: ruleUncheckedPrivilege, what: permSet, adjust: -0.2},
	"lchown":     {rule: ruleUncheckedPrivilege, what: permSet, adjust: -0.2},
	"fchown":     {rule: ruleUncheckedPrivilege, what: permSet, adjust: -0.2},
	"fchownat":   {rule: ruleUncheckedPrivilege, what: permSet, adjust: -0.2},
	"chmod":      {rule: ruleUncheckedPrivilege, what: permSet, adjust: -0.1},
	"fchmod":     {rule: ruleUncheckedPrivilege, what: permSet, adjust: -0.1},
	"fchmodat":   {rule: ruleUncheckedPrivilege, what: permSet, adjust: -0.1},

	// Threads (lock and unlock are not in the list: a separate concern, and noise).
	"pthread_create":               {rule: ruleUncheckedPthread, what: "a thread that was never created is joined or waited for", adjust: 0.15},
	"pthread_join":                 {rule: ruleUncheckedPthread, what: pthrIO, adjust: -0.1},
	"pthread_detach":               {rule: ruleUncheckedPthread, what: pthrIO, adjust: -0.1},
	"pthread_mutex_init":           {rule: ruleUncheckedPthread, what: pthrIO},
	"pthread_cond_init":            {rule: ruleUncheckedPthread, what: pthrIO},
	"pthread_rwlock_init":          {rule: ruleUncheckedPthread, what: pthrIO},
	"pthread_spin_init":            {rule: ruleUncheckedPthread, what: pthrIO},
	"pthread_barrier_init":         {rule: ruleUncheckedPthread, what: pthrIO},
	"pthread_key_create":           {rule: ruleUncheckedPthread, what: pthrIO, adjust: 0.05},
	"pthread_setspecific":          {rule: ruleUncheckedPthread, what: pthrIO},
	"pthread_once":                 {rule: ruleUncheckedPthread, what: pthrIO, adjust: -0.1},
	"pthread_sigmask":              {rule: ruleUncheckedPthread, what: "the signal mask may not be what the code relies on"},
	"pthread_mutexattr_init":       {rule: ruleUncheckedPthread, what: pthrIO, adjust: -0.1},
	"pthread_mutexattr_settype":    {rule: ruleUncheckedPthread, what: pthrIO},
	"pthread_condattr_init":        {rule: ruleUncheckedPthread, what: pthrIO, adjust: -0.1},
	"pthread_condattr_setclock":    {rule: ruleUncheckedPthread, what: pthrIO},
	"pthread_attr_init":            {rule: ruleUncheckedPthread, what: pthrIO, adjust: -0.2},
	"pthread_attr_setdetachstate":  {rule: ruleUncheckedPthread, what: pthrIO, adjust: -0.1},
	"pthread_attr_setstacksize":    {rule: ruleUncheckedPthread, what: pthrIO},
	"pthread_attr_setguardsize":    {rule: ruleUncheckedPthread, what: pthrIO, adjust: -0.1},
	"pthread_attr_setscope":        {rule: ruleUncheckedPthread, what: pthrIO, adjust: -0.1},
	"pthread_attr_setschedpolicy":  {rule: ruleUncheckedPthread, what: pthrIO},
	"pthread_attr_setschedparam":   {rule: ruleUncheckedPthread, what: pthrIO},
	"pthread_attr_setinheritsched": {rule: ruleUncheckedPthread, what: pthrIO},
}

// uidChangers drop (or regain) the user id; gidChangers change groups,
// which needs the privilege a uid drop gives up.
var (
	uidChangers = map[string]bool{"setuid": true, "seteuid": true, "setreuid": true, "setresuid": true}
	gidChangers = map[string]bool{"setgid": true, "setegid": true, "setregid": true, "setresgid": true, "setgroups": true, "initgroups": true}
)

func triggersOf(rule string) []string {
	var out []string
	for name, u := range uncheckedCalls {
		if u.rule == rule {
			out = append(out, name)
		}
	}
	sort.Strings(out)
	return out
}

var errorsCheckers = []*checkers.Checker{
	{Name: "c/errors/io", Rules: []string{ruleUncheckedIO}, Triggers: triggersOf(ruleUncheckedIO), Triage: triageStatement, Check: checkUnchecked},
	{Name: "c/errors/network", Rules: []string{ruleUncheckedNetwork}, Triggers: triggersOf(ruleUncheckedNetwork), Triage: triageStatement, Check: checkUnchecked},
	{Name: "c/errors/privilege", Rules: []string{ruleUncheckedPrivilege}, Triggers: triggersOf(ruleUncheckedPrivilege), Triage: triagePrivilege, Check: checkUnchecked},
	{Name: "c/errors/pthread", Rules: []string{ruleUncheckedPthread}, Triggers: triggersOf(ruleUncheckedPthread), Triage: triageStatement, Check: checkUnchecked},
}

// triageStatement keeps calls that stand as a whole statement: the call's
// ")" is followed by ";" and the token before the name ends a statement or
// a condition ("(void)" casts pass here and are dropped by Check).
func triageStatement(lx *checkers.Lexed, i int) bool {
	if !lx.Is(i+1, "(") || isMemberTok(lx, i) {
		return false
	}
	if cl := lx.Close(i + 1); cl < 0 || !lx.Is(cl+1, ";") {
		return false
	}
	j := i - 1
	if lx.Is(j, "::") {
		j--
		if lx.Is(j, "std") {
			j--
		}
	}
	if j < 0 || lx.Kind(j) == checkers.TokPreproc {
		return true
	}
	switch lx.Text(j) {
	case ")":
		if lx.Is(j-1, "void") && lx.Is(j-2, "(") {
			return false // (void)write(…): deliberately ignored
		}
	case ";", "{", "}", ":", "else", "do":
	default:
		return false
	}
	// Diagnostics to stdout/stderr, zero-length sends and cleanup removals
	// are not reported: drop them before they cost a parse.
	u := uncheckedCalls[lx.Text(i)]
	args, ok := lx.CallArgs(i)
	if !ok {
		return true
	}
	if u.removal && len(args) > 0 && !createdAfter(lx, i, args[0]) {
		return false
	}
	if a, ok := argToken(args, u.stream); ok && stdStreams[lx.Text(a)] {
		return false
	}
	if a, ok := argToken(args, u.length); ok && lx.Is(a, "0") {
		return false
	}
	if u.option > 0 {
		a, ok := argToken(args, u.option)
		return ok && securityOptions[lx.Text(a)]
	}
	return true
}

// argToken returns the token of the pos-th (1-based) argument when that
// argument is a single token.
func argToken(args []checkers.Span, pos int) (int, bool) {
	if pos < 1 || pos > len(args) || args[pos-1].End-args[pos-1].Start != 1 {
		return 0, false
	}
	return args[pos-1].Start, true
}

// securityOptions are the socket options whose failure leaves a socket
// less protected than the code believes: timeouts (a peer can hang the
// program), address-family and interface restrictions, hop-count checks,
// TCP-MD5 authentication, exclusive binding.
var securityOptions = map[string]bool{
	"SO_RCVTIMEO": true, "SO_SNDTIMEO": true, "IPV6_V6ONLY": true, "SO_EXCLUSIVEADDRUSE": true,
	"SO_BINDTODEVICE": true, "IP_MINTTL": true, "IPV6_MINHOPCOUNT": true, "TCP_MD5SIG": true, "SO_PASSCRED": true,
}

// stdStreams are the descriptors and streams of diagnostics.
var stdStreams = map[string]bool{"1": true, "2": true, "STDOUT_FILENO": true, "STDERR_FILENO": true, "stdout": true, "stderr": true}

// triagePrivilege keeps every uid/gid change (the order rule needs the
// checked ones too) and statement calls of the others.
func triagePrivilege(lx *checkers.Lexed, i int) bool {
	if w := lx.Text(i); uidChangers[w] || gidChangers[w] {
		return triageCall(lx, i)
	}
	return triageStatement(lx, i)
}

// checkUnchecked reports a call of the list whose result is discarded, and
// a group change after a user-id drop.
func checkUnchecked(p *checkers.Pass, h checkers.Hit) {
	call, ok := CallAt(h)
	if !ok || call.Ancestor("function_definition").Valid() && !EnclosingFunction(call).Valid() {
		return // a class body read as a function: a declaration, not a call
	}
	if _, own := fileFuncs(p)[h.Word]; own {
		return // the program's own function of that name
	}
	if fn := EnclosingFunction(call); fn.Valid() && FuncScope(p, fn).Lookup(h.Word, call) != nil {
		return // a local of that name: a lambda, a function pointer
	}
	if f := Unparen(call.Field("function")); f.Kind() == "qualified_identifier" {
		if sc := f.Field("scope"); sc.Valid() && sc.Text() != "std" {
			return // QObject::connect is no socket call (triageStatement agrees)
		}
	}
	u := uncheckedCalls[h.Word]
	discarded := discardedResult(call)
	if discarded && (u.stream > 0 && isStdStream(Arg(call, u.stream-1)) || u.length > 0 && IsNullLiteral(Arg(call, u.length-1)) ||
		u.option > 0 && !securityOptions[Arg(call, u.option-1).Text()] ||
		u.removal && !recreated(p, h.Tok) || u.sticky && stickyChecked(call, Arg(call, u.stream-1))) {
		return // diagnostics, a zero-length poke, cleanup, a stream checked later
	}
	var order syntax.Node
	if gidChangers[h.Word] {
		order = uidDroppedBefore(p, call)
	}
	switch {
	case order.Valid():
		msg := fmt.Sprintf("%s() runs after %s() at line %d dropped the user id: without that privilege the group change fails and the process keeps its privileged group",
			h.Word, CalleeName(order), srcLine(p, order.Start()))
		adjust := -0.25 // checked: the failure is noticed, the drop is merely broken
		if discarded {
			msg += "; its result is not checked either"
			adjust = 0.05
		}
		p.Report(checkers.Finding{Rule: u.rule, Span: checkers.NodeSpan(call), Adjust: adjust, Message: msg})
	case discarded:
		adjust, what := u.adjust, u.what
		if u.removal {
			what = "the path is then created again, and a removal that failed leaves whatever was there (a symlink, another user's file) to be opened or reused"
		}
		if u.sticky && !ownedStream(p, call, Arg(call, u.stream-1)) {
			adjust -= 0.15 // the stream's owner may check ferror() or fclose() later
		}
		switch h.Word {
		case "pthread_mutex_init", "pthread_cond_init", "pthread_rwlock_init":
			if IsNullLiteral(Arg(call, 1)) {
				adjust -= 0.2
				what = "with default attributes it fails only for lack of resources, but then the object is used uninitialised"
			}
		}
		p.Report(checkers.Finding{Rule: u.rule, Span: checkers.NodeSpan(call), Adjust: adjust,
			Message: fmt.Sprintf("the result of %s() is discarded: %s", h.Word, what)})
	}
}

// discardedResult reports whether call is a whole expression statement
// (not cast to void, not part of an expression).
func discardedResult(call syntax.Node) bool {
	p := call.Parent()
	for p.Kind() == "parenthesized_expression" {
		p = p.Parent()
	}
	return p.Kind() == "expression_statement"
}

// isStdStream reports whether a descriptor or stream argument is standard
// output or error.
func isStdStream(n syntax.Node) bool {
	t := squash(Uncast(n).Text())
	return stdStreams[t] || t == "fileno(stdout)" || t == "fileno(stderr)"
}

// uidDroppedBefore returns the last user-id change that runs before call
// in its function (unconditionally with respect to it) when that change
// drops privilege (its argument is not the literal 0 that regains root).
func uidDroppedBefore(p *checkers.Pass, call syntax.Node) syntax.Node {
	fn := EnclosingFunction(call)
	var last syntax.Node
	fn.Field("body").Walk(func(n syntax.Node) bool {
		if n.Start() >= call.Start() {
			return false
		}
		if n.Kind() == "call_expression" && uidChangers[CalleeName(n)] {
			if s := EnclosingStatement(n); s.Valid() && s.Parent().Contains(call) && !s.Contains(call) {
				last = n
			}
		}
		return true
	})
	if !last.Valid() {
		return syntax.Node{}
	}
	for _, a := range Args(last) {
		if v, ok := IntValue(a, nil); ok && v == 0 {
			return syntax.Node{} // seteuid(0): root again
		}
	}
	return last
}

// creators open a path for writing, creating it when it is missing and
// following or reusing it when it is there: a failed removal before them
// goes unnoticed. Calls that fail on an existing path (mkdir, mkfifo,
// symlink, bind, open with O_EXCL, fopen with "x") surface it themselves.
var creators = map[string]bool{"open": true, "open64": true, "creat": true, "fopen": true, "fopen64": true, "xopen": true}

// createdAfter reports whether, after the removal at token i whose path
// argument spans arg, the rest of its function opens the same path text
// with a creator, non-exclusively.
func createdAfter(lx *checkers.Lexed, i int, arg checkers.Span) bool {
	path := spanText(lx, arg)
	item := lx.ItemOf(i)
	if item < 0 {
		return false
	}
	for j := lx.Close(i+1) + 1; j > 0 && j < lx.Items[item].TokEnd; j++ {
		w := lx.Text(j)
		if lx.Kind(j) != checkers.TokIdent || !creators[w] || !lx.Is(j+1, "(") || isMemberTok(lx, j) {
			continue
		}
		args, ok := lx.CallArgs(j)
		if !ok || len(args) == 0 || spanText(lx, args[0]) != path {
			continue
		}
		rest := ""
		for _, a := range args[1:] {
			rest += spanText(lx, a)
		}
		switch {
		case w == "creat":
			return true
		case strings.HasPrefix(w, "fopen"):
			// A mode that writes ("w", "a") and is not exclusive ("x").
			if strings.ContainsAny(rest, "wa") && strings.HasPrefix(rest, "\"") && !strings.Contains(rest, "x") {
				return true
			}
		case strings.Contains(rest, "O_CREAT") && !strings.Contains(rest, "O_EXCL"):
			return true
		}
	}
	return false
}

// recreated is createdAfter for the removal call at token i.
func recreated(p *checkers.Pass, i int) bool {
	args, ok := p.Lex.CallArgs(i)
	return ok && len(args) > 0 && createdAfter(p.Lex, i, args[0])
}

// spanText joins the tokens of a span without spaces.
func spanText(lx *checkers.Lexed, sp checkers.Span) string {
	var b strings.Builder
	for k := sp.Start; k < sp.End; k++ {
		b.WriteString(lx.Text(k))
	}
	return b.String()
}

// ownedStream reports whether the stream a write goes to was opened in the
// same function (fopen, fdopen, popen, tmpfile): then nobody else checks
// its errors.
func ownedStream(p *checkers.Pass, call, stream syntax.Node) bool {
	name := Ident(stream)
	fn := EnclosingFunction(call)
	if name == "" || !fn.Valid() {
		return false
	}
	for _, d := range Defs(p, fn).Reaching(name, call) {
		if d.Kind == DefAssign {
			switch CalleeName(Uncast(d.Value)) {
			case "fopen", "fdopen", "popen", "tmpfile", "fopen64", "freopen":
				return true
			}
		}
	}
	return false
}

// stickyChecked reports whether the function holding call later tests the
// stream's error state: ferror(stream), or fclose(stream) whose result is
// used.
func stickyChecked(call, stream syntax.Node) bool {
	fn := EnclosingFunction(call)
	want := squash(stream.Text())
	if !fn.Valid() || want == "" {
		return false
	}
	checked := false
	fn.Field("body").Walk(func(n syntax.Node) bool {
		if checked || n.Kind() != "call_expression" || n.Start() < call.End() {
			return !checked
		}
		switch CalleeName(n) {
		case "ferror", "fclose":
			checked = squash(Arg(n, 0).Text()) == want && (CalleeName(n) == "ferror" || !discardedResult(n))
		}
		return !checked
	})
	return checked
}
