package checkers

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestWorkersYield: a worker gives its goroutine back to the scheduler
// between files once it has run yieldEvery since it last did, and not
// before. A fake clock advances 1 ms at each reading, one reading per
// file, so one worker yields once every five files.
func TestWorkersYield(t *testing.T) {
	root := t.TempDir()
	const files = 23
	for i := range files {
		if err := os.WriteFile(filepath.Join(root, fmt.Sprintf("f%02d.c", i)), []byte("int x;\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	clock := time.Unix(0, 0)
	yields := 0
	oldClock, oldYield := scanClock, scanYield
	defer func() { scanClock, scanYield = oldClock, oldYield }()
	scanClock = func() time.Time { clock = clock.Add(time.Millisecond); return clock }
	scanYield = func() { yields++ }
	lang := &Language{Name: "c", Lex: func(src []byte) *Lexed { return &Lexed{Src: src} }, IdentByte: func(byte) bool { return false }}
	res, err := Scan(context.Background(), root, Options{Jobs: 1, Languages: map[string]*Language{"c": lang}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Files != files {
		t.Fatalf("scanned %d files, want %d", res.Files, files)
	}
	if want := files / int(yieldEvery/time.Millisecond); yields != want {
		t.Errorf("%d yields over %d files at 1 ms each, want %d (one per %v)", yields, files, want, yieldEvery)
	}
}
