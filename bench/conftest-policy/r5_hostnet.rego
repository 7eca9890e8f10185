package r5_hostnet

deny contains msg if {
	some s in input.services
	s.network_mode == "host"
	msg := "hostnet (5)"
}
