package main

import (
	"fmt"
	"runtime"

	"github.com/spf13/cobra"

	"github.com/jsec/jsec/checkers/syntax"
	"github.com/jsec/jsec/rules"
)

func newVersionCmd(io streams) *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print jsec's version",
		Args:  argsError(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, args []string) error {
			fmt.Fprintf(io.Out, "jsec %s (%s, %s/%s, %d rules, grammars: c, cpp, rust; C parser: %s)\n",
				version, runtime.Version(), runtime.GOOS, runtime.GOARCH, len(rules.All()), syntax.ParserBuild())
			return nil
		},
	}
}
