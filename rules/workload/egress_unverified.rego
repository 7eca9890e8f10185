# METADATA
# title: Egress control could not be verified
# description: |
#   Part of what restricts the workload's outbound traffic could not be
#   evaluated from the files: a Cilium or Calico policy whose selector depends
#   on labels the scan cannot know (labels a controller sets at run time,
#   namespace labels when the Namespace object is not in the scan, service
#   account labels), a Calico policy in a tier whose order is defined
#   elsewhere, a construct whose meaning differs between versions (an empty
#   Cilium egress section), or an egress control of another kind that is read
#   but not evaluated (GKE FQDNNetworkPolicy, OVN EgressFirewall, OpenShift
#   EgressNetworkPolicy, AdminNetworkPolicy, Antrea policies), or a firewall
#   script a command runs that is not among the files read (the network
#   property is then unknown: what the script does is not known), or a
#   compose service that sends HTTP(S) to a proxy service through
#   HTTP(S)_PROXY and keeps NET_ADMIN for a firewall its image programs. The
#   network property is judged on the part that could be verified, and is
#   unknown when nothing beside the control was; check the rest
#   against the running cluster (kubectl get ciliumnetworkpolicies,networkpolicies
#   -A, calicoctl).
# related_resources:
#   - ref: https://docs.cilium.io/en/stable/security/policy/intro/
#     description: Cilium — policy enforcement modes and default deny
#   - ref: https://docs.tigera.io/calico/latest/reference/resources/networkpolicy
#     description: Calico — NetworkPolicy, selectors, order and actions
#   - ref: https://kubernetes.io/docs/concepts/services-networking/network-policies/
#     description: Kubernetes — NetworkPolicy
# custom:
#   id: egress-unverified
#   property: network
#   severity: low
#   remediation: Select the sandbox's pods by labels written in their pod template, keep the Namespace objects the policies select on among the scanned files, and check on the cluster which policies select the pod (cilium endpoint list, calicoctl get workloadendpoints).
package rules.egress_unverified

import data.lib.sa
import data.lib.workload as wl

deny contains f if {
	some w in wl.judged_workloads
	not wl.network_in_service(w)
	eg := object.get(w, "egress", null)
	is_object(eg)
	notes := object.get(eg, "unverified", [])
	count(notes) > 0
	f := sa.finding(
		rego.metadata.chain(), w,
		sprintf("%s: its egress control could not be fully evaluated: %s", [wl.label(w), concat("; ", notes)]),
	)
}

deny contains f if {
	some w in wl.judged_workloads
	not wl.network_in_service(w)
	wl.script_not_read(w)
	sc := w.egress.script
	f := sa.finding(
		rego.metadata.chain(), w.egress,
		_unread_message(w, sc),
	)
}

_unread_message(w, sc) := sprintf("%s runs its image's entrypoint %s, which is not among the files read, and the image holds firewall script %s: whether the entrypoint runs it, and so whether egress is denied by default, is not known (scan the tree that holds the entrypoint)", [wl.label(w), sc.runs, sc.holds]) if {
	object.get(sc, "holds", "") != ""
} else := sprintf("%s restricts egress only with firewall script %s, run by its %s command, which is not among the files read: whether it denies egress by default is not known (scan the tree that holds it)", [wl.label(w), sc.runs, object.get(sc, "phase", "")])
