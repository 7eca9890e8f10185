package r3_claudebypass

deny contains msg if {
	input.permissions.defaultMode == "bypassPermissions"
	msg := "claudebypass (3)"
}
