package model

// Deps holds what a change between two git revisions (or a revision and the
// work tree) did to the project's dependencies: `deps` and `scan --diff-base`.
// Rules read it as input.deps.
type Deps struct {
	// Base is the revision the change is measured from.
	Base DepsRef `json:"base"`
	// Head is the revision holding the change; Head.WorkTree is true when it
	// is the work tree, uncommitted and untracked files included.
	Head DepsRef `json:"head"`
	// MergeBase is the commit the head side was compared with: the merge base
	// of base and head, as in a pull request's diff, so changes made on the
	// base branch since the fork are not attributed to the change. It equals
	// Base.SHA when base is an ancestor of head.
	MergeBase string `json:"merge_base"`
	// VulnMatched is true only when every added or changed package was
	// matched against the vulnerability database. False means "not checked",
	// never "no vulnerabilities": DBStatus says why.
	VulnMatched bool `json:"vuln_matched"`
	// DBStatus is "ok", "missing: <reason>" (no database found; nothing is
	// ever downloaded) or "error: <reason>" (found but unreadable).
	DBStatus string `json:"db_status"`
	// DBPath is the trivy.db file used or looked for.
	DBPath string `json:"db_path"`
	// DBUpdated is the database's UpdatedAt from its metadata.json (RFC 3339),
	// "" when unknown.
	DBUpdated string `json:"db_updated,omitempty"`
	// ChangedFiles lists every dependency manifest and lockfile that differs
	// between the two sides (relative paths, "/"), the only files cataloged.
	ChangedFiles []string `json:"changed_files"`
	// Packages are the packages added, removed or changed, one entry per
	// lockfile (or manifest) and package version.
	Packages []DepPackage `json:"packages"`
	// ManifestsWithoutLockfile are manifests whose dependency declarations
	// changed while the lockfile beside them did not: what installs is not
	// what the manifest says, or the lockfile was left to be resolved later.
	ManifestsWithoutLockfile []ManifestChange `json:"manifests_without_lockfile"`
	// RemovedLockfiles are lockfiles present at base and gone at head.
	RemovedLockfiles []ManifestChange `json:"removed_lockfiles"`
	// WidenedRanges are dependency declarations that went from a pinned
	// version to a range, or were added or changed to an unbounded one.
	WidenedRanges []WidenedRange `json:"widened_ranges"`
}

// DepsRef is one side of a dependency diff.
type DepsRef struct {
	// Ref is the revision as the user gave it ("" for the work tree).
	Ref string `json:"ref"`
	// SHA is the commit Ref resolved to; for the work tree, the commit
	// checked out under it ("" in a repository without commits).
	SHA string `json:"sha"`
	// WorkTree is true when this side is the work tree.
	WorkTree bool `json:"work_tree"`
}

// DepPackage is one package version that the change added, removed or changed.
// Loc points at the package's entry in its lockfile: the head side's file,
// or the base side's for a removed package.
type DepPackage struct {
	// Ecosystem is the package-URL type: npm, golang, pypi, cargo, gem, composer.
	Ecosystem string `json:"ecosystem"`
	Name      string `json:"name"`
	// Version is the head version ("" when removed).
	Version string `json:"version"`
	// PreviousVersion is the base version ("" when added).
	PreviousVersion string `json:"previous_version"`
	// Change is added | removed | upgraded | downgraded | source-changed
	// (same version, different source or registry host).
	Change string `json:"change"`
	Loc
	// PURL is the package URL of the head version (base version when removed).
	PURL string `json:"purl"`
	// InstallScript is true when installing the package runs its own code:
	// npm hasInstallScript, pnpm requiresBuild, a Python sdist or VCS install
	// (setup.py / build backend).
	InstallScript bool `json:"install_script"`
	// PreviousInstallScript is InstallScript on the base side.
	PreviousInstallScript bool `json:"previous_install_script"`
	// Source is where the package comes from: registry | git | tarball | path.
	Source string `json:"source"`
	// PreviousSource is Source on the base side ("" when added).
	PreviousSource string `json:"previous_source"`
	// ResolvedHost is the host the lockfile resolves the package from
	// (registry.npmjs.org, a private index…), "" when the lockfile does not say.
	ResolvedHost string `json:"resolved_host"`
	// PreviousResolvedHost is ResolvedHost on the base side.
	PreviousResolvedHost string `json:"previous_resolved_host"`
	// Vulnerabilities are the advisories matching the head version; empty
	// when none matched or when Deps.VulnMatched is false.
	Vulnerabilities []DepVuln `json:"vulnerabilities"`
}

// DepVuln is one advisory matching a package version.
type DepVuln struct {
	ID string `json:"id"` // CVE, GHSA, RUSTSEC… as the database keys it
	// Severity is the advisory's, lower case: critical | high | medium | low | unknown.
	Severity string `json:"severity"`
	Title    string `json:"title"`
	// FixedVersion lists the versions that fix it ("" when none is known).
	FixedVersion string `json:"fixed_version"`
	URL          string `json:"url,omitempty"`
}

// ManifestChange names a manifest or lockfile involved in a manifest-level
// signal. Loc is the file and, when known, the first changed dependency line.
type ManifestChange struct {
	Ecosystem string `json:"ecosystem"`
	// Lockfile is the lockfile concerned (the unchanged or removed one).
	Lockfile string `json:"lockfile"`
	// Manifest is the manifest beside it ("" when there is none).
	Manifest string `json:"manifest"`
	Loc
}

// WidenedRange is a dependency declaration whose version requirement
// became a range (or an unbounded one).
type WidenedRange struct {
	Ecosystem string `json:"ecosystem"`
	Name      string `json:"name"`
	// From is the base requirement ("" when the dependency is new).
	From string `json:"from"`
	// To is the head requirement ("" or "*" means any version).
	To string `json:"to"`
	Loc
}
