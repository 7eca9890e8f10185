# Package lib.deps holds the helpers the dependency rules share: which
# packages a change brought in, and how a package is named in a message. It
# is a library, not a rule: it emits no findings.
package lib.deps

# incoming is every package version the change brings in: added, moved to
# another version, or the same version from another source.
incoming contains p if {
	some p in object.get(object.get(input, "deps", {}), "packages", [])
	p.change != "removed"
}

# label(p): "npm package lodash@4.17.21", or without version when unknown
# (a git requirement, a local link).
label(p) := sprintf("%s package %s@%s", [eco_name(p.ecosystem), p.name, p.version]) if {
	object.get(p, "version", "") != ""
} else := sprintf("%s package %s", [eco_name(p.ecosystem), p.name])

eco_name(e) := object.get(
	{
		"npm": "npm", "golang": "Go", "pypi": "Python", "cargo": "Rust",
		"gem": "Ruby", "composer": "PHP",
	},
	e, e,
)

# what(p) names the package and what the change did to it:
# "added npm package a@1.0.0", "npm package a upgraded from 1.0.0 to 1.1.0",
# "npm package a@1.0.0 from a new source".
what(p) := sprintf("added %s", [label(p)]) if {
	p.change == "added"
} else := sprintf("%s package %s %s from %s to %s", [eco_name(p.ecosystem), p.name, p.change, p.previous_version, p.version]) if {
	p.change in {"upgraded", "downgraded"}
} else := sprintf("%s from a new source", [label(p)])

# site(p) names where a non-registry package comes from.
site(p) := sprintf(" (%s)", [p.resolved_host]) if {
	object.get(p, "resolved_host", "") != ""
} else := ""
