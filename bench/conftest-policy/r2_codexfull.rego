package r2_codexfull

deny contains msg if {
	input.sandbox_mode == "danger-full-access"
	msg := "codexfull (2)"
}
