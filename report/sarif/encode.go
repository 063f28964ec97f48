package sarif

import (
	"bytes"
	"errors"
	"math"
	"slices"
	"strconv"
	"unicode/utf8"

	"github.com/jsec/jsec/report"
)

// The results, one per issue and nearly all of report.sarif, are encoded
// here by hand, the rest of the log by encoding/json; the text is byte
// for byte what report.EncodeJSON writes for the whole log
// (TestEncodeMatchesJSON, FuzzEncodeMatchesJSON). encoding/json took 1.5
// ms of CPU for curl's 274 results warm and 3-6 ms at the end of a scan
// (reflection, its first-use type tables, a second pass to indent): the
// SARIF writer was the longest of the four.

// resultsTail is how report.EncodeJSON ends a log whose one run has no
// results: results is the run's last field.
const resultsTail = "      \"results\": []\n    }\n  ]\n}\n"

// encodeLog writes log as report.EncodeJSON would.
func encodeLog(buf *bytes.Buffer, log sarifLog) error {
	results := log.Runs[0].Results
	rn := log.Runs[0] // a copy: the caller's log keeps its results
	rn.Results = []result{}
	log.Runs = []run{rn}
	start := buf.Len()
	if err := report.EncodeJSON(buf, log); err != nil {
		return err
	}
	if len(results) == 0 {
		return nil
	}
	if !bytes.HasSuffix(buf.Bytes(), []byte(resultsTail)) {
		// The run gained a field after results (TestEncodeMatchesJSON
		// fails then): encoding/json writes the whole log.
		buf.Truncate(start)
		rn.Results = results
		log.Runs = []run{rn}
		return report.EncodeJSON(buf, log)
	}
	buf.Truncate(buf.Len() - len(resultsTail))
	buf.Grow(1536 * len(results)) // about 1 KB a result on curl, git, redis
	e := jsonEnc{b: buf.AvailableBuffer()}
	e.b = append(e.b, "      \"results\": ["...)
	for i := range results {
		if i > 0 {
			e.b = append(e.b, ',')
		}
		e.b = append(e.b, "\n        "...)
		e.result(&results[i])
	}
	e.b = append(e.b, "\n      ]\n    }\n  ]\n}\n"...)
	if e.err != nil {
		return e.err
	}
	buf.Write(e.b)
	return nil
}

// jsonEnc appends indented JSON: two spaces a level, as json.Encoder with
// SetIndent("", "  ") and SetEscapeHTML(false).
type jsonEnc struct {
	b     []byte
	depth int
	n     []int // the members written so far at each open level
	err   error
}

func (e *jsonEnc) open(c byte) {
	e.b = append(e.b, c)
	e.depth++
	e.n = append(e.n, 0)
}

func (e *jsonEnc) close(c byte) {
	e.depth--
	if e.n[len(e.n)-1] > 0 {
		e.newline()
	}
	e.n = e.n[:len(e.n)-1]
	e.b = append(e.b, c)
}

// The result objects start at this depth (runs[0].results[i]).
const resultDepth = 4

// indent is a newline and the spaces of the deepest level written.
const indent = "\n                                        "

func (e *jsonEnc) newline() {
	if n := 1 + 2*(resultDepth+e.depth); n <= len(indent) {
		e.b = append(e.b, indent[:n]...)
		return
	}
	e.b = append(e.b, '\n')
	for range resultDepth + e.depth {
		e.b = append(e.b, ' ', ' ')
	}
}

// member starts the next member of the open object or array: key is ""
// in an array.
func (e *jsonEnc) member(key string) {
	if e.n[len(e.n)-1] > 0 {
		e.b = append(e.b, ',')
	}
	e.n[len(e.n)-1]++
	e.newline()
	if key != "" {
		e.b = appendString(e.b, key)
		e.b = append(e.b, ':', ' ')
	}
}

func (e *jsonEnc) str(key, v string) {
	e.member(key)
	e.b = appendString(e.b, v)
}

// optStr writes a string member that encoding/json's omitempty leaves
// out when empty.
func (e *jsonEnc) optStr(key, v string) {
	if v != "" {
		e.str(key, v)
	}
}

func (e *jsonEnc) int(key string, v int) {
	e.member(key)
	e.b = strconv.AppendInt(e.b, int64(v), 10)
}

func (e *jsonEnc) bool(key string, v bool) {
	e.member(key)
	e.b = strconv.AppendBool(e.b, v)
}

// float writes v as encoding/json formats a float64.
func (e *jsonEnc) float(key string, v float64) {
	e.member(key)
	if math.IsNaN(v) || math.IsInf(v, 0) {
		e.err = errors.New("json: unsupported value: " + strconv.FormatFloat(v, 'g', -1, 64))
		return
	}
	f := byte('f')
	if a := math.Abs(v); a != 0 && (a < 1e-6 || a >= 1e21) {
		f = 'e'
	}
	e.b = strconv.AppendFloat(e.b, v, f, -1, 64)
	if f == 'e' {
		// e-09 becomes e-9
		if n := len(e.b); n >= 4 && e.b[n-4] == 'e' && e.b[n-3] == '-' && e.b[n-2] == '0' {
			e.b[n-2] = e.b[n-1]
			e.b = e.b[:n-1]
		}
	}
}

