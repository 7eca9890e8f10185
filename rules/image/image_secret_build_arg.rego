# METADATA
# title: Credential passed as a build ARG or ENV
# description: |
#   A Dockerfile ARG or ENV named like a credential (GITHUB_TOKEN, NPM_TOKEN,
#   AWS_SECRET_ACCESS_KEY) is filled at build time and kept: ENV values are in
#   the image configuration of every container, ARG values used by RUN show in
#   docker history and the build cache. Anyone who can pull the image, and the
#   agent in the sandbox, can read it. A literal secret value is reported by
#   literal-secret-in-config instead.
# related_resources:
#   - ref: https://docs.docker.com/reference/build-checks/secrets-used-in-arg-or-env/
#     description: Docker build check SecretsUsedInArgOrEnv
#   - ref: https://docs.docker.com/build/building/secrets/
#     description: Docker — build secrets (RUN --mount=type=secret)
#   - ref: https://cheatsheetseries.owasp.org/cheatsheets/Docker_Security_Cheat_Sheet.html
#     description: OWASP Docker Security Cheat Sheet — do not leave secrets in images
# custom:
#   id: image-secret-build-arg
#   property: credentials
#   severity: medium
#   remediation: Remove the ARG/ENV and pass the credential with RUN --mount=type=secret,id=…,env=NAME (docker build --secret), so it is available to that one command and never stored in a layer or the image configuration.
package rules.image_secret_build_arg

import data.lib.sa

deny contains f if {
	some img in input.images
	some e in img.env
	object.get(e, "sensitive_name", false) == true
	not e.secret
	f := sa.finding(
		rego.metadata.chain(), e,
		sprintf("Dockerfile declares ARG/ENV %s: a credential passed this way stays in the image history or configuration", [object.get(e, "name", "?")]),
	)
}
