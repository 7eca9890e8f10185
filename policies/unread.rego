# Package policies.unread decides which properties are unknown because
# something the audit was asked to read was not read: an errors[] entry of
# the config scan (a file unreadable, unparseable, too large, not a regular
# file; a directory it could not list) or a live check that could not run.
# What an unread file would have said is not known, so the properties its
# format speaks to are at best unknown — even when other files speak for
# them, and even when the file was partly read (its facts count, and a
# finding in them still fails the property, but it was not read whole).
#
# input.unread: [{source, kind, partial, error}]
#   kind: the collector that claimed the file; "unknown" when the scan could
#         not tell (any format); "live:<check>" for a live check listed in
#         unavailable[]; "" for errors that are no configuration (the
#         dependency scan, the live audit's own errors).
#   error: the entry is an errors[] entry (a live unavailable[] one is not).
package policies.unread

all := ["disposable", "network", "credentials", "review"]

# What each format speaks to: the properties of the rules that judge its
# facts. Agent settings and agent workflows speak to all four; a container
# definition to what a container decides; a Dockerfile to its image (user,
# base, secrets in ENV/ARG, what it downloads and runs); an MCP config to its
# servers (transport, launch, literal tokens); a git config to credentials
# only. A kind missing here (a collector or live check added later) speaks
# to all four: forgetting it must not let anything pass unread.
#
# A live check that could not run is no evidence for what it checks (the
# audit's liveEvidence) and leaves that property unknown; without the root,
# or on a system that is not Linux, no check ran. Review is not judged from
# inside; isolation, mounts, privileges and reuse feed findings, not the
# evidence for a property. An entry without a kind is no configuration.
speaks := {
	"": [],
	"workflows": all,
	"claude": all,
	"codex": all,
	"gemini": all,
	"cursor": all,
	"devcontainer": ["disposable", "network", "credentials"],
	"compose": ["disposable", "network", "credentials"],
	"kubernetes": ["disposable", "network", "credentials"],
	"dockerfile": ["disposable", "credentials", "review"],
	"mcp": ["network", "credentials", "review"],
	"gitconfig": ["credentials"],
	# a repository setting GitHub's API did not give the token
	"github:review": ["review"],
	"github:credentials": ["credentials"],
	"github:network": ["network"],
	# a firewall script a workload runs, not read: it restricts egress; its
	# sudo grants are read from the Dockerfile and devcontainer, not from it
	"firewall": ["network"],
	# a shell script that did not parse: it may program the firewall, start
	# the agent's container (docker run) or the agent with approval bypassed
	"script": all,
	"live:network": ["network"],
	"live:credentials": ["credentials"],
	"live:root": ["disposable", "network", "credentials"],
	"live:all": ["disposable", "network", "credentials"],
	"live:isolation": [],
	"live:mounts": [],
	"live:privileges": [],
	"live:reuse": [],
	# a rule that failed to evaluate: its findings are missing, so its
	# property is not known
	"rule:disposable": ["disposable"],
	"rule:network": ["network"],
	"rule:credentials": ["credentials"],
	"rule:review": ["review"],
}

# rule_failures: how many rules failed to evaluate (the audit is incomplete
# whatever the settings: a rule that could not run is no evidence).
rule_failures := count([u | some u in object.get(input, "unread", []); startswith(u.kind, "rule:")])

# by_property[p]: the sources (file paths, live/<check>) that leave p unknown.
by_property[p] := sort({u.source |
	some u in object.get(input, "unread", [])
	p in object.get(speaks, u.kind, all)
}) if some p in all

# errors: how many errors[] entries there are (--strict fails on any).
errors := count([u | some u in object.get(input, "unread", []); u.error])
