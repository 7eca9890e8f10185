package r2_k8shostnet

deny contains msg if {
	input.spec.hostNetwork == true
	msg := "k8shostnet (2)"
}
