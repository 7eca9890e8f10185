package r5_capadd

deny contains msg if {
	some s in input.services
	some c in s.cap_add
	c in {"SYS_ADMIN", "NET_ADMIN", "ALL"}
	msg := "capadd (5)"
}
