package c

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jsec/jsec/checkers"
	"github.com/jsec/jsec/checkers/checktest"
	"github.com/jsec/jsec/checkers/syntax"
)

// TestConcurrencyMessages pins what the findings say and how confident
// they are, beyond the line anchors of the fixtures.
func TestConcurrencyMessages(t *testing.T) {
	var reps []*checktest.Report
	for _, fam := range []string{"concurrency", "errors"} {
		reps = append(reps, runFamily(t, fam)...)
	}
	want := []struct {
		file, rule, text string
		adjust           float64
	}{
		{"api_threaded.c", ruleStrtok, "this file starts threads (line 21)", 0.2},
		{"api.c", ruleStrtok, "use strtok_r", 0},
		{"locks.c", ruleDoubleLock, "locked at line 53", 0},
		{"locks.c", ruleMissingUnlock, "'goto out' leaves 'q->lock' locked", 0},
		{"locks.c", ruleMissingUnlock, "'queue_drop' can reach its end with 'q->lock' still locked", 0},
		{"locks.c", ruleLockOrder, "'stats_flush' locks 'registry_lock' while holding 'stats_lock', but 'registry_add'", 0},
		{"threads.c", ruleDataRace, "thread routine 'download_worker' (started at line 65) writes file-scope 'bytes_done'", 0},
		{"threads.c", ruleThreadLeak, "local 'tid'", 0},
		{"signal.c", ruleSignalUnsafe, "exit() in signal handler 'on_term' (installed at line 85) is not async-signal-safe: it runs atexit handlers and flushes stdio; use _exit", 0},
		{"privilege.c", ruleUncheckedPrivilege, "setgid() runs after setuid() at line 14 dropped the user id", 0.05},
		{"privilege.c", ruleUncheckedPrivilege, "setgid() runs after setuid() at line 21", -0.25},
		{"condwait.c", ruleCondWait, "pthread_cond_wait on 'q->ready' is not inside a loop that re-checks its condition (it is only guarded by 'if (q->count == 0)')", 0},
		{"condwait.c", ruleCondWait, "pthread_cond_timedwait on 'q->ready'", -0.1},
	}
	for _, w := range want {
		found := false
		for _, r := range reps {
			for _, f := range r.Findings {
				if filepath.Base(f.File) == w.file && f.Rule == w.rule && strings.Contains(f.Message, w.text) {
					found = true
					if f.Adjust != w.adjust {
						t.Errorf("%s:%d %s: adjust %+.2f, want %+.2f", f.File, f.Line, f.Rule, f.Adjust, w.adjust)
					}
				}
			}
		}
		if !found {
			t.Errorf("%s: no %s finding saying %q", w.file, w.rule, w.text)
		}
	}
	if testing.Verbose() {
		for _, r := range reps {
			for _, f := range r.Findings {
				t.Logf("%s:%d %s [%+.2f] fn=%q %s", filepath.Base(f.File), f.Line, f.Rule, f.Adjust, f.Function, f.Message)
			}
		}
	}
}

// TestConcurrencyParseShare is a development aid, skipped unless -corpus
// is given: it prints the share of the corpus each checker of the
// concurrency and errors families makes the engine parse on its own.
func TestConcurrencyParseShare(t *testing.T) {
	if *corpusDir == "" {
		t.Skip("no -corpus")
	}
	for _, c := range append(append([]*checkers.Checker{}, concurrencyCheckers...), errorsCheckers...) {
		lang := &checkers.Language{Name: "c", Grammar: syntax.C, Lex: LexC, IdentByte: IdentByte, Checkers: []*checkers.Checker{c}}
		a := checkers.NewAnalyzer(lang, nil)
		parser := syntax.NewParser(syntax.C)
		var total, parsed, findings int
		filepath.WalkDir(*corpusDir, func(p string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() || (filepath.Ext(p) != ".c" && filepath.Ext(p) != ".h") {
				return nil
			}
			src, err := os.ReadFile(p)
			if err != nil {
				return nil
			}
			res, err := a.Analyze(context.Background(), checkers.NewFile(p, "c", src), parser)
			if err != nil {
				t.Fatal(err)
			}
			total += len(src)
			parsed += res.Parsed
			findings += len(res.Findings)
			return nil
		})
		parser.Close()
		t.Logf("%-22s parsed %5.2f%% of %.1f MB, %d findings", c.Name, 100*float64(parsed)/float64(max(total, 1)), float64(total)/1e6, findings)
	}
}
