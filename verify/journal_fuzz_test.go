package verify

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzLoadJournal: progress.jsonl is read back after crashes, disk
// trouble and hand edits. Whatever garbage lies between the records, of
// any length, every record written whole is found (the last of a
// fingerprint wins), each garbage line is counted once (a torn last line
// is not), and nothing panics.
func FuzzLoadJournal(f *testing.F) {
	f.Add("not json", "a", "b", 3, false)
	f.Add("{\"fingerprint\":\"\"}", "a", "a", 1, true)
	f.Add(strings.Repeat("x", 70000), "p", "q", 2, false)
	f.Fuzz(func(t *testing.T, garbage, fp1, fp2 string, turns int, torn bool) {
		if strings.ContainsAny(garbage, "\n") || fp1 == "" || fp2 == "" || !utf8.ValidString(fp1) || !utf8.ValidString(fp2) {
			return
		}
		garbageBad := len(bytes.TrimSpace([]byte(garbage))) > 0
		var probe Record
		if garbageBad && json.Unmarshal(bytes.TrimSpace([]byte(garbage)), &probe) == nil && probe.Fingerprint != "" {
			return // the garbage is a record after all
		}
		rec := func(fp string, turns int) string {
			b, _ := json.Marshal(Record{Fingerprint: fp, Status: "verdict", Verdict: "confirmed", Turns: turns})
			return string(b)
		}
		lines := []string{rec(fp1, 1), garbage, rec(fp2, 2), garbage, rec(fp1, turns)}
		data := strings.Join(lines, "\n") + "\n"
		if torn {
			data += `{"fingerprint":"torn","sta`
		}
		path := filepath.Join(t.TempDir(), "progress.jsonl")
		if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
		recs, bad, err := loadJournal(path)
		if err != nil {
			t.Fatal(err)
		}
		if recs[fp1].Turns != turns || (fp2 != fp1 && recs[fp2].Turns != 2) || len(recs) != len(map[string]bool{fp1: true, fp2: true}) {
			t.Fatalf("records %+v", recs)
		}
		want := 0
		if garbageBad {
			want = 2
		}
		if bad != want {
			t.Fatalf("bad = %d, want %d", bad, want)
		}
	})
}

// TestLoadJournalLongLine: a line of 20 MB (past bufio.Scanner's 16 MB
// limit, which ended the read there) does not hide the records after it.
func TestLoadJournalLongLine(t *testing.T) {
	b, _ := json.Marshal(Record{Fingerprint: "after", Status: "verdict", Verdict: "confirmed"})
	data := `{"fingerprint":"long","reason":"` + strings.Repeat("x", 20<<20) + "\"}\n" + string(b) + "\n"
	path := filepath.Join(t.TempDir(), "progress.jsonl")
	os.WriteFile(path, []byte(data), 0o644)
	recs, bad, err := loadJournal(path)
	if err != nil || bad != 0 || recs["after"].Verdict != "confirmed" || recs["long"].Fingerprint != "long" {
		t.Fatalf("recs %d, bad %d, err %v", len(recs), bad, err)
	}
}
