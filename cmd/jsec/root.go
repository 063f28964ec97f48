package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/spf13/cobra"
	"golang.org/x/term"
)

// Exit codes, as DESIGN.md fixes them.
const (
	exitOK       = 0 // no finding at or above --fail-on
	exitFindings = 1 // findings at or above --fail-on
	exitUsage    = 2 // usage or configuration error
	exitInternal = 3 // internal error
)

// streams are a command's standard streams; tests pass buffers.
type streams struct {
	In       io.Reader
	Out, Err io.Writer
	// ErrTTY reports whether Err is a terminal (progress output).
	ErrTTY bool
}

func ioStreams() streams {
	return streams{In: os.Stdin, Out: os.Stdout, Err: os.Stderr, ErrTTY: term.IsTerminal(int(os.Stderr.Fd()))}
}

// usageError marks errors the user fixes by changing the invocation or
// the configuration (exit code 2).
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }

func usagef(format string, a ...any) error { return usageError{fmt.Errorf(format, a...)} }

// findingsError reports findings at or above --fail-on (exit code 1).
type findingsError struct{ n int }

func (e findingsError) Error() string {
	return fmt.Sprintf("%d findings at or above the --fail-on threshold", e.n)
}

// run executes the command line and maps the outcome to an exit code, in
// one place.
func run(args []string, io streams) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	root := newRootCmd(io)
	root.SetArgs(args)
	err := root.ExecuteContext(ctx)
	return exitCode(err, io)
}

func exitCode(err error, io streams) int {
	if err == nil {
		return exitOK
	}
	var fe findingsError
	var ue usageError
	switch {
	case errors.As(err, &fe):
		return exitFindings
	case errors.As(err, &ue):
		fmt.Fprintf(io.Err, "jsec: %v\n", err)
		return exitUsage
	case errors.Is(err, context.Canceled):
		fmt.Fprintln(io.Err, "jsec: interrupted")
		return exitInternal
	}
	fmt.Fprintf(io.Err, "jsec: %v\n", err)
	return exitInternal
}

func newRootCmd(io streams) *cobra.Command {
	root := &cobra.Command{
		Use:   "jsec",
		Short: "Find security defects in C, C++ and Rust code",
		Long: `jsec scans C, C++ and Rust code for security defects: a fast, offline,
deterministic direct scan with tree-sitter and rule checkers, written as
JSON, Markdown and SARIF reports.

Start with:
  jsec scan path/to/project          # reports in ./jsec-out, exit 1 on high+ findings
  jsec rules                         # the rule catalogue
  jsec rules c.buffer.strcpy         # one rule's documentation`,
		SilenceUsage:  true,
		SilenceErrors: true,
		Args:          argsError(cobra.NoArgs),
		RunE:          func(cmd *cobra.Command, args []string) error { return cmd.Help() },
	}
	root.SetOut(io.Out)
	root.SetErr(io.Err)
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		return usageError{fmt.Errorf("%w\nRun '%s --help' for usage.", err, c.CommandPath())}
	})
	root.AddCommand(newScanCmd(io, nil), newAskCmd(io), newMergeCmd(io), newRulesCmd(io), newVersionCmd(io))
	return root
}

// argsError wraps cobra's argument validators as usage errors.
func argsError(v cobra.PositionalArgs) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if err := v(cmd, args); err != nil {
			return usageError{fmt.Errorf("%w\nRun '%s --help' for usage.", err, cmd.CommandPath())}
		}
		return nil
	}
}
