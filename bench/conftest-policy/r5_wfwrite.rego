package r5_wfwrite

deny contains msg if {
	input.permissions == "write-all"
	msg := "wfwrite (5)"
}
