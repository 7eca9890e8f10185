# Package policies.score turns findings into the four property statuses and
# scores, the verdict, and the CI gate.
#
# input: {findings: [{rule_id, property, severity, category, suppressed, count}],
#         counts: {...}, live: {...}, unread: [...] (policies.unread),
#         settings: {fail_on, require, min_score, strict}}
#
# Each entry of input.findings stands for count findings alike in all the
# fields above (count defaults to 1).
package policies.score

import data.policies.coverage
import data.policies.unread

properties := ["disposable", "network", "credentials", "review"]

rank := {"info": 0, "low": 1, "medium": 2, "high": 3, "critical": 4}

# Score lost per active finding; a property's score is 100 minus its losses.
weight := {"info": 0, "low": 5, "medium": 15, "high": 30, "critical": 50}

# A property fails on any active finding of medium or worse; low and info
# findings lower the score only.
fail_rank := 2

active contains f if {
	some f in input.findings
	not f.suppressed
}

# Dependency findings gate but speak for no property; platform notes (about
# workloads that are not the agent's sandbox) do neither.
posture(p) := [f | some f in active; not f.category in {"dependencies", "platform"}; f.property == p]

score(p) := 0 if not p in coverage.checked

score(p) := max([0, 100 - sum([w | some f in posture(p); w := weight[f.severity] * n(f)])]) if p in coverage.checked

n(f) := object.get(f, "count", 1)

total(fs) := sum([n(f) | some f in fs])

min_score(p) := object.get(object.get(input.settings, "min_score", {}), p, 0)

status(p) := "fail" if {
	some f in posture(p)
	rank[f.severity] >= fail_rank
}

status(p) := "fail" if {
	not failing_finding(p)
	below_min(p)
}

# Unknown: nothing was checked for it, or something it depends on was not
# read (policies.unread). Failing evidence still fails: an unread file cannot
# hide a finding in what was read.
status(p) := "unknown" if {
	not failing_finding(p)
	not below_min(p)
	not complete(p)
}

status(p) := "pass" if {
	not failing_finding(p)
	complete(p)
	score(p) >= min_score(p)
}

complete(p) if {
	p in coverage.checked
	count(unread.by_property[p]) == 0
}

below_min(p) if {
	p in coverage.checked
	score(p) < min_score(p)
}

failing_finding(p) if {
	some f in posture(p)
	rank[f.severity] >= fail_rank
}

props[p] := {"status": status(p), "score": score(p), "findings": total(posture(p)), "unread": unread.by_property[p]} if some p in properties

verdict := "boundary" if {
	every p in properties {
		status(p) == "pass"
	}
}

verdict := "convenience" if {
	some p in properties
	status(p) == "fail"
}

verdict := "unknown" if {
	not any_fail
	some p in properties
	status(p) == "unknown"
}

any_fail if {
	some p in properties
	status(p) == "fail"
}

fail_on := object.get(input.settings, "fail_on", "high")

gating := [f | some f in active; f.category != "platform"; fail_on != "none"; rank[f.severity] >= rank[fail_on]]

reasons contains sprintf("%d finding(s) at or above %s", [total(gating), fail_on]) if count(gating) > 0

reasons contains sprintf("required property %s is %s%s", [p, status(p), not_read(p)]) if {
	some p in object.get(input.settings, "require", [])
	status(p) != "pass"
}

# not_read(p) names up to three of the unread sources that leave p unknown.
not_read(p) := "" if count(unread.by_property[p]) == 0

not_read(p) := sprintf(" (not read: %s)", [concat(", ", l)]) if {
	l := unread.by_property[p]
	count(l) > 0
	count(l) <= 3
}

not_read(p) := sprintf(" (not read: %s and %d more)", [concat(", ", array.slice(l, 0, 3)), count(l) - 3]) if {
	l := unread.by_property[p]
	count(l) > 3
}

# incomplete_audit: under strict, anything in errors[] means the audit did
# not read all it was asked to (the CLI exits 2).
incomplete_audit if {
	object.get(input.settings, "strict", false)
	unread.errors > 0
}

reasons contains sprintf("strict: %d input(s) could not be audited (see errors)", [unread.errors]) if {
	object.get(input.settings, "strict", false)
	unread.errors > 0
}

# A rule that failed to evaluate makes the audit incomplete under any
# settings (the CLI exits 2 after writing the report).
incomplete_audit if unread.rule_failures > 0

reasons contains sprintf("%d rule(s) failed to evaluate (see errors)", [unread.rule_failures]) if unread.rule_failures > 0

reasons contains sprintf("%s score %d is below the minimum %d", [p, score(p), min_score(p)]) if {
	some p in properties
	p in coverage.checked
	score(p) < min_score(p)
}

gate := {"passed": count(reasons) == 0, "fail_on": fail_on, "reasons": sort(reasons), "incomplete": incomplete_audit}

default incomplete_audit := false

result := {"properties": props, "verdict": verdict, "gate": gate}
