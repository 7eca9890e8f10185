package r5_sock

deny contains msg if {
	some s in input.services
	some v in s.volumes
	contains(v, "docker.sock")
	msg := "sock (5)"
}
