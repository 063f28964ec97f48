package html

import (
	"bytes"
	"strings"
	"testing"

	"github.com/jsec/jsec/report"
	"github.com/jsec/jsec/report/markdown"
)

// convertBoth converts md whole and in up to n pieces of at least min
// bytes; it returns both bodies and whether the pieces were used.
func convertBoth(t testing.TB, md []byte, n, min int) (whole, pieces []byte, used bool) {
	var w bytes.Buffer
	if err := converter.Convert(md, &w); err != nil {
		t.Fatal(err)
	}
	var p bytes.Buffer
	used = false
	if ps := split(md, n, min); len(ps) > 1 {
		ok, err := convertPieces(md, ps, &p)
		if err != nil {
			t.Fatal(err)
		}
		used = ok
	}
	if !used {
		return w.Bytes(), w.Bytes(), false
	}
	return w.Bytes(), p.Bytes(), true
}

func markdownOf(t testing.TB, r *report.Report) []byte {
	var md bytes.Buffer
	if err := markdown.Write(&md, r); err != nil {
		t.Fatal(err)
	}
	return md.Bytes()
}

// TestConvertPiecesMatchesWhole: the page body converted in pieces is the
// body converted whole, byte for byte, on reports of every size and on
// the hostile one, cut into 2 to 5 pieces; and the pieces are used.
func TestConvertPiecesMatchesWhole(t *testing.T) {
	reports := map[string]*report.Report{"fixture": fixture(), "hostile": hostile(), "big300": bigReport(300), "big2000": bigReport(2000), "big7": bigReport(7)}
	for name, r := range reports {
		md := markdownOf(t, r)
		for n := 2; n <= 5; n++ {
			for _, min := range []int{1, 200, 4096, minPiece} {
				whole, pieces, used := convertBoth(t, md, n, min)
				if !bytes.Equal(whole, pieces) {
					t.Fatalf("%s in %d pieces of %d bytes or more: the bodies differ\n%s", name, n, min, firstDiff(whole, pieces))
				}
				if !used && len(md) >= 2*min && min > 1 && name != "fixture" && name != "hostile" {
					t.Errorf("%s (%d bytes) in %d pieces of %d bytes or more: converted whole", name, len(md), n, min)
				}
			}
		}
	}
	// The large report goes through the pieces in convert itself.
	md := markdownOf(t, bigReport(2000))
	if ps := split(md, 2, minPiece); len(ps) != 2 {
		t.Fatalf("a %d-byte report splits into %d pieces, want 2", len(md), len(ps))
	}
}

// TestConvertPiecesFallsBack: what the line pass cannot follow makes
// convert take the whole document, and what it mispredicts is caught.
func TestConvertPiecesFallsBack(t *testing.T) {
	base := string(markdownOf(t, bigReport(40)))
	cases := map[string]string{
		"an HTML block":     "<div>\n\n" + base,
		"a link reference":  "[x]: https://example.com\n\n" + base,
		"an indented fence": " ```\ncode\n ```\n\n" + base,
		// A list item's fence ends with the item; the next fence at the
		// line's start opens one, whose "### y" is code, not a heading.
		"a list item's fence": "- item\n\n  ```\n  code\ntext\n\n```\n\n### y\n\nmore\n```\n\n" + base,
		// Without the blank line, "### z" would still start a heading,
		// but the table before it would not have ended in the piece.
		"a table row before a heading": "| a | b |\n|---|---|\n| x | y |\n### z\n\n" + base,
		"a heading in a list (ids)":    "- ## item heading\n\n" + base,
		"a setext heading (ids)":       "Title\n=====\n\n" + base,
		"a second page heading":        base + "\n# again\n",
		"a styled severity (state)":    strings.Replace(base, "## High", "## *High*", 1),
	}
	// Each case also alone, where the pieces cut next to the trap.
	for name, md := range cases {
		cases[name+", alone"] = strings.TrimSuffix(md, base) + "## After\n\nsome text\n\n### `after.c`\n\nmore text\n"
	}
	for name, md := range cases {
		for n := 2; n <= 6; n++ {
			for _, min := range []int{1, 512} {
				whole, pieces, _ := convertBoth(t, []byte(md), n, min)
				if !bytes.Equal(whole, pieces) {
					t.Errorf("%s in %d pieces of %d bytes or more: the bodies differ\n%s", name, n, min, firstDiff(whole, pieces))
				}
			}
		}
	}
	if _, _, used := convertBoth(t, []byte(cases["a heading in a list (ids)"]), 3, 512); used {
		t.Error("a heading the line pass did not see: the pieces were used")
	}
	if _, _, used := convertBoth(t, []byte(cases["an HTML block"]), 3, 512); used {
		t.Error("an HTML block: the pieces were used")
	}
}

