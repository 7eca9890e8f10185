# METADATA
# title: Guessable password in configuration
# description: |
#   A variable named as a password or secret is set to a value anyone could
#   guess: the service's well-known default (postgres, minioadmin123, guest),
#   a placeholder left in (changeme, password, mysecret) or a short word. It
#   is also the default of a reference, ${POSTGRES_PASSWORD:-postgres}: what
#   runs when nobody sets the variable, which on a developer's machine or in
#   CI is the usual case. The agent, or whatever reaches the service, logs in
#   with it; a service that publishes a port lets anything on the network
#   try, and the message says so. A connection URL to a service of the same
#   compose file that publishes no port is not reported: only the containers
#   on its network, which use it by design, reach it. A reference without a default
#   (${POSTGRES_PASSWORD}) is the operator's choice and is not judged.
# related_resources:
#   - ref: https://cwe.mitre.org/data/definitions/1392.html
#     description: CWE-1392 Use of default credentials
#   - ref: https://cwe.mitre.org/data/definitions/521.html
#     description: CWE-521 Weak password requirements
#   - ref: https://docs.docker.com/compose/how-tos/environment-variables/variable-interpolation/
#     description: Compose — interpolation, and defaults with ${VAR:-default}
#   - ref: https://cheatsheetseries.owasp.org/cheatsheets/Secrets_Management_Cheat_Sheet.html
#     description: OWASP Secrets Management Cheat Sheet
# custom:
#   id: weak-default-password
#   property: credentials
#   severity: medium
#   remediation: Drop the literal and the default (${POSTGRES_PASSWORD:?set it}, or ${POSTGRES_PASSWORD} from a secret store or an untracked .env), generate a random password per environment, and publish the service's port on 127.0.0.1 only or not at all.
package rules.weak_default_password

import data.lib.sa
import data.lib.workload as wl

deny contains f if {
	some w in wl.judged_workloads
	some e in w.env
	object.get(e, "weak", false) == true
	not _unpublished_service(w, e)
	f := sa.finding(rego.metadata.chain(), e, _message(w, e))
}

# A connection URL to a service of the same compose file that publishes no
# port: only the containers of its network reach the database, the agent's
# among them, which uses it by design; the password keeps no one out.
_unpublished_service(w, e) if {
	host := object.get(e, "url_host", "")
	host != ""
	some s in input.workloads
	s.source == "compose"
	s.file == w.file
	s.name == host
	count(object.get(s, "ports", [])) == 0
}

# A connection URL is the client's copy of another service's password: the
# port this service publishes is not where that service listens.
_message(w, e) := sprintf("%s connects with a guessable password in %s: the service it names takes it from anyone who reaches it", [wl.label(w), e.name]) if {
	regex.match(`(?i)(_URL|_URI|_DSN)$`, e.name)
} else := sprintf("%s sets %s to a guessable password%s", [wl.label(w), e.name, published(w)])

published(w) := sprintf(" and publishes port %s", [w.ports[0].value]) if {
	count(object.get(w, "ports", [])) > 0
} else := ""
