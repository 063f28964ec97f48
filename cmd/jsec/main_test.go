package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/jsec/jsec/checkers"
	"github.com/jsec/jsec/report"
	"github.com/jsec/jsec/report/html"
	"github.com/jsec/jsec/report/markdown"
)

func runCLI(t testing.TB, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(args, streams{In: strings.NewReader(""), Out: &out, Err: &errb})
	return code, out.String(), errb.String()
}

func project(t testing.TB, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for name, content := range files {
		p := filepath.Join(root, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

const getsC = "#include <stdio.h>\nint main(void) {\n\tchar b[8];\n\tgets(b);\n\treturn 0;\n}\n"

func TestScanExitCodes(t *testing.T) {
	flawed := project(t, map[string]string{"main.c": getsC, "README.md": "# gets(b)\n"})
	clean := project(t, map[string]string{"main.c": "int main(void) { return 0; }\n"})
	out := t.TempDir()
	cases := []struct {
		name string
		args []string
		code int
	}{
		{"findings at default fail-on", []string{"scan", flawed, "--out", out}, exitFindings},
		{"fail-on never", []string{"scan", flawed, "--out", out, "--fail-on", "never"}, exitOK},
		{"critical is above high", []string{"scan", flawed, "--out", out, "--fail-on", "critical"}, exitFindings},
		{"clean tree", []string{"scan", clean, "--out", out}, exitOK},
		{"min-confidence filters", []string{"scan", flawed, "--out", out, "--min-confidence", "0.99"}, exitOK},
		{"other language only", []string{"scan", flawed, "--out", out, "--lang", "rust"}, exitOK},
		{"bad fail-on", []string{"scan", flawed, "--fail-on", "severe"}, exitUsage},
		{"bad lang", []string{"scan", flawed, "--lang", "go"}, exitUsage},
		{"bad jobs", []string{"scan", flawed, "--jobs", "0"}, exitUsage},
		{"bad size", []string{"scan", flawed, "--max-file-size", "big"}, exitUsage},
		{"bad confidence", []string{"scan", flawed, "--min-confidence", "2"}, exitUsage},
		{"missing path", []string{"scan", filepath.Join(flawed, "nope")}, exitUsage},
		{"not a source file", []string{"scan", filepath.Join(flawed, "README.md")}, exitUsage},
		{"one source file", []string{"scan", filepath.Join(flawed, "main.c"), "--out", out}, exitFindings},
		{"no path", []string{"scan"}, exitUsage},
		{"unknown flag", []string{"scan", flawed, "--frobnicate"}, exitUsage},
		{"unknown command", []string{"frobnicate"}, exitUsage},
		{"bad exclude", []string{"scan", flawed, "--out", out, "--exclude", "[x"}, exitUsage},
		{"out through a file", []string{"scan", flawed, "--out", filepath.Join(flawed, "main.c", "out")}, exitUsage},
		{"out is a file", []string{"scan", flawed, "--out", filepath.Join(flawed, "main.c")}, exitUsage},
		{"verify without a model", []string{"scan", flawed, "--out", out, "--verify"}, exitUsage},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, _, stderr := runCLI(t, c.args...)
			if code != c.code {
				t.Fatalf("exit %d, want %d; stderr:\n%s", code, c.code, stderr)
			}
			if c.code == exitUsage && !strings.Contains(stderr, "jsec:") {
				t.Fatalf("usage error without a message: %q", stderr)
			}
		})
	}
}

func TestScanWritesReports(t *testing.T) {
	root := project(t, map[string]string{"src/main.c": getsC, "bin.c": "\x00\x01"})
	out := filepath.Join(t.TempDir(), "reports")
	code, stdout, _ := runCLI(t, "scan", root, "--out", out, "--fail-on", "never")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	if !strings.Contains(stdout, "1 issue (1 critical") || !strings.Contains(stdout, out) {
		t.Fatalf("summary line: %s", stdout)
	}
	for _, f := range []string{"report.json", "report.md", "report.sarif", "report.html"} {
		if st, err := os.Stat(filepath.Join(out, f)); err != nil || st.Size() == 0 {
			t.Fatalf("%s: %v", f, err)
		}
	}
	var rep struct {
		Issues []struct {
			ID, Rule, File string
			Line           int
		}
		Summary struct {
			Total        int `json:"total"`
			FilesScanned int `json:"files_scanned"`
		}
		Errors []struct{ File, Reason, Kind string }
	}
	data, _ := os.ReadFile(filepath.Join(out, "report.json"))
	if err := json.Unmarshal(data, &rep); err != nil {
		t.Fatal(err)
	}
	if len(rep.Issues) != 1 || rep.Issues[0].File != "src/main.c" || rep.Issues[0].Line != 4 || rep.Issues[0].Rule != "c.buffer.gets" {
		t.Fatalf("issues: %+v", rep.Issues)
	}
	if rep.Summary.Total != 1 || rep.Summary.FilesScanned != 1 {
		t.Fatalf("summary: %+v", rep.Summary)
	}
	if len(rep.Errors) != 1 || rep.Errors[0].File != "bin.c" || !strings.Contains(rep.Errors[0].Reason, "binary") {
		t.Fatalf("errors: %+v", rep.Errors)
	}
	// GitHub shows the driver's informationUri: the CLI must set it.
	var sarif struct {
		Runs []struct {
			Tool struct {
				Driver struct{ Name, Version, InformationURI string } `json:"driver"`
			} `json:"tool"`
		} `json:"runs"`
	}
	data, _ = os.ReadFile(filepath.Join(out, "report.sarif"))
	if err := json.Unmarshal(data, &sarif); err != nil || len(sarif.Runs) != 1 {
		t.Fatalf("report.sarif: %v", err)
	}
	if d := sarif.Runs[0].Tool.Driver; d.Name != "jsec" || d.Version == "" || d.InformationURI != homepage {
		t.Fatalf("SARIF driver: %+v", d)
	}
	// report.md and report.html share one Markdown rendering: each is
	// what its package renders from report.json's report on its own.
	var full report.Report
	data, _ = os.ReadFile(filepath.Join(out, "report.json"))
	if err := json.Unmarshal(data, &full); err != nil {
		t.Fatal(err)
	}
	for name, write := range map[string]report.Writer{"report.md": markdown.Write, "report.html": html.Write} {
		var want bytes.Buffer
		if err := write(&want, &full); err != nil {
			t.Fatal(err)
		}
		if got, _ := os.ReadFile(filepath.Join(out, name)); !bytes.Equal(got, want.Bytes()) {
			t.Errorf("%s differs from what %s renders alone:\n%s\nwant:\n%s", name, name, got, want.Bytes())
		}
	}
	// Quiet prints nothing.
	code, stdout, stderr := runCLI(t, "scan", root, "--out", out, "-q")
	if code != exitFindings || stdout != "" || stderr != "" {
		t.Fatalf("quiet: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
}

func TestScanFlagsParse(t *testing.T) {
	var got *scanOptions
	cmd := newScanCmd(streams{Out: &bytes.Buffer{}, Err: &bytes.Buffer{}}, func(_ context.Context, o *scanOptions) error {
		got = o
		return nil
	})
	cmd.SetArgs([]string{"src", "--exclude", "a/", "--exclude", "*.gen.c", "--lang", "c,rust", "-j", "3", "--fail-on", "medium"})
	if err := cmd.Execute(); err != nil {
		t.Fatal(err)
	}
	if got.Root != "src" || strings.Join(got.Exclude, "|") != "a/|*.gen.c" || strings.Join(got.Langs, "|") != "c|rust" || got.Jobs != 3 || got.FailOn != "medium" || got.Out != "jsec-out" {
		t.Fatalf("options: %+v", got)
	}
}

// TestScanSizeAndConfidenceFlags: --max-file-size takes what the
// configuration file takes (config.ParseSize) and --min-confidence only
// numbers in [0, 1]; sizes past int64 and NaN were accepted once.
func TestScanSizeAndConfidenceFlags(t *testing.T) {
	root := project(t, map[string]string{"main.c": getsC})
	for _, c := range []struct {
		flag, value string
		code        int
	}{
		{"--max-file-size", "10MB", exitOK}, {"--max-file-size", "1.5m", exitOK}, {"--max-file-size", "2GiB", exitOK},
		{"--max-file-size", "1048576", exitOK},
		{"--max-file-size", "", exitUsage}, {"--max-file-size", "-1", exitUsage}, {"--max-file-size", "MB", exitUsage},
		{"--max-file-size", "ten", exitUsage}, {"--max-file-size", "99999999999999999999999G", exitUsage},
		{"--max-file-size", "NaN", exitUsage}, {"--max-file-size", "Inf", exitUsage},
		{"--min-confidence", "0.5", exitOK}, {"--min-confidence", "NaN", exitUsage}, {"--min-confidence", "-0.1", exitUsage},
	} {
		code, _, stderr := runCLI(t, "scan", root, "--out", t.TempDir(), "--fail-on", "never", "-q", c.flag, c.value)
		if code != c.code {
			t.Errorf("%s %q: exit %d, want %d (%s)", c.flag, c.value, code, c.code, stderr)
		}
		if c.code == exitUsage && !strings.Contains(stderr, c.flag) {
			t.Errorf("%s %q: the message does not name the flag: %s", c.flag, c.value, stderr)
		}
	}
}

func TestRulesCommand(t *testing.T) {
	code, stdout, _ := runCLI(t, "rules", "--format", "json")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	var list []map[string]any
	if err := json.Unmarshal([]byte(stdout), &list); err != nil || len(list) == 0 {
		t.Fatalf("rules json: %v", err)
	}
	for _, k := range []string{"id", "title", "cwe", "category", "severity", "languages", "description", "suggestion"} {
		if _, ok := list[0][k]; !ok {
			t.Errorf("rule json lacks %q", k)
		}
	}
	code, stdout, _ = runCLI(t, "rules")
	if code != 0 || !strings.Contains(stdout, "c.buffer.gets") || !strings.Contains(stdout, "CWE-242") {
		t.Fatalf("rules text: %d %s", code, stdout)
	}
	code, stdout, _ = runCLI(t, "rules", "c.buffer.gets")
	if code != 0 || !strings.Contains(stdout, "fgets") {
		t.Fatalf("rule doc: %d %s", code, stdout)
	}
	code, stdout, _ = runCLI(t, "rules", "--lang", "rust")
	if code != 0 || strings.Contains(stdout, "c.buffer.gets") || !strings.Contains(stdout, "rust.unsafe.transmute") {
		t.Fatalf("rules --lang rust: %s", stdout)
	}
	if code, _, stderr := runCLI(t, "rules", "no.such.rule"); code != exitUsage || strings.Contains(stderr, "did you mean") {
		t.Fatalf("unknown rule: exit %d: %s", code, stderr)
	}
	if code, _, stderr := runCLI(t, "rules", "c.buffer.strcpi"); code != exitUsage || !strings.Contains(stderr, "did you mean c.buffer.strcpy?") {
		t.Fatalf("mistyped rule: exit %d: %s", code, stderr)
	}
	if code, _, _ := runCLI(t, "rules", "--format", "xml"); code != exitUsage {
		t.Fatalf("bad format: exit %d", code)
	}
}

func TestVersion(t *testing.T) {
	code, stdout, _ := runCLI(t, "version")
	if code != 0 || !strings.HasPrefix(stdout, "jsec ") {
		t.Fatalf("%d %q", code, stdout)
	}
}

// TestSetProcs holds setProcs to its two cases: procsPerCPU Ps per CPU by
// default, and $GOMAXPROCS, when set, left alone.
func TestSetProcs(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	runtime.GOMAXPROCS(cpus)
	setProcs(func(string) string { return "" })
	if got := runtime.GOMAXPROCS(0); got != procsPerCPU*cpus {
		t.Errorf("GOMAXPROCS = %d; want %d (%d per CPU, %d CPUs)", got, procsPerCPU*cpus, procsPerCPU, cpus)
	}
	runtime.GOMAXPROCS(cpus)
	setProcs(func(k string) string {
		if k == "GOMAXPROCS" {
			return "3"
		}
		return ""
	})
	if got := runtime.GOMAXPROCS(0); got != cpus {
		t.Errorf("with $GOMAXPROCS set, GOMAXPROCS changed to %d; want it left at %d", got, cpus)
	}
	if f := newScanCmd(ioStreams(), nil).Flags().Lookup("jobs"); f == nil || f.DefValue != strconv.Itoa(cpus) {
		t.Errorf("--jobs defaults to %v; want the CPU count %d", f, cpus)
	}
}

// TestScanFailsBeforeScanning: a configuration error that the end of a
// run would meet (an --out that cannot be written, a missing --baseline,
// --verify without a model, a bad --exclude) fails before any file is
// scanned. --time prints its table after the scan, so its absence shows
// that none ran; the message names the flag.
func TestScanFailsBeforeScanning(t *testing.T) {
	flawed := project(t, map[string]string{"main.c": getsC})
	out := filepath.Join(t.TempDir(), "out")
	cases := []struct {
		name, flag string
		args       []string
	}{
		{"out through a file", "--out", []string{"--out", filepath.Join(flawed, "main.c", "x")}},
		{"missing baseline", "--baseline", []string{"--out", out, "--baseline", filepath.Join(flawed, "nope.json")}},
		{"verify without a model", "--llm-model", []string{"--out", out, "--verify"}},
		{"bad max-turns", "--max-turns", []string{"--out", out, "--verify", "--llm-model", "m", "--max-turns", "0"}},
		{"bad tool protocol", "--llm-tool-protocol", []string{"--out", out, "--verify", "--llm-model", "m", "--llm-tool-protocol", "json"}},
		{"bad exclude", "--exclude", []string{"--out", out, "--exclude", "src/[a-"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Setenv("JSEC_LLM_MODEL", "")
			code, _, stderr := runCLI(t, append([]string{"scan", flawed, "--time"}, c.args...)...)
			if code != exitUsage {
				t.Fatalf("exit %d, want %d; stderr:\n%s", code, exitUsage, stderr)
			}
			if strings.Contains(stderr, "time by phase") {
				t.Fatalf("the scan ran before the error:\n%s", stderr)
			}
			if !strings.Contains(stderr, c.flag) {
				t.Fatalf("the message does not name %s:\n%s", c.flag, stderr)
			}
			if _, err := os.Stat(out); !os.IsNotExist(err) {
				t.Fatalf("the failed run left %s behind (%v)", out, err)
			}
		})
	}
}

// TestCheckOutDir: the check leaves no trace, neither the directories it
// created nor its probe file, and touches nothing already there.
func TestCheckOutDir(t *testing.T) {
	tmp := t.TempDir()
	nested := filepath.Join(tmp, "a", "b", "c")
	if err := checkOutDir(nested); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(tmp, "a")); !os.IsNotExist(err) {
		t.Fatalf("created directories left behind: %v", err)
	}
	existing := filepath.Join(tmp, "reports")
	os.Mkdir(existing, 0o755)
	os.WriteFile(filepath.Join(existing, "report.json"), []byte("{}"), 0o644)
	if err := checkOutDir(existing); err != nil {
		t.Fatal(err)
	}
	entries, _ := os.ReadDir(existing)
	if len(entries) != 1 || entries[0].Name() != "report.json" {
		t.Fatalf("existing directory changed: %v", entries)
	}
	if err := checkOutDir(filepath.Join(existing, "report.json", "x")); err == nil || !strings.Contains(err.Error(), "not a directory") {
		t.Fatalf("path through a file: %v", err)
	}
	if os.Geteuid() != 0 { // root writes anywhere
		ro := filepath.Join(tmp, "ro")
		os.Mkdir(ro, 0o555)
		if err := checkOutDir(filepath.Join(ro, "out")); err == nil {
			t.Fatal("read-only parent accepted")
		}
	}
}

// TestScanWarnsWhenNothingScanned: a tree with no file of the selected
// languages still exits 0 but says so, naming the languages.
func TestScanWarnsWhenNothingScanned(t *testing.T) {
	root := project(t, map[string]string{"main.c": getsC, "docs/a.txt": "x\n"})
	code, _, stderr := runCLI(t, "scan", root, "--out", t.TempDir(), "--lang", "rust")
	if code != exitOK || !strings.Contains(stderr, "warning: no Rust file was scanned") {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	code, _, stderr = runCLI(t, "scan", root, "--out", t.TempDir(), "--fail-on", "never")
	if code != exitOK || strings.Contains(stderr, "warning") {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	if got := langNames(map[string]*checkers.Language{"c": {}, "cpp": {}, "rust": {}}); got != "C, C++ or Rust" {
		t.Fatalf("langNames = %q", got)
	}
}
