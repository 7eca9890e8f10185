package cli

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/sandbox-audit/sandbox-audit/rules"
)

type rulesOptions struct {
	ruleDirs []string
	format   string
}

func newRulesCmd() *cobra.Command {
	o := &rulesOptions{}
	cmd := &cobra.Command{
		Use:   "rules",
		Short: "List, explain and test rules",
	}
	cmd.PersistentFlags().StringArrayVar(&o.ruleDirs, "rules", nil, "also load custom Rego rules from DIR (repeatable)")
	list := &cobra.Command{
		Use:   "list",
		Short: "List every rule with its property and severity",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			set, err := o.load()
			if err != nil {
				return err
			}
			if o.format == "json" {
				enc := json.NewEncoder(cmd.OutOrStdout())
				enc.SetIndent("", "  ")
				return enc.Encode(set.Rules)
			}
			if o.format != "table" {
				return usageError("--format %q is not one of table, json", o.format)
			}
			rows := make([][]string, 0, len(set.Rules))
			for _, r := range set.Rules {
				title := r.Title
				if r.DefaultMode == "disabled" {
					title += " (off by default)"
				}
				rows = append(rows, []string{r.ID, r.Property, r.Severity, title})
			}
			return renderRules(cmd.OutOrStdout(), rows)
		},
	}
	list.Flags().StringVarP(&o.format, "format", "f", "table", "table or json")
	explain := &cobra.Command{
		Use:   "explain ID",
		Short: "Explain a rule: what it checks, why it matters, how to fix it",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			set, err := o.load()
			if err != nil {
				return err
			}
			r, ok := set.Rule(args[0])
			if !ok {
				return usageError("no rule %q (see `sandbox-audit rules list`)", args[0])
			}
			w := cmd.OutOrStdout()
			fmt.Fprintf(w, "%s — %s\n\nProperty: %s\nSeverity: %s\nCategory: %s\nSource:   %s\n", r.ID, r.Title, r.Property, r.Severity, r.Category, r.File)
			if r.DefaultMode == "disabled" {
				fmt.Fprintf(w, "Mode:     off by default; the policy file's rules: {%s: {mode: enforced}} turns it on\n", r.ID)
			}
			fmt.Fprintf(w, "\n%s\n\nRemediation:\n  %s\n", strings.TrimSpace(r.Description), r.Remediation)
			if len(r.Related) > 0 {
				fmt.Fprintln(w, "\nReferences:")
				for _, x := range r.Related {
					fmt.Fprintf(w, "  - %s %s\n", x.Ref, x.Description)
				}
			}
			return nil
		},
	}
	cmd.AddCommand(list, explain, newRulesTestCmd())
	return cmd
}

func (o *rulesOptions) load() (*rules.Set, error) {
	set, err := rules.LoadBuiltinRules()
	if err != nil {
		return nil, err
	}
	for _, d := range o.ruleDirs {
		if err := set.AddDir(d); err != nil {
			return nil, err
		}
	}
	return set, nil
}
