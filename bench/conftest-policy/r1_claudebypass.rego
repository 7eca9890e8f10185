package r1_claudebypass

deny contains msg if {
	input.permissions.defaultMode == "bypassPermissions"
	msg := "claudebypass (1)"
}
