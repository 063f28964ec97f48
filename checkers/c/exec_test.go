package c

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/jsec/jsec/checkers"
	"github.com/jsec/jsec/checkers/syntax"
)

func TestExFormatConvs(t *testing.T) {
	tests := []struct {
		format string
		want   []string
		quoted []bool
	}{
		{"ls %s", []string{"s"}, []bool{false}},
		{"WHERE a='%s' AND b=%ld", []string{"s", "ld"}, []bool{true, false}},
		{"100%% done: %-*.*s|%zu", []string{"*", "*", "s", "zu"}, []bool{false, false, false, false}},
		{"name = \"%q\"", []string{"q"}, []bool{true}},
		{"%lld %hhx %c", []string{"lld", "hhx", "c"}, []bool{false, false, false}},
		{"trailing %", nil, nil},
	}
	for _, tt := range tests {
		got := exFormatConvs(tt.format)
		if len(got) != len(tt.want) {
			t.Errorf("%q: got %d conversions, want %d", tt.format, len(got), len(tt.want))
			continue
		}
		for i, cv := range got {
			if cv.conv != tt.want[i] || cv.quoted != tt.quoted[i] {
				t.Errorf("%q: conversion %d = %q quoted=%v, want %q quoted=%v", tt.format, i, cv.conv, cv.quoted, tt.want[i], tt.quoted[i])
			}
		}
	}
}

func TestExPieceTextual(t *testing.T) {
	for conv, want := range map[string]bool{"s": true, "ls": true, "c": true, "": true, "d": false, "lu": false, "zu": false, "x": false, "f": false, "*": false} {
		if got := (exPiece{Conv: conv}).textual(); got != want {
			t.Errorf("textual(%q) = %v, want %v", conv, got, want)
		}
	}
}

func TestExPatterns(t *testing.T) {
	sql := map[string]bool{
		"SELECT id FROM users WHERE name = '\x00'": true,
		"insert into log(msg) values('\x00')":      true,
		"UPDATE t SET a = \x00":                    true,
		"DELETE FROM sessions":                     true,
		"CALL log_event('RESTRING settings \x00')": false,
		"select the file to update":                false,
		"failed to insert item \x00 into the list": false,
	}
	for text, want := range sql {
		if got := exSQLRE().MatchString(text); got != want {
			t.Errorf("exSQLRE(%q) = %v, want %v", text, got, want)
		}
	}
	fetch := map[string]bool{
		"curl -s \x00":                    true,
		"cd /srv && wget -q '\x00'":       true,
		"/usr/bin/curl -o x \x00":         true,
		"echo \x00 | curl -d @- http://x": true,
		"libcurl-config --libs":           false,
		"grep wget_options \x00":          false,
	}
	for text, want := range fetch {
		if got := exFetchRE().MatchString(text); got != want {
			t.Errorf("exFetchRE(%q) = %v, want %v", text, got, want)
		}
	}
}

func TestExFixedProgram(t *testing.T) {
	for text, want := range map[string]string{
		"helper.exe --daemon \x00":          "helper.exe",
		"\"C:\\Program Files\\x.exe\" \x00": "C:\\Program Files\\x.exe",
		"\x00 --flag":                       "",
		"prefix\x00":                        "",
	} {
		if got := exFixedProgram(text); got != want {
			t.Errorf("exFixedProgram(%q) = %q, want %q", text, got, want)
		}
	}
}

func TestExNames(t *testing.T) {
	for name, want := range map[string]bool{"SHELL_PATH": true, "NTLM_WB_FILE": true, "X": false, "argv": false, "Shell": false, "O_RDONLY": true} {
		if got := exMacroName(name); got != want {
			t.Errorf("exMacroName(%q) = %v, want %v", name, got, want)
		}
	}
	for name, want := range map[string]bool{"QUERY_STRING": true, "HTTP_COOKIE": true, "HOME": false, "PATH": false} {
		if got := exCGIName(name); got != want {
			t.Errorf("exCGIName(%q) = %v, want %v", name, got, want)
		}
	}
	kinds := map[string]exInput{"argv[1]": exInputLocal, "*argv": exInputLocal, "optarg": exInputLocal,
		`getenv("HOME")`: exInputLocal, `getenv("QUERY_STRING")`: exInputNetwork, "recv()": exInputNetwork, "fgets()": exInputStream}
	for what, want := range kinds {
		if got := exInputKind(Source{OriginExternal, what}); got != want {
			t.Errorf("exInputKind(%q) = %v, want %v", what, got, want)
		}
	}
}