func (e *jsonEnc) message(key string, m message) {
	e.member(key)
	e.open('{')
	e.str("text", m.Text)
	e.optStr("markdown", m.Markdown)
	e.close('}')
}

// stringMap writes m with its keys sorted, null when m is nil.
func (e *jsonEnc) stringMap(key string, m map[string]string) {
	e.member(key)
	if m == nil {
		e.b = append(e.b, "null"...)
		return
	}
	var small [4]string // a result's maps hold one or two keys
	keys := small[:0]
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	e.open('{')
	for _, k := range keys {
		e.str(k, m[k])
	}
	e.close('}')
}

func (e *jsonEnc) result(r *result) {
	e.open('{')
	e.str("ruleId", r.RuleID)
	e.int("ruleIndex", r.RuleIndex)
	e.str("level", r.Level)
	e.message("message", r.Message)
	if len(r.Locations) > 0 {
		e.member("locations")
		e.open('[')
		for i := range r.Locations {
			e.member("")
			e.location(&r.Locations[i])
		}
		e.close(']')
	}
	e.stringMap("partialFingerprints", r.PartialFingerprints)
	if len(r.Fingerprints) > 0 {
		e.stringMap("fingerprints", r.Fingerprints)
	}
	if len(r.Suppressions) > 0 {
		e.member("suppressions")
		e.open('[')
		for _, s := range r.Suppressions {
			e.member("")
			e.open('{')
			e.str("kind", s.Kind)
			e.str("status", s.Status)
			e.str("justification", s.Justification)
			e.member("properties")
			e.open('{')
			e.str("source", s.Properties.Source)
			e.optStr("model", s.Properties.Model)
			e.close('}')
			e.close('}')
		}
		e.close(']')
	}
	e.member("properties")
	e.props(&r.Properties)
	e.close('}')
}

func (e *jsonEnc) location(l *location) {
	e.open('{')
	e.member("physicalLocation")
	e.open('{')
	e.member("artifactLocation")
	e.open('{')
	a := l.PhysicalLocation.ArtifactLocation
	e.str("uri", a.URI)
	e.optStr("uriBaseId", a.URIBaseID)
	e.close('}')
	if g := l.PhysicalLocation.Region; g != nil {
		e.member("region")
		e.open('{')
		e.int("startLine", g.StartLine)
		e.int("startColumn", g.StartColumn)
		if g.EndLine != 0 {
			e.int("endLine", g.EndLine)
		}
		if g.EndColumn != 0 {
			e.int("endColumn", g.EndColumn)
		}
		if g.Snippet != nil {
			e.message("snippet", *g.Snippet)
		}
		e.close('}')
	}
	e.close('}')
	e.close('}')
}

func (e *jsonEnc) props(p *resultProps) {
	e.open('{')
	e.float("confidence", p.Confidence)
	e.str("severity", p.Severity)
	e.optStr("category", p.Category)
	e.optStr("language", p.Language)
	e.optStr("function", p.Function)
	e.bool("gating", p.Gating)
	if v := p.Verification; v != nil {
		e.member("verification")
		e.open('{')
		e.str("verdict", v.Verdict)
		e.float("confidence", v.Confidence)
		e.optStr("reason", v.Reason)
		e.optStr("model", v.Model)
		e.optStr("severity", v.Severity)
		if v.Dismissed {
			e.bool("dismissed", true)
		}
		if v.PolicyKept {
			e.bool("policyKept", true)
		}
		e.optStr("error", v.Error)
		e.close('}')
	}
	e.close('}')
}

// asciiEscapes holds the escape of each ASCII byte encoding/json
// escapes ("" for the rest).
var asciiEscapes = func() (t [utf8.RuneSelf]string) {
	const hex = "0123456789abcdef"
	for c := range 0x20 {
		t[c] = `\u00` + string(hex[c>>4]) + string(hex[c&0xf])
	}
	t['\b'], t['\f'], t['\n'], t['\r'], t['\t'] = `\b`, `\f`, `\n`, `\r`, `\t`
	t['"'], t['\\'] = `\"`, `\\`
	return t
}()

// appendString appends s quoted as encoding/json quotes it without HTML
// escaping: " and \ escaped, \b \f \n \r \t, other control bytes as
// \u00XX, invalid UTF-8 as \ufffd, U+2028 and U+2029 as \u2028, \u2029.
func appendString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		var esc string
		size := 1
		if c := s[i]; c < utf8.RuneSelf {
			if esc = asciiEscapes[c]; esc == "" {
				i++
				continue
			}
		} else {
			var r rune
			r, size = utf8.DecodeRuneInString(s[i:])
			switch {
			case r == utf8.RuneError && size == 1:
				esc = `\ufffd`
			case r == '\u2028':
				esc = `\u2028`
			case r == '\u2029':
				esc = `\u2029`
			default:
				i += size
				continue
			}
		}
		b = append(b, s[start:i]...)
		b = append(b, esc...)
		i += size
		start = i
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
