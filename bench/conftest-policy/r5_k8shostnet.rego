package r5_k8shostnet

deny contains msg if {
	input.spec.hostNetwork == true
	msg := "k8shostnet (5)"
}
