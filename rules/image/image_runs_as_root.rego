# METADATA
# title: Image runs as root
# description: |
#   The final stage never sets USER, or sets it to root, so every container from
#   the image runs as uid 0 unless its runtime configuration overrides it. Root
#   in the container is root on the host kernel, with only namespaces and
#   capabilities in between; a writable host mount, an added capability or a
#   runtime bug becomes host root. A USER given as a build argument is not
#   judged, nor an image that only platform services of the scan build (a
#   proxy, a gateway in front of the sandbox): the agent does not run in
#   it. Nor is an image whose entrypoint, or a script of its build context
#   that the entrypoint runs, hands the work to a non-root user (exec gosu
#   node "$@", su-exec, runuser -u, su USER -c): it starts as root to set
#   up, and what the agent runs runs as that user.
# related_resources:
#   - ref: https://docs.docker.com/build/building/best-practices/#user
#     description: Docker — Dockerfile best practices, USER
#   - ref: https://docs.docker.com/reference/dockerfile/#user
#     description: Dockerfile reference — USER
#   - ref: https://cheatsheetseries.owasp.org/cheatsheets/Docker_Security_Cheat_Sheet.html
#     description: OWASP Docker Security Cheat Sheet — RULE #2 set a user
#   - ref: https://www.cisecurity.org/benchmark/docker
#     description: CIS Docker Benchmark — 4.1 ensure a user for the container has been created
# custom:
#   id: image-runs-as-root
#   property: disposable
#   severity: medium
#   remediation: Create an unprivileged user in the image and end the final stage with USER <uid> (numeric, e.g. USER 10001), so runAsNonRoot can verify it.
package rules.image_runs_as_root

import data.lib.sa

root_user(u) if sa.is_root(u)

root_user(u) if split(u, ":")[0] in {"root", "0"}

deny contains f if {
	some img in input.images
	not img.final_user
	not img.drops_to
	not run_as_non_root(img)
	not _platform_only(img)
	f := sa.finding(rego.metadata.chain(), img, "The Dockerfile's final stage sets no USER: containers from the image run as root")
}

deny contains f if {
	some img in input.images
	u := lower(trim_space(object.get(img, ["final_user", "value"], "")))
	root_user(u)
	not img.drops_to
	not run_as_non_root(img)
	not _platform_only(img)
	f := sa.finding(rego.metadata.chain(), img.final_user, sprintf("The Dockerfile's final USER is %s: containers from the image run as root", [u]))
}

# run_as_non_root(img): workloads of the scan build the image, and each
# names the non-root user it runs as (a devcontainer's remoteUser, compose
# user:, runAsUser): containers from it do not run as root where it is
# used, and container-runs-as-root judges those that do.
run_as_non_root(img) if {
	img.file in _built
	not img.file in _built_unnamed_or_root
}

# The Dockerfiles workloads build, and those some workload builds without
# naming a non-root user: one pass over the workloads each.
_built contains w.build.dockerfile if some w in input.workloads

_built_unnamed_or_root contains w.build.dockerfile if {
	some w in input.workloads
	not _non_root(w)
}

_non_root(w) if {
	u := trim_space(w.user.value)
	u != ""
	not contains(u, "${")
	not root_user(lower(u))
}

# A compose service a devcontainer runs in takes the devcontainer's user
# (remoteUser): the agent works as that user.
_non_root(w) if {
	dc := object.get(w, "devcontainer", "")
	dc != ""
	some d in input.workloads
	d.source == "devcontainer"
	d.file == dc
	u := trim_space(d.user.value)
	u != ""
	not contains(u, "${")
	not root_user(lower(u))
}

# _platform_only(img): workloads of the scan build the image, and none of
# them is judged as the agent's sandbox.
_platform_only(img) if {
	img.file in _built
	not img.file in _built_judged
}

_built_judged contains w.build.dockerfile if {
	some w in input.workloads
	object.get(w, "judged", true) != false
}
