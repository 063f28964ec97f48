package report

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

// indentCases are JSON texts with the shapes that matter to an indenter:
// empty and nested containers, punctuation and escapes inside strings,
// numbers and literals, unicode.
var indentCases = []string{
	`{}`, `[]`, `""`, `0`, `null`, `true`,
	`{"a":1,"b":[1,2,{}],"c":{"d":[]},"e":[[[]]]}`,
	`["{[,:]}","\"","\\","\\\"",",",":"]`,
	`{"k\"ey":"v\\","x":"a\u0000b","é":"日本","<":"&>"}`,
	`[-1.5e10,0.25,1E-7,false,null,{"a":{"b":{"c":[{"d":null}]}}}]`,
	`{"a":[],"b":{},"c":[{}],"d":[[],[]]}`,
}

// TestEncodeJSONMatchesEncoder holds EncodeJSON to the json.Encoder it
// replaces: the same bytes for every case, and for a report with issues.
func TestEncodeJSONMatchesEncoder(t *testing.T) {
	for _, c := range indentCases {
		var v any
		if err := json.Unmarshal([]byte(c), &v); err != nil {
			t.Fatalf("%s: %v", c, err)
		}
		checkEncodeJSON(t, v)
	}
	checkEncodeJSON(t, &Report{Tool: Tool{Name: "jsec", Version: "1"}, Issues: sample(), Summary: Summarize(sample()), Errors: []Error{{File: "a<b>.c", Reason: "binary \"x\"", Kind: "skipped"}}})
}

func checkEncodeJSON(t *testing.T, v any) {
	t.Helper()
	var want, got bytes.Buffer
	enc := json.NewEncoder(&want)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	if err := EncodeJSON(&got, v); err != nil {
		t.Fatal(err)
	}
	if got.String() != want.String() {
		t.Errorf("EncodeJSON differs from json.Encoder:\n got: %q\nwant: %q", got.String(), want.String())
	}
}

// FuzzIndent holds appendIndented to json.Indent on the compact form of
// any valid JSON text.
func FuzzIndent(f *testing.F) {
	for _, c := range indentCases {
		f.Add(c)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !json.Valid([]byte(s)) {
			return
		}
		var compact, want bytes.Buffer
		if err := json.Compact(&compact, []byte(s)); err != nil {
			t.Fatal(err)
		}
		compact.WriteByte('\n') // as an Encoder ends each value
		if err := json.Indent(&want, compact.Bytes(), "", "  "); err != nil {
			t.Fatal(err)
		}
		if got := appendIndented(nil, compact.Bytes()); string(got) != want.String() {
			t.Errorf("appendIndented(%q)\n got: %q\nwant: %q", compact.String(), got, want.String())
		}
		// In pieces, as EncodeJSON writes it: the same text.
		for _, limit := range []int{1, 7, 64} {
			var pieces []byte
			rest := indentTo(nil, compact.Bytes(), limit, func(b []byte) []byte {
				pieces = append(pieces, b...)
				return b[:0]
			})
			if got := string(append(pieces, rest...)); got != want.String() {
				t.Errorf("indentTo(%q, %d)\n got: %q\nwant: %q", compact.String(), limit, got, want.String())
			}
		}
	})
}

func TestAppendIndentedUnclosedString(t *testing.T) {
	// Not valid JSON, never produced by the encoder: copied, not a panic.
	if got := string(appendIndented(nil, []byte(`["ab\`))); !strings.HasPrefix(got, "[") {
		t.Errorf("got %q", got)
	}
}

// countingWriter records the size of each Write.
type countingWriter struct {
	bytes.Buffer
	writes []int
}

func (w *countingWriter) Write(p []byte) (int, error) {
	w.writes = append(w.writes, len(p))
	return w.Buffer.Write(p)
}

// TestEncodeJSONInPieces holds EncodeJSON to the encoder's bytes on a
// value far larger than its buffer, written in pieces of about
// indentChunk bytes rather than whole.
func TestEncodeJSONInPieces(t *testing.T) {
	type entry struct {
		Name  string         `json:"name"`
		Lines []string       `json:"lines"`
		Attrs map[string]any `json:"attrs"`
	}
	var v []entry
	for i := range 3000 {
		v = append(v, entry{
			Name:  strings.Repeat("x", i%50) + "\"{[,:]}\"",
			Lines: []string{"a<b>", strings.Repeat("\\", i%5), ""},
			Attrs: map[string]any{"n": i, "nested": map[string]any{"list": []int{i, i + 1}, "empty": []int{}}},
		})
	}
	var want bytes.Buffer
	enc := json.NewEncoder(&want)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	var got countingWriter
	if err := EncodeJSON(&got, v); err != nil {
		t.Fatal(err)
	}
	if got.String() != want.String() {
		t.Fatalf("EncodeJSON differs from json.Encoder (%d vs %d bytes)", got.Len(), want.Len())
	}
	if want.Len() < 4*indentChunk || len(got.writes) < 4 {
		t.Fatalf("%d bytes in %d writes: the test needs a value several chunks long", want.Len(), len(got.writes))
	}
	for i, n := range got.writes {
		if n > indentChunk+1024 {
			t.Errorf("write %d: %d bytes, more than a chunk", i, n)
		}
	}
}

type failingWriter struct{ n int }

func (w *failingWriter) Write(p []byte) (int, error) {
	w.n++
	return 0, errors.New("disk full")
}

// TestEncodeJSONWriteError: the writer's error is returned, and nothing
// more is written after it.
func TestEncodeJSONWriteError(t *testing.T) {
	v := make([]string, 20000)
	for i := range v {
		v[i] = "value"
	}
	w := &failingWriter{}
	if err := EncodeJSON(w, v); err == nil || err.Error() != "disk full" {
		t.Fatalf("err = %v, want disk full", err)
	}
	if w.n != 1 {
		t.Errorf("%d writes after the first failed, want none", w.n-1)
	}
	// A value that cannot be encoded writes nothing.
	w = &failingWriter{}
	if err := EncodeJSON(w, map[string]any{"f": func() {}}); err == nil || w.n != 0 {
		t.Errorf("err = %v after %d writes, want an encoding error and no write", err, w.n)
	}
}
