package syntax

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// flattenPair parses with the direct walk (flatten.c: flatten) and with
// tree-sitter's cursor (flatten_cursor), which is the reference.
type flattenPair struct{ direct, cursor *Parser }

func newFlattenPair(lang Lang) flattenPair {
	fp := flattenPair{NewParser(lang), NewParser(lang)}
	fp.cursor.useCursor()
	return fp
}

func (fp flattenPair) Close() { fp.direct.Close(); fp.cursor.Close() }

// check fails unless both walks give the same node array: kinds, fields,
// flags, positions and links.
func (fp flattenPair) check(t *testing.T, name string, src []byte, ranges []Range) {
	t.Helper()
	d, err := fp.direct.Parse(src, ranges)
	if err != nil {
		// Ranges cut at random can send error recovery past the timeout
		// (curl's select.c does); that is the parse, not the walk.
		if ranges != nil && errors.Is(err, ErrParse) {
			t.Logf("%s: %v", name, err)
			return
		}
		t.Fatalf("%s: %v", name, err)
	}
	c, err := fp.cursor.Parse(src, ranges)
	if err != nil {
		t.Fatalf("%s: cursor: %v", name, err)
	}
	if len(d.nodes) != len(c.nodes) {
		t.Fatalf("%s: %d nodes, the cursor walk has %d", name, len(d.nodes), len(c.nodes))
	}
	for i := range d.nodes {
		if d.nodes[i] != c.nodes[i] {
			n, m := Node{d, int32(i)}, Node{c, int32(i)}
			t.Fatalf("%s: node %d is %s %q field %q %+v, the cursor walk has %s %q field %q %+v", name, i,
				n.Kind(), n.Text(), n.FieldName(), d.nodes[i], m.Kind(), m.Text(), m.FieldName(), c.nodes[i])
		}
	}
}

// halves returns ranges covering every other 400-byte stretch of src, cut
// at line ends, so that parses start and stop mid-construct.
func halves(src []byte) []Range {
	var rs []Range
	for start, on := 0, true; start < len(src); on = !on {
		end := min(start+400, len(src))
		if i := strings.IndexByte(string(src[end:]), '\n'); i >= 0 {
			end += i + 1
		} else {
			end = len(src)
		}
		if on {
			rs = append(rs, Range{start, end})
		}
		start = end
	}
	return rs
}

var flattenLangs = map[string]Lang{".c": C, ".h": C, ".cc": CPP, ".cpp": CPP, ".hpp": CPP, ".rs": Rust}

// TestFlattenMatchesCursor holds the direct walk to tree-sitter's cursor
// on every fixture of the checkers and the e2e project (whole files and
// included ranges), on /usr/include's headers when present, and on
// $JSEC_FLATTEN_CORPUS when set (a development check over real code).
func TestFlattenMatchesCursor(t *testing.T) {
	pairs := map[Lang]flattenPair{}
	for _, l := range []Lang{C, CPP, Rust} {
		pairs[l] = newFlattenPair(l)
		defer pairs[l].Close()
	}
	files, budget := 0, 4<<20
	walk := func(root string, limit bool) {
		filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil || (limit && budget <= 0) {
				return filepath.SkipDir
			}
			lang, ok := flattenLangs[filepath.Ext(path)]
			if !ok || !d.Type().IsRegular() {
				return nil
			}
			src, err := os.ReadFile(path)
			if err != nil || len(src) > 4<<20 {
				return nil
			}
			if os.Getenv("JSEC_FLATTEN_TRACE") != "" {
				println(path)
			}
			budget -= len(src)
			files++
			pairs[lang].check(t, path, src, nil)
			pairs[lang].check(t, path+" (ranges)", src, halves(src))
			return nil
		})
	}
	walk("../c/testdata", false)
	walk("../rust/testdata", false)
	walk("../../testdata", false)
	walk("/usr/include", true)
	if dir := os.Getenv("JSEC_FLATTEN_CORPUS"); dir != "" {
		walk(dir, false)
	}
	if files < 50 {
		t.Fatalf("only %d files compared", files)
	}
	t.Logf("%d files", files)
}