func firstDiff(a, b []byte) string {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	lo := max(0, i-120)
	return "whole:  " + string(a[lo:min(len(a), i+120)]) + "\npieces: " + string(b[lo:min(len(b), i+120)])
}

// FuzzConvertPieces: for any Markdown, converting in pieces gives the
// body converting whole gives (or falls back to it).
func FuzzConvertPieces(f *testing.F) {
	f.Add(string(markdownOf(f, fixture())))
	f.Add(string(markdownOf(f, hostile())))
	f.Add("# t\n\n## High (1)\n\n### `a.c`\n\n#### r: x\n\ntext\n\n```c\n## not\n```\n\n## Low (2)\n\n### `b.c`\n\n- ## in list\n\n> ### quoted\n\n### `c.c` ###\n")
	f.Add("## A\n\n~~~\n### x\n~~~~\n\n### B\n\n| a | b |\n|---|---|\n| high | low |\n\n### C\n\n    ### code\n\n### D\n")
	f.Fuzz(func(t *testing.T, md string) {
		for _, n := range []int{2, 3} {
			whole, pieces, _ := convertBoth(t, []byte(md), n, 1)
			if !bytes.Equal(whole, pieces) {
				t.Fatalf("%d pieces: the bodies differ\n%s", n, firstDiff(whole, pieces))
			}
		}
	})
}

// TestConvertPiecesChecks: the checks after the conversion turn down
// pieces whose headings or state split mispredicted, and only those.
func TestConvertPiecesChecks(t *testing.T) {
	md := markdownOf(t, bigReport(40))
	fresh := func() []*piece {
		ps := split(md, 3, 512)
		if len(ps) != 3 {
			t.Fatalf("%d pieces, want 3", len(ps))
		}
		return ps
	}
	var body bytes.Buffer
	if ok, err := convertPieces(md, fresh(), &body); err != nil || !ok {
		t.Fatalf("as split them: used %v, %v", ok, err)
	}
	ps := fresh()
	ps[1].headings = append(ps[1].headings, []byte("a heading goldmark never saw"))
	if ok, _ := convertPieces(md, ps, &body); ok {
		t.Error("one heading too many: the pieces were used")
	}
	ps = fresh()
	ps[2].headings = ps[2].headings[1:]
	if ok, _ := convertPieces(md, ps, &body); ok {
		t.Error("one heading too few: the pieces were used")
	}
	ps = fresh()
	ps[2].from.current = "critical"
	if ok, _ := convertPieces(md, ps, &body); ok {
		t.Error("the wrong severity at a piece's start: the pieces were used")
	}
	ps = fresh()
	ps[1].from.dropped = false
	if ok, _ := convertPieces(md, ps, &body); ok {
		t.Error("the page heading not dropped before a piece: the pieces were used")
	}
}

// TestSplitFollowsFences: a backtick line whose info string holds a
// backtick opens no fence (CommonMark), so the headings after it are seen
// and the pieces used.
func TestSplitFollowsFences(t *testing.T) {
	md := []byte("```a`b\n\n" + string(markdownOf(t, bigReport(40))))
	whole, pieces, used := convertBoth(t, md, 3, 512)
	if !used || !bytes.Equal(whole, pieces) {
		t.Fatalf("used %v, same %v", used, bytes.Equal(whole, pieces))
	}
}
