package report

import (
	"bytes"
	"encoding/json"
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
	})
}

func TestAppendIndentedUnclosedString(t *testing.T) {
	// Not valid JSON, never produced by the encoder: copied, not a panic.
	if got := string(appendIndented(nil, []byte(`["ab\`))); !strings.HasPrefix(got, "[") {
		t.Errorf("got %q", got)
	}
}
