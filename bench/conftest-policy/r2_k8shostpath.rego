package r2_k8shostpath

deny contains msg if {
	some v in input.spec.volumes
	endswith(v.hostPath.path, ".sock")
	msg := "k8shostpath (2)"
}
