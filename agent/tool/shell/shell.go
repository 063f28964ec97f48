// Package shell provides execute_script, the seed's tool for running a
// bash, sh or python3 script in the project directory. It is a writing
// tool (a script can do anything the user can), so a read-only registry
// cannot hold it. Every run has a timeout that kills the whole process
// group, an output cap, and an environment without credentials.
package shell

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"time"

	"github.com/jsec/jsec/agent/tool"
)

// Runner runs scripts in Dir.
type Runner struct {
	Dir string
	// DefaultTimeout and MaxTimeout bound a run (defaults 60s and 10m).
	DefaultTimeout, MaxTimeout time.Duration
	// MaxOutput bounds stdout and stderr each (default 32 KB).
	MaxOutput int
	// Env is the environment; nil means the process's, scrubbed of
	// credentials (see ScrubEnv).
	Env []string
}

// ScriptArgs are execute_script's parameters.
type ScriptArgs struct {
	Script         string `json:"script_content" desc:"the script to run"`
	Interpreter    string `json:"interpreter,omitempty" enum:"bash,sh,python3" desc:"default bash"`
	TimeoutSeconds int    `json:"timeout_seconds,omitempty" desc:"kill the script after this many seconds (default 60)"`
}

var interpreters = map[string][]string{"bash": {"bash", "-s"}, "sh": {"sh", "-s"}, "python3": {"python3", "-"}}

// Tool returns execute_script.
func (r *Runner) Tool() tool.Tool {
	return tool.New("execute_script",
		"Run a bash, sh or python3 script in the project directory and return its exit status, stdout and stderr.",
		func(ctx context.Context, in ScriptArgs) (tool.Result, error) { return r.run(ctx, in) })
}

func (r *Runner) run(ctx context.Context, in ScriptArgs) (tool.Result, error) {
	interp := in.Interpreter
	if interp == "" {
		interp = "bash"
	}
	argv, ok := interpreters[interp]
	if !ok {
		return tool.Errorf("unknown interpreter %q (use bash, sh or python3)", interp), nil
	}
	if _, err := exec.LookPath(argv[0]); err != nil {
		return tool.Errorf("%s is not installed here", argv[0]), nil
	}
	timeout := r.DefaultTimeout
	if timeout <= 0 {
		timeout = time.Minute
	}
	if in.TimeoutSeconds > 0 {
		timeout = time.Duration(in.TimeoutSeconds) * time.Second
	}
	max := r.MaxTimeout
	if max <= 0 {
		max = 10 * time.Minute
	}
	timeout = min(timeout, max)
	rctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	cmd := exec.CommandContext(rctx, argv[0], argv[1:]...)
	cmd.Dir = r.Dir
	cmd.Stdin = strings.NewReader(in.Script)
	cmd.Env = r.Env
	if cmd.Env == nil {
		cmd.Env = ScrubEnv(os.Environ())
	}
	limit := r.MaxOutput
	if limit <= 0 {
		limit = 32 << 10
	}
	stdout, stderr := &capped{max: limit}, &capped{max: limit}
	cmd.Stdout, cmd.Stderr = stdout, stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 2 * time.Second
	start := time.Now()
	err := cmd.Run()
	if ctx.Err() != nil {
		return tool.Result{}, ctx.Err()
	}
	var b strings.Builder
	status := "exit status 0"
	var exitErr *exec.ExitError
	switch {
	case rctx.Err() == context.DeadlineExceeded:
		status = fmt.Sprintf("killed after the %s timeout", timeout)
	case errors.As(err, &exitErr):
		status = "exit status " + fmt.Sprint(exitErr.ExitCode())
	case err != nil:
		status = "failed to run: " + err.Error()
	}
	fmt.Fprintf(&b, "%s (%.1fs)\n<stdout>\n%s</stdout>\n<stderr>\n%s</stderr>\n", status, time.Since(start).Seconds(), stdout, stderr)
	return tool.Result{Content: b.String(), IsError: err != nil}, nil
}

// capped keeps the head and the tail of what is written past max bytes.
type capped struct {
	max        int
	head, tail []byte
	dropped    int
}

func (c *capped) Write(p []byte) (int, error) {
	n := len(p)
	if room := c.max/2 - len(c.head); room > 0 {
		k := min(room, len(p))
		c.head = append(c.head, p[:k]...)
		p = p[k:]
	}
	c.tail = append(c.tail, p...)
	if over := len(c.tail) - c.max/2; over > 0 {
		c.dropped += over
		c.tail = append(c.tail[:0], c.tail[over:]...)
	}
	return n, nil
}

func (c *capped) String() string {
	var b bytes.Buffer
	b.Write(c.head)
	if c.dropped > 0 {
		fmt.Fprintf(&b, "\n[... %d bytes omitted ...]\n", c.dropped)
	}
	b.Write(c.tail)
	if b.Len() > 0 && b.Bytes()[b.Len()-1] != '\n' {
		b.WriteByte('\n')
	}
	return b.String()
}

// ScrubEnv drops variables that look like credentials (API keys, tokens,
// passwords, cloud credentials) so a script, or a prompt-injected model,
// cannot read them.
func ScrubEnv(env []string) []string {
	var out []string
	for _, kv := range env {
		name, _, _ := strings.Cut(kv, "=")
		up := strings.ToUpper(name)
		if strings.HasPrefix(up, "JSEC_LLM_") || strings.HasPrefix(up, "AWS_") || strings.HasPrefix(up, "AZURE_") ||
			strings.HasPrefix(up, "GOOGLE_") || strings.Contains(up, "KEY") || strings.Contains(up, "TOKEN") ||
			strings.Contains(up, "SECRET") || strings.Contains(up, "PASSWORD") || strings.Contains(up, "PASSWD") ||
			strings.Contains(up, "CREDENTIAL") || strings.Contains(up, "COOKIE") {
			continue
		}
		out = append(out, kv)
	}
	return out
}
