# METADATA
# title: Agent may deploy or publish without a prompt
# description: |
#   An allow rule names a deploy or publish command and lets it run without
#   asking: a hosting CLI whose commands deploy (vercel, netlify deploy,
#   wrangler deploy, fly deploy, firebase deploy, railway up, serverless
#   deploy), directly or through a package runner (npx vercel), or the publish
#   or apply subcommand of a general tool (npm publish, cargo publish, twine
#   upload, gem push, terraform apply, pulumi up, gh release create). The
#   agent's work then reaches users, a registry or the infrastructure without
#   a person reviewing it, with the credentials the CLI finds where it runs.
#   Broad rules (Bash(*), Bash(npx:*)) are left to the rules on arbitrary
#   execution, and a deny or ask rule in any settings file of the same tool
#   that covers the command quiets this one.
# related_resources:
#   - ref: https://docs.anthropic.com/en/docs/claude-code/iam
#     description: Claude Code — permission rules (allow, ask, deny) and their order
#   - ref: https://genai.owasp.org/llmrisk/llm062025-excessive-agency/
#     description: OWASP Top 10 for LLM Applications — LLM06 Excessive Agency
# custom:
#   id: agent-can-deploy
#   property: review
#   severity: high
#   remediation: Move the deploy or publish command to permissions.ask (or deny it) and let releases leave through a reviewed pull request and a pipeline that deploys after the review.
package rules.agent_can_deploy

import data.lib.agent
import data.lib.sa

# hosting CLIs whose plain command deploys, with the command lines that do.
hosting := {
	"vercel": ["vercel", "vercel --prod", "vercel deploy --prod"],
	"netlify": ["netlify deploy --prod"],
	"wrangler": ["wrangler deploy", "wrangler publish", "wrangler pages deploy dist"],
	"flyctl": ["flyctl deploy"],
	"fly": ["fly deploy"],
	"firebase": ["firebase deploy"],
	"railway": ["railway up"],
	"serverless": ["serverless deploy"],
	"sls": ["sls deploy"],
	"surge": ["surge dist"],
}

# general tools, by the subcommand that publishes or applies.
publishing := {
	"npm": ["npm publish"], "pnpm": ["pnpm publish"], "yarn": ["yarn publish", "yarn npm publish"],
	"cargo": ["cargo publish"], "twine": ["twine upload dist/x"], "gem": ["gem push x.gem"],
	"poetry": ["poetry publish"], "uv": ["uv publish"],
	"terraform": ["terraform apply", "terraform apply -auto-approve"], "tofu": ["tofu apply"],
	"pulumi": ["pulumi up", "pulumi up --yes"], "gh": ["gh release create v1"],
}

runners := ["", "npx ", "bunx ", "pnpx ", "pnpm dlx ", "yarn dlx "]

deny contains f if {
	some a in agent.agents
	some r in object.get(a, "allow", [])
	is_string(r.value)
	some cli, what in _named(r.value)
	g := agent.granted(a, r.value, what, [], [])
	count(g) > 0
	f := sa.finding(rego.metadata.chain(), r, sprintf("%s allows %q without a prompt and no deny or ask rule holds it back: the agent can run %s and so deploy or publish without review", [agent.label(a), r.value, min(g)]))
}

# _named(rule) maps the program the rule names (a hosting CLI, or a general
# tool with its publishing subcommand written out) to the command lines to
# try against it.
_named(rule) := {cli: cmds |
	ws := agent.command_words(rule)
	some i, w in ws
	cli := agent.base(w)
	_hosting_or_publish(cli, ws, i)
	cmds := _commands(cli)
}

_hosting_or_publish(cli, _, _) if hosting[cli]

_hosting_or_publish(cli, ws, i) if {
	publishing[cli]
	some c in publishing[cli]
	sub := split(c, " ")[1]
	i + 1 < count(ws)
	ws[i + 1] == sub
}

_commands(cli) := [concat("", [p, c]) | some c in object.get(hosting, cli, object.get(publishing, cli, [])); some p in runners]
