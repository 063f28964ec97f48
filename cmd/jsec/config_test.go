package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestConfigFile(t *testing.T) {
	root := project(t, map[string]string{
		".jsec.yml": `version: 1
exclude: [legacy/]
fail_on: critical
rules:
  disable: [c.buffer.strcpy]
  severity: {c.input.atoi: critical}
custom_rules:
  - id: custom.acme.legacy-copy
    title: Legacy copy helper
    cwe: 120
    category: buffer_overflow
    severity: high
    confidence: 0.7
    languages: [c, cpp]
    description: legacy_copy does not bound its destination.
    suggestion: Use acme_copy(dst, sizeof dst, src).
    pattern: '\blegacy_copy\s*\('
`,
		"src/a.c":      "#include <stdlib.h>\nint main(int argc, char **argv) {\n\tchar b[8];\n\tstrcpy(b, argv[1]);\n\tlegacy_copy(b, argv[1]); /* legacy_copy( in a comment */\n\treturn atoi(argv[1]);\n}\n",
		"legacy/old.c": "void o(void) { char b[2]; gets(b); }\n",
	})
	out := t.TempDir()
	code, _, stderr := runCLI(t, "scan", root, "--out", out)
	rep := loadGateReport(t, out)
	var rules []string
	for _, is := range rep.Issues {
		rules = append(rules, is.Rule)
	}
	if strings.Join(rules, ",") != "custom.acme.legacy-copy,c.input.atoi" {
		t.Fatalf("rules %v (strcpy disabled, legacy/ excluded, the custom rule on code only)", rules)
	}
	// atoi is now critical, and fail_on is critical: exit 1.
	if code != exitFindings {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	// Flags win over the file.
	if code, _, _ := runCLI(t, "scan", root, "--out", out, "--fail-on", "never"); code != exitOK {
		t.Fatalf("--fail-on never over fail_on critical: exit %d", code)
	}
	sarif := readFile(t, filepath.Join(out, "report.sarif"))
	if !strings.Contains(sarif, `"id": "custom.acme.legacy-copy"`) || !strings.Contains(sarif, "Legacy copy helper") {
		t.Fatal("the custom rule is not described in SARIF")
	}
}

func TestConfigErrorsNameFileLineAndFix(t *testing.T) {
	root := project(t, map[string]string{".jsec.yml": "version: 1\nexlude: [x]\nllm:\n  api_key: sk-123\n", "a.c": "int x;\n"})
	code, _, stderr := runCLI(t, "scan", root, "--out", t.TempDir())
	if code != exitUsage {
		t.Fatalf("exit %d", code)
	}
	for _, want := range []string{".jsec.yml:2: unknown key exlude; did you mean exclude?", ".jsec.yml:4:", "JSEC_LLM_API_KEY"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
	if strings.Contains(stderr, "sk-123") {
		t.Fatal("the secret was echoed")
	}
	if code, _, stderr := runCLI(t, "scan", root, "--out", t.TempDir(), "--config", filepath.Join(root, "missing.yml")); code != exitUsage || !strings.Contains(stderr, "missing.yml") {
		t.Fatalf("missing --config: exit %d %s", code, stderr)
	}
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
