# METADATA
# title: Image user has passwordless sudo to root
# description: |
#   The Dockerfile ends with a non-root USER and gives that user passwordless
#   sudo for every command, or for a command that leads to root (a shell, an
#   interpreter, a package manager, docker…), through a sudoers line it writes
#   or a sudo group it adds the user to (or the Dev Containers base image it
#   builds on does). Every container from the image runs as root in all but
#   name. When a workload of this scan builds the image, sudo-root-equivalent
#   reports it there instead.
# related_resources:
#   - ref: https://www.sudo.ws/docs/man/sudoers.man/
#     description: sudoers(5) — user specifications and NOPASSWD
#   - ref: https://gtfobins.github.io/#+sudo
#     description: GTFOBins — programs that escalate to root when run with sudo
#   - ref: https://docs.docker.com/build/building/best-practices/#user
#     description: Docker — Dockerfile best practices, USER (avoid sudo)
# custom:
#   id: image-sudo-root-equivalent
#   property: disposable
#   severity: medium
#   remediation: Remove the sudoers line (or the sudo group membership) for the image's user; run the setup that needs root in RUN steps before USER, and grant only exact root-owned commands if something must run as root later.
package rules.image_sudo_root_equivalent

import data.lib.privilege
import data.lib.sa

deny contains f if {
	some img in input.images
	some g in object.get(img, "sudo", [])
	why := privilege.root_equivalent(g)
	not img.file in built
	user := object.get(img, ["run_user", "value"], "")
	user != ""
	not privilege.root_user(user)
	f := sa.finding(
		rego.metadata.chain(), g,
		sprintf("The image's user %s can run sudo without a password for %s: containers from it are root in all but name", [user, why]),
	)
}

# built are the Dockerfiles the scan's workloads build.
built contains d if {
	some w in input.workloads
	d := w.build.dockerfile
}
