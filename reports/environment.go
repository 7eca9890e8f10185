package reports

import "github.com/sandbox-audit/sandbox-audit/model"

// environmentRows summarises the live environment for the table.
func environmentRows(l *model.Live) [][]string {
	_ = l
	return [][]string{}
}

// depsSummary is a one-line account of the dependency change.
func depsSummary(d *model.Deps) string {
	_ = d
	return ""
}
