package r2_claudebypass

deny contains msg if {
	input.permissions.defaultMode == "bypassPermissions"
	msg := "claudebypass (2)"
}
