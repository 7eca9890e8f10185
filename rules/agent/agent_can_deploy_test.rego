package rules.agent_can_deploy_test

import data.rules.agent_can_deploy

settings := ".claude/settings.local.json"

claude(allow, deny) := {
	"tool": "claude-code", "scope": "local", "profile": "", "file": settings, "line": 1,
	"allow": [{"value": v, "file": settings, "line": i + 3} | some i, v in allow],
	"deny": [{"value": v, "file": settings, "line": i + 20} | some i, v in deny],
	"ask": [],
}

test_hosting_cli_through_runner_fires if {
	fs := agent_can_deploy.deny with input as {"agents": [claude(["Bash(npm test:*)", "Bash(npx vercel:*)"], [])]}
	count(fs) == 1
	some f in fs
	f.rule_id == "agent-can-deploy"
	f.severity == "high"
	f.property == "review"
	f.line == 4
	contains(f.message, `allows "Bash(npx vercel:*)"`)
}

test_publish_subcommands_fire if {
	fs := agent_can_deploy.deny with input as {"agents": [claude(["Bash(npm publish:*)", "Bash(terraform apply:*)", "Bash(wrangler deploy)", "Bash(gh release create:*)"], [])]}
	count(fs) == 4
}

test_other_subcommands_quiet if {
	count(agent_can_deploy.deny) == 0 with input as {"agents": [claude(["Bash(vercel env ls)", "Bash(terraform plan:*)", "Bash(npm run build)", "Bash(gh pr view:*)", "Bash(wrangler dev)"], [])]}
}

# A whole general tool, and every command, are left to the rules on
# arbitrary execution.
test_broad_rules_quiet if {
	count(agent_can_deploy.deny) == 0 with input as {"agents": [claude(["Bash(npm:*)", "Bash(*)", "Bash", "Bash(npx:*)", "Bash(terraform:*)"], [])]}
}

test_deny_quiet if {
	count(agent_can_deploy.deny) == 0 with input as {"agents": [claude(["Bash(vercel:*)"], ["Bash(vercel:*)"])]}
}

test_empty_input_quiet if {
	count(agent_can_deploy.deny) == 0 with input as {}
}
