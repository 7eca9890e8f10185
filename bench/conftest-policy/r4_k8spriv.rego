package r4_k8spriv

deny contains msg if {
	some c in input.spec.containers
	c.securityContext.privileged == true
	msg := "k8spriv (4)"
}
