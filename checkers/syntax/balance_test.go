package syntax

import (
	"slices"
	"strings"
	"testing"
)

// TestUnbalancedMatchesBalanced holds jsec's trees, whose repetitions
// are left as the parse built them, to the balanced trees tree-sitter
// makes: the same flattened nodes (every field of every node) for every
// fixture of the C and C++ checkers, error-heavy input and a long file.
func TestUnbalancedMatchesBalanced(t *testing.T) {
	srcs := append(fixtureSources(t), source{"long", C, longFile(3000)})
	plain := map[Lang]*Parser{C: NewParser(C), CPP: NewParser(CPP)}
	balanced := map[Lang]*Parser{C: NewParser(C), CPP: NewParser(CPP)}
	for _, p := range balanced {
		p.useBalance()
	}
	defer func() {
		for _, m := range []map[Lang]*Parser{plain, balanced} {
			for _, p := range m {
				p.Close()
			}
		}
	}()
	for _, s := range srcs {
		for _, ranges := range [][]Range{nil, halves(s.b)} {
			a, err := plain[s.lang].Parse(s.b, ranges)
			if err != nil {
				t.Fatalf("%s: %v", s.name, err)
			}
			got := slices.Clone(a.nodes)
			b, err := balanced[s.lang].Parse(s.b, ranges)
			if err != nil {
				t.Fatalf("%s (balanced): %v", s.name, err)
			}
			if !slices.Equal(got, b.nodes) {
				t.Fatalf("%s (ranges %v): %d nodes unbalanced, %d balanced, or fields differ", s.name, ranges, len(got), len(b.nodes))
			}
		}
	}
}

// TestBalanceKnobBalances shows that the test knob does what the test
// above relies on: a long repetition left unbalanced is a deep chain of
// hidden nodes (the flattening walk's stack grows with it), balanced a
// shallow one.
func TestBalanceKnobBalances(t *testing.T) {
	src := longFile(3000)
	depth := func(balance bool) int {
		p := NewParser(C)
		defer p.Close()
		if balance {
			p.useBalance()
		}
		if _, err := p.Parse(src, nil); err != nil {
			t.Fatal(err)
		}
		return int(p.buf.frames_cap)
	}
	plain, bal := depth(false), depth(true)
	t.Logf("walk stack: %d frames unbalanced, %d balanced", plain, bal)
	if plain < 2048 || bal > 256 {
		t.Errorf("walk stack for 3000 declarations: %d frames unbalanced (want >= 2048), %d balanced (want <= 256)", plain, bal)
	}
}

// longFile is n top-level declarations and a function of n statements.
func longFile(n int) []byte {
	var b strings.Builder
	for i := range n {
		b.WriteString("int v")
		b.WriteString(strings.Repeat("x", i%7))
		b.WriteString(";\n")
	}
	b.WriteString("void f(void) {\n")
	for range n {
		b.WriteString("  g(1);\n")
	}
	b.WriteString("}\n")
	return []byte(b.String())
}
