package sarif

import (
	"bytes"
	"encoding/binary"
	"math"
	"testing"

	"github.com/jsec/jsec/issue"
	"github.com/jsec/jsec/report"
)

// checkEncode fails when encodeLog's text of r's log is not
// report.EncodeJSON's.
func checkEncode(t testing.TB, o Options, r *report.Report) {
	t.Helper()
	log := o.log(r)
	var want, got bytes.Buffer
	gotErr := encodeLog(&got, log) // first: it must leave log as it was
	wantErr := report.EncodeJSON(&want, log)
	if (wantErr != nil) != (gotErr != nil) {
		t.Fatalf("errors differ: encoding/json %v, encodeLog %v", wantErr, gotErr)
	}
	if wantErr != nil {
		return
	}
	if g, w := got.String(), want.String(); g != w {
		i := 0
		for i < len(g) && i < len(w) && g[i] == w[i] {
			i++
		}
		from := max(0, i-100)
		t.Fatalf("differs at byte %d:\n got: %q\nwant: %q", i, g[from:min(len(g), i+100)], w[from:min(len(w), i+100)])
	}
}

func TestEncodeMatchesJSON(t *testing.T) {
	r := fixture(t)
	checkEncode(t, Options{}, r)
	checkEncode(t, Options{MaxResults: 2, Category: "c/"}, r)
	odd := fixture(t)
	odd.Issues[0].Description = "quote \" backslash \\ tab \t nl \n cr \r bell \x07 nul \x00 del \x7f <html> & \u2028\u2029 é \xff\xfe bad"
	odd.Issues[0].Evidence = "\b\f\x1f"
	odd.Issues[0].Confidence = 1e-7
	odd.Issues[1].Confidence = 1e21
	odd.Issues[2].Confidence = 0
	odd.Issues[3].Function = "ns::f<T>"
	odd.Issues[3].ID = ""
	odd.Issues[4].File = ""
	odd.Errors = append(odd.Errors, report.Error{File: "x.c", Kind: "error", Reason: "panic: boom\nstack"})
	checkEncode(t, Options{}, odd)
	empty := &report.Report{Tool: report.Tool{Name: "jsec", Version: "1.0"}, Summary: report.Summarize(nil)}
	checkEncode(t, Options{}, empty)
	nan := fixture(t)
	nan.Issues[0].Confidence = math.NaN()
	checkEncode(t, Options{}, nan) // both refuse it
}

// FuzzEncodeMatchesJSON holds the hand-written results to encoding/json
// on issues of any text, any confidence and any mix of optional parts.
func FuzzEncodeMatchesJSON(f *testing.F) {
	f.Add([]byte("gets\x00src/a.c\x00main\x00gets(buf);\x00reason\x00\xff\u2028"), uint64(0x3fe0000000000000), uint16(0xffff))
	f.Add([]byte("\x00\x00\x00"), uint64(1), uint16(0))
	f.Fuzz(func(t *testing.T, data []byte, bits uint64, mask uint16) {
		parts := bytes.Split(data, []byte{0})
		part := func(i int) string {
			if len(parts) == 0 {
				return ""
			}
			return string(parts[i%len(parts)])
		}
		conf := math.Float64frombits(bits)
		if math.IsNaN(conf) || math.IsInf(conf, 0) {
			conf = 0.5
		}
		var buf [8]byte
		binary.LittleEndian.PutUint64(buf[:], bits)
		is := issue.Issue{
			ID: part(0), Rule: "c.buffer.gets", Title: part(1), Description: part(2), Suggestion: part(3),
			Language: part(4), Category: part(5), Function: part(6), Evidence: part(7), File: part(8),
			Line: int(buf[0]), Column: int(buf[1]), EndLine: int(buf[2]), EndColumn: int(buf[3]),
			Severity: issue.Severity(1 + mask%4), Confidence: conf,
		}
		if mask&0x10 != 0 {
			is.Verification = &issue.Verification{Verdict: issue.VerdictFalsePositive, Confidence: conf / 3, Reason: part(9), Model: part(10),
				Severity: part(11), Error: part(12), Dismissed: mask&0x20 != 0, PolicyKept: mask&0x40 != 0}
		}
		if mask&0x80 != 0 {
			is.Suppressed = &issue.Suppression{Kind: "inSource", Justification: part(13)}
		}
		is.Baselined = mask&0x100 != 0
		second := is
		second.File, second.Line = part(14), int(buf[4])
		r := &report.Report{Tool: report.Tool{Name: "jsec", Version: part(15), Root: part(16)}, Issues: []issue.Issue{is, second}}
		r.Summary = report.Summarize(r.Issues)
		checkEncode(t, Options{}, r)
	})
}

func BenchmarkWrite(b *testing.B) {
	r := fixture(b)
	for len(r.Issues) < 300 {
		r.Issues = append(r.Issues, r.Issues...)
	}
	for b.Loop() {
		var buf bytes.Buffer
		if err := Write(&buf, r); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkEncode compares the log's encoding by encodeLog and by
// encoding/json alone (report.EncodeJSON), which it replaced.
func BenchmarkEncode(b *testing.B) {
	r := fixture(b)
	for len(r.Issues) < 300 {
		r.Issues = append(r.Issues, r.Issues...)
	}
	log := Options{}.log(r)
	b.Run("encodeLog", func(b *testing.B) {
		for b.Loop() {
			var buf bytes.Buffer
			if err := encodeLog(&buf, log); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("encoding-json", func(b *testing.B) {
		for b.Loop() {
			var buf bytes.Buffer
			if err := report.EncodeJSON(&buf, log); err != nil {
				b.Fatal(err)
			}
		}
	})
}
