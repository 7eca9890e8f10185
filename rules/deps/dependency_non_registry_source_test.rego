package rules.dependency_non_registry_source_test

import data.rules.dependency_non_registry_source as r

git_pkg := {
	"ecosystem": "npm", "name": "evil-pkg", "version": "1.0.0", "change": "added",
	"file": "package-lock.json", "line": 49, "source": "git", "previous_source": "",
	"resolved_host": "github.com",
}

test_git_source_fires if {
	fs := r.deny with input as {"deps": {"packages": [git_pkg]}}
	count(fs) == 1
	some f in fs
	f.rule_id == "dependency-non-registry-source"
	f.category == "dependencies"
	f.message == "added npm package evil-pkg@1.0.0 comes from a git repository (github.com), not a registry"
}

test_tarball_and_path_fire if {
	t := object.union(git_pkg, {"name": "t", "source": "tarball", "resolved_host": "cdn.example.com"})
	p := object.union(git_pkg, {"name": "errors", "ecosystem": "golang", "version": "", "change": "source-changed", "previous_source": "registry", "source": "path", "resolved_host": ""})
	fs := r.deny with input as {"deps": {"packages": [t, p]}}
	count(fs) == 2
	some f in fs
	f.message == "Go package errors from a new source comes from a local path, not a registry"
}

test_registry_quiet if {
	count(r.deny) == 0 with input as {"deps": {"packages": [object.union(git_pkg, {"source": "registry"})]}}
}

test_unchanged_git_source_quiet if {
	p := object.union(git_pkg, {"change": "upgraded", "previous_version": "0.9.0", "previous_source": "git"})
	count(r.deny) == 0 with input as {"deps": {"packages": [p]}}
}
