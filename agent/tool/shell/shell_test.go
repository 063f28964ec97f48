package shell

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jsec/jsec/agent/llm"
	"github.com/jsec/jsec/agent/tool"
)

func run(t *testing.T, r *Runner, args ScriptArgs) tool.Result {
	t.Helper()
	b, _ := json.Marshal(args)
	res, err := tool.NewRegistry(r.Tool()).Execute(context.Background(), llm.ToolCall{Name: "execute_script", Arguments: string(b)})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func TestRunsInDirWithStatus(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "marker.txt"), []byte("here"), 0o644)
	r := &Runner{Dir: dir}
	res := run(t, r, ScriptArgs{Script: "cat marker.txt; echo; echo oops >&2; exit 3"})
	if !res.IsError || !strings.Contains(res.Content, "exit status 3") || !strings.Contains(res.Content, "<stdout>\nhere\n") || !strings.Contains(res.Content, "oops") {
		t.Fatalf("%+v", res)
	}
	res = run(t, r, ScriptArgs{Script: "echo ok", Interpreter: "sh"})
	if res.IsError || !strings.Contains(res.Content, "exit status 0") {
		t.Fatalf("%+v", res)
	}
	if res := run(t, r, ScriptArgs{Script: "x", Interpreter: "ruby"}); !res.IsError || !strings.Contains(res.Content, "unknown interpreter") {
		t.Fatalf("%+v", res)
	}
}

func TestTimeoutKillsTheProcessGroup(t *testing.T) {
	dir := t.TempDir()
	r := &Runner{Dir: dir}
	start := time.Now()
	res := run(t, r, ScriptArgs{Script: "(sleep 30; touch survived) & sleep 30", TimeoutSeconds: 1})
	if !res.IsError || !strings.Contains(res.Content, "killed after the 1s timeout") || time.Since(start) > 10*time.Second {
		t.Fatalf("%+v after %v", res, time.Since(start))
	}
	time.Sleep(100 * time.Millisecond)
	if _, err := os.Stat(filepath.Join(dir, "survived")); err == nil {
		t.Fatal("a child process survived the timeout")
	}
}

func TestOutputCapAndEnv(t *testing.T) {
	t.Setenv("JSEC_LLM_API_KEY", "sk-must-not-leak")
	t.Setenv("GITHUB_TOKEN", "ghp-must-not-leak")
	t.Setenv("HARMLESS_SETTING", "visible")
	r := &Runner{Dir: t.TempDir(), MaxOutput: 1000}
	res := run(t, r, ScriptArgs{Script: "env; for i in $(seq 1 2000); do echo line$i; done"})
	if strings.Contains(res.Content, "must-not-leak") {
		t.Fatal("a credential reached the script")
	}
	if !strings.Contains(res.Content, "bytes omitted") || !strings.Contains(res.Content, "line2000") || len(res.Content) > 3000 {
		t.Fatalf("cap: %d bytes", len(res.Content))
	}
	res = run(t, r, ScriptArgs{Script: "echo $HARMLESS_SETTING"})
	if !strings.Contains(res.Content, "visible") {
		t.Fatalf("%+v", res)
	}
}

func TestPython(t *testing.T) {
	r := &Runner{Dir: t.TempDir()}
	res := run(t, r, ScriptArgs{Script: "print(6*7)", Interpreter: "python3"})
	if strings.Contains(res.Content, "not installed") {
		t.Skip("no python3")
	}
	if res.IsError || !strings.Contains(res.Content, "42") {
		t.Fatalf("%+v", res)
	}
}
