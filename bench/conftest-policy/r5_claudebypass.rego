package r5_claudebypass

deny contains msg if {
	input.permissions.defaultMode == "bypassPermissions"
	msg := "claudebypass (5)"
}
