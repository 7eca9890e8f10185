package rules.github_copilot_allowlist_broad_test

import data.rules.github_copilot_allowlist_broad as r

repo(list) := {"owner": "o", "name": "r", "file": "github/o/r", "line": 1, "copilot": {"firewall_enabled": true, "allow_list": list}}

test_star_fires if {
	fs := r.deny with input as {"repository": repo(["registry.npmjs.org", "*"])}
	count(fs) == 1
	some f in fs
	f.severity == "medium"
	contains(f.message, "reach *")
}

test_tld_fires if {
	count(r.deny) == 1 with input as {"repository": repo(["*.com"])}
	count(r.deny) == 1 with input as {"repository": repo(["io"])}
}

test_exact_hosts_quiet if {
	count(r.deny) == 0 with input as {"repository": repo(["registry.npmjs.org", "*.pythonhosted.org", "https://artifacts.example.com/"])}
}

test_firewall_off_is_the_other_rule if {
	count(r.deny) == 0 with input as {"repository": {"owner": "o", "name": "r", "file": "github/o/r", "line": 1, "copilot": {"firewall_enabled": false, "allow_list": ["*"]}}}
}

repo_psl(list, psl) := object.union(repo(list), {"copilot": {"firewall_enabled": true, "allow_list": list, "public_suffixes": psl}})

test_public_suffix_fires if {
	fs := r.deny with input as {"repository": repo_psl(["registry.npmjs.org", "*.co.uk", "*.github.io"], ["*.co.uk", "*.github.io"])}
	count(fs) == 1
	some f in fs
	contains(f.message, "reach *.co.uk, *.github.io")
}

test_registrable_domain_quiet if {
	count(r.deny) == 0 with input as {"repository": repo_psl(["*.example.co.uk", "octo.github.io"], [])}
}