func TestFsTokMode(t *testing.T) {
	tests := []struct {
		src  string
		want bool // may hold S_IWOTH
	}{
		{"chmod(p, 0777)", true},
		{"chmod(p, 0644)", false},
		{"chmod(p, S_IRUSR | S_IWOTH)", true},
		{"chmod(p, S_IRWXU | S_IRGRP)", false},
		{"chmod(p, mode)", true},
		{"chmod(p, 0666 & ~S_IWOTH)", true},
	}
	for _, tt := range tests {
		lx := LexC([]byte(tt.src))
		args, ok := lx.CallArgs(0)
		if !ok || len(args) != 2 {
			t.Fatalf("%s: no call", tt.src)
		}
		if got := fsTokMode(lx, args[1], true); got != tt.want {
			t.Errorf("%s: fsTokMode = %v, want %v", tt.src, got, tt.want)
		}
	}
	lx := LexC([]byte("umask(022)"))
	args, _ := lx.CallArgs(0)
	if fsTokMode(lx, args[0], false) {
		t.Error("umask(022) reported as leaving S_IWOTH open")
	}
	lx = LexC([]byte("umask(0)"))
	args, _ = lx.CallArgs(0)
	if !fsTokMode(lx, args[0], false) {
		t.Error("umask(0) not reported as leaving S_IWOTH open")
	}
}

// TestExecTriageSound checks that triage never drops what Check reports:
// the exec and files checkers find the same on the fixtures (and on
// $JSEC_CORPUS when set) with and without their Triage.
func TestExecTriageSound(t *testing.T) {
	dirs := []string{"testdata/exec", "testdata/files"}
	if d := os.Getenv("JSEC_CORPUS"); d != "" {
		dirs = append(dirs, d)
	}
	mine := append(append([]*checkers.Checker{}, execCheckers...), filesCheckers...)
	var bare []*checkers.Checker
	for _, c := range mine {
		cc := *c
		cc.Triage = nil
		bare = append(bare, &cc)
	}
	run := func(cs []*checkers.Checker, cpp bool, path string, src []byte) []string {
		lang := &checkers.Language{Name: "c", Grammar: syntax.C, Lex: LexC, IdentByte: IdentByte, Checkers: cs}
		if cpp {
			lang = &checkers.Language{Name: "cpp", Grammar: syntax.CPP, Lex: LexCPP, IdentByte: IdentByte, Checkers: cs}
		}
		parser := syntax.NewParser(lang.Grammar)
		defer parser.Close()
		res, err := checkers.NewAnalyzer(lang, nil).Analyze(context.Background(), checkers.NewFile(path, lang.Name, src), parser)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, f := range res.Findings {
			out = append(out, fmt.Sprintf("%s@%d", f.Rule, f.Span.Start))
		}
		return out
	}
	for _, dir := range dirs {
		filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
			ext := filepath.Ext(path)
			if err != nil || d.IsDir() || ext != ".c" && ext != ".h" && ext != ".cc" && ext != ".cpp" {
				return nil
			}
			src, err := os.ReadFile(path)
			if err != nil {
				return nil
			}
			cpp := ext == ".cc" || ext == ".cpp"
			got, want := run(mine, cpp, path, src), run(bare, cpp, path, src)
			if !slices.Equal(got, want) {
				t.Errorf("%s: with triage %v, without %v", path, got, want)
			}
			return nil
		})
	}
}

func TestExFuncSpan(t *testing.T) {
	src := `class Env {
 public:
  int Open(const char *p) { char b[8]; read(0, b, 8); return 0; }
  int Remove(const char *p) { return unlink(p); }
};`
	lx := LexCPP([]byte(src))
	for i := range lx.Tokens {
		if lx.Is(i, "unlink") {
			start, end := exFuncSpan(lx, i)
			if !lx.Is(start, "Remove") || !lx.Is(end-1, "}") {
				t.Errorf("span of unlink = [%s, %s)", lx.Text(start), lx.Text(end-1))
			}
			if local, remote := exItemInputs(lx, i); local || remote {
				t.Errorf("read() in another method counted as input of Remove")
			}
		}
	}
}

