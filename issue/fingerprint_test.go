package issue

import "testing"

func TestFingerprintIgnoresWhitespaceNotContent(t *testing.T) {
	a := Fingerprint("c.buffer.strcpy", "src/a.c", "main", "strcpy(buf, argv[1])", 0)
	b := Fingerprint("c.buffer.strcpy", "src/a.c", "main", "strcpy( buf,\n\targv[1] )", 0)
	if a != b {
		t.Fatalf("whitespace changed the id: %s vs %s", a, b)
	}
	if len(a) != 16 {
		t.Fatalf("id %q: want 16 hex digits", a)
	}
	for name, other := range map[string]string{
		"rule":       Fingerprint("c.buffer.strcat", "src/a.c", "main", "strcpy(buf, argv[1])", 0),
		"file":       Fingerprint("c.buffer.strcpy", "src/b.c", "main", "strcpy(buf, argv[1])", 0),
		"function":   Fingerprint("c.buffer.strcpy", "src/a.c", "run", "strcpy(buf, argv[1])", 0),
		"code":       Fingerprint("c.buffer.strcpy", "src/a.c", "main", "strcpy(buf, argv[2])", 0),
		"occurrence": Fingerprint("c.buffer.strcpy", "src/a.c", "main", "strcpy(buf, argv[1])", 1),
	} {
		if other == a {
			t.Errorf("changing the %s did not change the id", name)
		}
	}
}

func TestSeverityRoundTrip(t *testing.T) {
	for s := SeverityLow; s <= SeverityCritical; s++ {
		b, err := s.MarshalText()
		if err != nil {
			t.Fatal(err)
		}
		var back Severity
		if err := back.UnmarshalText(b); err != nil || back != s {
			t.Fatalf("%v: round trip gave %v, %v", s, back, err)
		}
	}
	if _, err := ParseSeverity("severe"); err == nil {
		t.Fatal("ParseSeverity accepted an unknown name")
	}
	if SeverityCritical <= SeverityHigh || SeverityLow >= SeverityMedium {
		t.Fatal("severities are not ordered")
	}
	var zero Severity
	if _, err := zero.MarshalText(); err == nil {
		t.Fatal("zero severity marshalled")
	}
}
