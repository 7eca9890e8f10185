package r2_privileged

deny contains msg if {
	some s in input.services
	s.privileged == true
	msg := "privileged (2)"
}
