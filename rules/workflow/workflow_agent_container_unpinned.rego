# METADATA
# title: The agent's job container is a moving tag
# description: |
#   The job that runs the agent does so in a container image named by
#   :latest or by no tag at all, not by a digest or a version: each run takes
#   whatever was pushed last under that name, so the agent's tools, and the
#   code that holds its token and model key, change without a review of
#   this repository. A version tag and a digest are not reported.
# related_resources:
#   - ref: https://docs.github.com/en/actions/writing-workflows/workflow-syntax-for-github-actions#jobsjob_idcontainerimage
#     description: GitHub — jobs.<job_id>.container.image
#   - ref: https://docs.docker.com/reference/cli/docker/image/pull/#pull-an-image-by-digest-immutable-identifier
#     description: Docker — pull an image by digest (immutable identifier)
# custom:
#   id: workflow-agent-container-unpinned
#   property: review
#   severity: low
#   remediation: Name the image by digest (image@sha256:…) or at least by a version tag, and update it through reviewed pull requests (Dependabot or Renovate can keep digests current).
package rules.workflow_agent_container_unpinned

import data.lib.sa
import data.lib.workflow

deny contains f if {
	some w in workflow.workflows
	some j in workflow.jobs(w)
	workflow.agent_job(w, j)
	img := j.container.image
	is_string(img.value)
	_moving(img.value)
	f := sa.finding(rego.metadata.chain(), img, sprintf("%s runs the agent in container image %s, %s: each run takes whatever was pushed last under that name", [workflow.job_label(w, j), img.value, _why(img.value)]))
}

# The tag is what follows the last ":" of the last path part (a registry's
# port comes before a "/").
_tag(ref) := t if {
	parts := split(ref, "/")
	last := parts[count(parts) - 1]
	contains(last, ":")
	t := split(last, ":")[1]
} else := ""

_moving(ref) if {
	not contains(ref, "@")
	not contains(ref, "${{")
	_tag(ref) in {"", "latest"}
}

_why(ref) := "a moving tag" if _tag(ref) == "latest"
else := "with no tag (latest)"
