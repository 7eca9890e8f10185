# METADATA
# title: Cloud metadata endpoint reachable from the live sandbox
# description: |
#   A probe reached an instance metadata service (169.254.169.254,
#   metadata.google.internal, 100.100.100.200, fd00:ec2::254). It hands out
#   the node's cloud credentials and identity to whoever asks: the agent can
#   act as the machine it runs on.
# related_resources:
#   - ref: https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/configuring-instance-metadata-service.html
#     description: AWS — configure the instance metadata service (IMDSv2, hop limit)
#   - ref: https://cloud.google.com/kubernetes-engine/docs/how-to/protecting-cluster-metadata
#     description: GKE — protect cluster metadata
# custom:
#   id: live-metadata-endpoint-reachable
#   property: network
#   severity: critical
#   remediation: Block the metadata addresses in the sandbox's egress policy (NetworkPolicy, firewall), or require IMDSv2 with hop limit 1 and use workload identity instead of node credentials.
package rules.live_metadata_endpoint_reachable

import data.lib.sa

deny contains f if {
	some p in input.live.network.probes
	p.metadata
	p.reachable
	f := sa.finding(rego.metadata.chain(), p, sprintf("the cloud metadata endpoint %s is reachable (%s)", [p.target, p.kind]))
}
