package r4_codexfull

deny contains msg if {
	input.sandbox_mode == "danger-full-access"
	msg := "codexfull (4)"
}
