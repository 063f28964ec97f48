package c

import "testing"

// TestLiteralCounter pins which counters the container-index triage
// takes for literal: only numbers ever reach them. Each mention that
// might bring a value from outside makes it no literal counter, whether
// or not Check would trace that value.
func TestLiteralCounter(t *testing.T) {
	cases := []struct {
		name, body string
		literal    bool
	}{
		{"a for counter", "for (size_t i = 0; i < v.size(); ++i) t += v[i];", true},
		{"reset and stepped", "int i = 0; i = 4; i += 2; i--; use(v[i]);", true},
		{"read in a condition and an initializer", "int i = 1; if (i > 0) { int a[2] = {i, 0}; t = a[0]; } t += v[i];", true},
		{"a parameter", "t = v[n];", false},
		{"declared without a number", "int i; i = 0; t = v[i];", false},
		{"assigned a name", "int i = 0; i = n; t = v[i];", false},
		{"stepped by a name", "int i = 0; i += n; t = v[i];", false},
		{"its address taken", "int i = 0; scanf(\"%d\", &i); t = v[i];", false},
		{"read from a stream", "int i = 0; std::cin >> i; t = v[i];", false},
		{"passed to a call", "int i = 0; Fill(i, n); t = v[i];", false},
		{"passed after another argument", "int i = 0; Fill(n, i); t = v[i];", false},
		{"a structured binding beside a counter", "for (int i = 0; i < 2; i++) t++; auto [i, k] = Pair(n); t = v[i];", false},
		{"multiplied into", "int i = 1; i *= n; t = v[i];", false},
	}
	for _, c := range cases {
		src := "int f(const std::vector<int> &v, int n) { int t = 0; " + c.body + " return t; }"
		lx := LexCPP([]byte(src))
		if len(lx.Items) != 1 {
			t.Fatalf("%s: %d items", c.name, len(lx.Items))
		}
		idx := ""
		for k := range lx.Tokens {
			if lx.Is(k, "v") && lx.Is(k+1, "[") {
				idx = lx.Text(k + 2)
			}
		}
		if got := cppLiteralCounter(lx, lx.Items[0], idx); got != c.literal {
			t.Errorf("%s: cppLiteralCounter(%s) = %v, want %v\n%s", c.name, idx, got, c.literal, src)
		}
	}
}