// exFuncSpanScan is the reference for exFuncSpan: the scan back from tok
// that counts braces, as exFuncSpan did before it kept each item's
// enclosing braces.
func exFuncSpanScan(lx *checkers.Lexed, tok int) (start, end int) {
	it := lx.ItemOf(tok)
	if it < 0 {
		return -1, -1
	}
	start, end = lx.Items[it].TokStart, lx.Items[it].TokEnd
	depth := 0
	for i := tok - 1; i > start; i-- {
		switch {
		case lx.Is(i, "}"):
			depth++
		case lx.Is(i, "{") && depth > 0:
			depth--
		case lx.Is(i, "{"):
			j := i - 1
			for j > start && lx.Kind(j) == checkers.TokIdent && (lx.Is(j, "const") || lx.Is(j, "override") || lx.Is(j, "noexcept") || lx.Is(j, "final") || lx.Is(j, "mutable")) {
				j--
			}
			if !lx.Is(j, ")") {
				return start, end
			}
			open := exOpenParen(lx, j, start)
			if open <= start {
				return start, end
			}
			if lx.Kind(open-1) == checkers.TokIdent && !exBlockKeywords[lx.Text(open-1)] || lx.Is(open-1, "]") {
				if c := lx.Close(i); c > 0 && c < end {
					end = c + 1
				}
				return open - 1, end
			}
		}
	}
	return start, end
}

// TestExFuncSpanMatchesScan holds exFuncSpan to the scan back from each
// token, on every C/C++ fixture and on 20,000 random token soups of
// braces, parentheses and keywords (unbalanced ones included).
func TestExFuncSpanMatchesScan(t *testing.T) {
	compare := func(name string, lx *checkers.Lexed) {
		for i := range lx.Tokens {
			s1, e1 := exFuncSpanScan(lx, i)
			if s2, e2 := exFuncSpan(lx, i); s1 != s2 || e1 != e2 {
				t.Fatalf("%s: token %d %q: [%d, %d), the scan gives [%d, %d)", name, i, lx.Text(i), s2, e2, s1, e1)
			}
		}
	}
	for _, path := range triageFiles(t, "testdata") {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		compare(path, Lex(src, strings.HasSuffix(path, ".cc") || strings.HasSuffix(path, ".cpp")))
	}
	r := rand.New(rand.NewPCG(1, 2))
	words := []string{"{", "}", "(", ")", "f", "if", "while", "const", ";", "[", "]", "x", "=", "class"}
	for range 20000 {
		var b strings.Builder
		if r.IntN(3) > 0 {
			b.WriteString("void g(void) ")
		} // else the item may start with a brace
		for range 4 + r.IntN(30) {
			b.WriteString(words[r.IntN(len(words))] + " ")
		}
		compare(b.String(), Lex([]byte(b.String()), r.IntN(2) == 0))
	}
}

// TestExInputsFromTheFunctionStart: what a function read before a call
// counts for that call, what it reads after does not, and another
// function's reads never do (exFacts answers every call of a function
// from one pass).
func TestExInputsFromTheFunctionStart(t *testing.T) {
	src := `
int f(char *cmd) {
	system(cmd);
	char *e = getenv("QUERY_STRING");
	if (e) { while (*e) { system(e); } }
	snprintf(buf, sizeof buf, "%s", cmd);
	system(buf);
}
int main(int argc, char **argv) {
	unlink(argv[1]);
	system(argv[2]);
}
void g(void) { system(x); }
void h(void) { system(x); y = optarg; }
`
	lx := LexC([]byte(src))
	type want struct{ local, remote, builds bool }
	for _, c := range []struct {
		word string
		n    int
		want want
	}{
		{"system", 0, want{false, false, false}}, // before the getenv
		{"system", 1, want{false, true, false}},  // after it, in nested blocks
		{"system", 2, want{false, true, true}},   // after snprintf too
		{"unlink", 0, want{true, false, false}},  // main's argv parameter
		{"system", 3, want{true, false, false}},
		{"system", 4, want{false, false, false}}, // g reads nothing
		{"system", 5, want{false, false, false}}, // h reads only after it
	} {
		tok := tokenAt(t, lx, c.word, c.n)
		local, remote := exItemInputs(lx, tok)
		if got := (want{local, remote, exItemBuilds(lx, tok)}); got != c.want {
			t.Errorf("%s #%d: %+v, want %+v", c.word, c.n, got, c.want)
		}
	}
}
