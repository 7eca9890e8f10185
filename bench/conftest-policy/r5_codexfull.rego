package r5_codexfull

deny contains msg if {
	input.sandbox_mode == "danger-full-access"
	msg := "codexfull (5)"
}
