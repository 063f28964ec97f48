package report

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jsec/jsec/issue"
)

func sample() []issue.Issue {
	return []issue.Issue{
		{ID: "a", Rule: "c.buffer.gets", Language: "c", Category: "buffer_overflow", File: "src/a.c", Severity: issue.SeverityCritical, Confidence: 0.9},
		{ID: "b", Rule: "c.buffer.strcpy", Language: "c", Category: "buffer_overflow", File: "src/a.c", Severity: issue.SeverityHigh, Confidence: 0.8},
		{ID: "c", Rule: "rust.unsafe.transmute", Language: "rust", Category: "type_safety", File: "lib.rs", Severity: issue.SeverityHigh, Confidence: 0.5},
	}
}

func TestSummarize(t *testing.T) {
	s := Summarize(sample())
	if s.Total != 3 || s.BySeverity["critical"] != 1 || s.BySeverity["high"] != 2 || s.BySeverity["low"] != 0 {
		t.Fatalf("severity counts: %+v", s)
	}
	if s.ByLanguage["c"] != 2 || s.ByLanguage["rust"] != 1 || s.ByCategory["buffer_overflow"] != 2 {
		t.Fatalf("language/category counts: %+v", s)
	}
	if len(s.TopRiskFiles) != 2 || s.TopRiskFiles[0].File != "src/a.c" || s.TopRiskFiles[0].Score != 13 {
		t.Fatalf("top files: %+v", s.TopRiskFiles)
	}
	empty := Summarize(nil)
	b, _ := json.Marshal(empty)
	if !strings.Contains(string(b), `"top_risk_files":[]`) || !strings.Contains(string(b), `"critical":0`) {
		t.Fatalf("empty summary: %s", b)
	}
}

func TestJSONShapeAndRoundTrip(t *testing.T) {
	r := &Report{Tool: Tool{Name: "jsec", Version: "1"}, Issues: sample(), Summary: Summarize(sample())}
	var b bytes.Buffer
	if err := WriteJSON(&b, r); err != nil {
		t.Fatal(err)
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(b.Bytes(), &raw); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"tool", "issues", "summary", "errors"} {
		if _, ok := raw[k]; !ok {
			t.Errorf("report.json lacks %q", k)
		}
	}
	if string(raw["errors"]) != "[]" {
		t.Errorf("errors = %s, want []", raw["errors"])
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "report.json")
	os.WriteFile(path, b.Bytes(), 0o644)
	back, err := ReadJSON(path)
	if err != nil || len(back.Issues) != 3 || back.Issues[0].Severity != issue.SeverityCritical {
		t.Fatalf("round trip: %v %+v", err, back)
	}
	os.WriteFile(path, []byte("{nope"), 0o644)
	if _, err := ReadJSON(path); err == nil || !strings.Contains(err.Error(), path) {
		t.Fatalf("bad json error should name the file: %v", err)
	}
}

func TestWriteFilesAtomic(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out", "nested")
	r := &Report{}
	calls := 0
	err := WriteFiles(dir, r, map[string]Writer{
		"a.txt": func(w io.Writer, r *Report) error { calls++; _, err := w.Write([]byte("A")); return err },
	})
	if err != nil || calls != 1 {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "a.txt")); string(b) != "A" {
		t.Fatalf("a.txt = %q", b)
	}
	if st, err := os.Stat(filepath.Join(dir, "a.txt")); err != nil || st.Mode().Perm() != 0o644 {
		t.Fatalf("a.txt mode: %v %v, want 0644 (temp files are created 0600)", st.Mode(), err)
	}
	// A failing writer leaves the previous file intact and no temp files.
	err = WriteFiles(dir, r, map[string]Writer{
		"a.txt": func(w io.Writer, r *Report) error { w.Write([]byte("partial")); return os.ErrInvalid },
	})
	if err == nil {
		t.Fatal("writer error swallowed")
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "a.txt")); string(b) != "A" {
		t.Fatalf("a failed write clobbered the report: %q", b)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Fatalf("temp files left behind: %v", entries)
	}
}
