package main

import (
	"encoding/json"
	"fmt"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/jsec/jsec/config"
	"github.com/jsec/jsec/rules"
)

type rulesOptions struct {
	Format string
	Lang   string
	IDs    []string
}

func newRulesCmd(io streams) *cobra.Command {
	opts := &rulesOptions{}
	cmd := &cobra.Command{
		Use:   "rules [RULE-ID...]",
		Short: "List the rule catalogue, or show one rule's documentation",
		Long: `List every rule jsec knows: ID, severity, CWE, languages and title.
With rule IDs, print each rule's full documentation instead.`,
		Example: `  jsec rules
  jsec rules --lang rust
  jsec rules --format json > rules.json
  jsec rules c.buffer.strcpy`,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.IDs = args
			return runRules(io, opts)
		},
	}
	cmd.Flags().StringVar(&opts.Format, "format", "text", "output format: text or json")
	cmd.Flags().StringVar(&opts.Lang, "lang", "", "only rules for this language (c, cpp, rust)")
	return cmd
}

func runRules(io streams, opts *rulesOptions) error {
	if opts.Format != "text" && opts.Format != "json" {
		return usagef("--format %q: want text or json", opts.Format)
	}
	var list []*rules.Rule
	if len(opts.IDs) > 0 {
		for _, id := range opts.IDs {
			r := rules.Lookup(id)
			if r == nil {
				return unknownRule(id)
			}
			list = append(list, r)
		}
	} else {
		for _, r := range rules.All() {
			if opts.Lang == "" || r.AppliesTo(normalizeLang(opts.Lang)) {
				list = append(list, r)
			}
		}
	}
	if opts.Format == "json" {
		enc := json.NewEncoder(io.Out)
		enc.SetIndent("", "  ")
		if list == nil {
			list = []*rules.Rule{}
		}
		return enc.Encode(list)
	}
	if len(opts.IDs) > 0 {
		for i, r := range list {
			if i > 0 {
				fmt.Fprintln(io.Out)
			}
			fmt.Fprintf(io.Out, "%s: %s\n%s · %s · severity %s · confidence %.2f · %s\n\n%s\n\nFix: %s\n\n%s\n",
				r.ID, r.Title, r.CWEString(), r.Category, r.Severity, r.Confidence, strings.Join(r.Languages, ", "),
				r.Description, r.Suggestion, r.Doc)
		}
		return nil
	}
	tw := tabwriter.NewWriter(io.Out, 0, 2, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tSEVERITY\tCWE\tLANGUAGES\tTITLE")
	for _, r := range list {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", r.ID, r.Severity, r.CWEString(), strings.Join(r.Languages, ","), r.Title)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintf(io.Out, "\n%d rules. 'jsec rules <ID>' shows a rule's documentation.\n", len(list))
	return nil
}

func normalizeLang(l string) string {
	switch strings.ToLower(strings.TrimSpace(l)) {
	case "c++", "cxx", "cc":
		return "cpp"
	case "rs":
		return "rust"
	}
	return strings.ToLower(strings.TrimSpace(l))
}

// unknownRule is the error for a rule ID that names no rule, with the
// closest ID when the name looks like a typo of one.
func unknownRule(id string) error {
	var ids []string
	for _, r := range rules.All() {
		ids = append(ids, r.ID)
	}
	if s := config.Suggest(id, ids); s != "" {
		return usagef("unknown rule %q: did you mean %s? (see 'jsec rules' for the list)", id, s)
	}
	return usagef("unknown rule %q (see 'jsec rules' for the list)", id)
}
