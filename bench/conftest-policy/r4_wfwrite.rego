package r4_wfwrite

deny contains msg if {
	input.permissions == "write-all"
	msg := "wfwrite (4)"
}
