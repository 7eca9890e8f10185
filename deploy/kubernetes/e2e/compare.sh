#!/usr/bin/env bash
# compare.sh A B: do two fleet runs give the same answer? A and B are
# directories that each hold, for one run:
#   report.json   fleet report -f json --run ID
#   report.sarif  fleet report -f sarif --run ID
#   store.tsv     the run's rows of the store (run.sh's store_rows): per
#                 target its verdict, gate and error, its four properties'
#                 status and score, every finding (fingerprint, rule,
#                 severity, file:line, suppressed or not), what was not read
# Each is turned into sorted lines of facts (A/facts, B/facts) without what
# names the run (id, name, times, shard count), and the two are diffed.
# Exit 0 when they are equal, 1 when they differ (the start of the diff is
# printed, the whole of it is in A/../facts.diff).
set -euo pipefail
a=$1 b=$2
facts() {
	local d=$1
	# The whole report but for the run's own name, times and shard count.
	jq -S 'del(.run.id, .run.name, .run.started, .run.finished, .run.shards, .previous)
		| .history |= map(del(.run, .started))' "$d/report.json" | sed 's/^/report\t/'
	# SARIF: one run per target; each result's rule, level, fingerprint and place.
	jq -r '.runs[] | (.automationDetails.id | sub("^sandbox-audit/fleet/"; "") | sub("/$"; "")) as $t
		| (.results // [])[]
		| ["sarif", $t, .ruleId, .level, (.partialFingerprints["sandboxAudit/v1"] // "-"),
		   ((.locations[0].physicalLocation.artifactLocation.uri // "-") + ":"
		    + ((.locations[0].physicalLocation.region.startLine // 0) | tostring))] | @tsv' "$d/report.sarif" | LC_ALL=C sort
	LC_ALL=C sort "$d/store.tsv"
}
facts "$a" >"$a/facts"
facts "$b" >"$b/facts"
out=$(dirname "$a")/facts.diff
targets=$(grep -c '^target	' "$a/facts" || true)
findings=$(grep -c '^finding	' "$a/facts" || true)
sarif=$(grep -c '^sarif	' "$a/facts" || true)
properties=$(grep -c '^property	' "$a/facts" || true)
if diff -u --label "$a" --label "$b" "$a/facts" "$b/facts" >"$out"; then
	echo "equal: $targets targets, $properties property results, $findings stored findings, $sarif SARIF results ($(wc -l <"$a/facts") facts)"
	exit 0
fi
echo "DIFFERENT: $(grep -c '^[-+][^-+]' "$out") lines of facts differ (the whole diff: $out):"
head -n 40 "$out"
exit 1
