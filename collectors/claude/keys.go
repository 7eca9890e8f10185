package claude

// knownKeys is the one table of settings keys Claude Code reads, per object
// (FORMATS.md and the settings reference at code.claude.com/docs). Anything
// else is reported as an unknown key: Claude Code ignores unknown keys
// silently (claude-code issue #29596), so "sandbox": {"enable": true} looks
// like a sandbox and is none. When Claude Code adds a key, add it here.
var knownKeys = map[string]map[string]bool{
	"": set(
		"$schema", "apiKeyHelper", "awsAuthRefresh", "awsCredentialExport", "cleanupPeriodDays", "env",
		"includeCoAuthoredBy", "includeGitInstructions", "attribution", "permissions", "hooks", "disableAllHooks",
		"allowManagedHooksOnly", "allowManagedPermissionRulesOnly", "allowManagedMcpServersOnly",
		"model", "availableModels", "availableModelsMatch", "deniedModels", "advisorModel", "effortLevel",
		"alwaysThinkingEnabled", "statusLine", "outputStyle", "forceLoginMethod", "forceLoginOrgUUID",
		"enableAllProjectMcpServers", "enabledMcpjsonServers", "disabledMcpjsonServers",
		"allowedMcpServers", "deniedMcpServers", "useEnterpriseMcpConfigOnly",
		"otelHeadersHelper", "spinnerTipsEnabled", "spinnerTipsOverride", "spinnerVerbs",
		"enabledPlugins", "extraKnownMarketplaces", "strictKnownMarketplaces", "pluginConfigs",
		"sandbox", "companyAnnouncements", "respectGitignore", "fileSuggestion", "language",
		"autoUpdatesChannel", "autoUpdates", "showTurnDuration", "terminalProgressBarEnabled",
		"plansDirectory", "skipWebFetchPreflight", "autoCompactEnabled", "autoCompactWindow",
		"autoMemoryEnabled", "autoDreamEnabled", "theme", "editorMode", "preferredNotifChannel",
		"verbose", "todoFeatureEnabled", "messageIdleNotifThresholdMs", "autoConnectIde",
		"autoInstallIdeExtension", "disableAutoMode", "autoMode", "feedbackSurveyRate",
		"prefersReducedMotion", "teammateMode", "skipDangerousModePermissionPrompt",
		"ignorePatterns", "allowedTools", "disallowedTools", "subagentStatusLine",
	),
	"permissions": set(
		"allow", "deny", "ask", "defaultMode", "disableBypassPermissionsMode", "additionalDirectories",
		"disableAutoMode",
	),
	"sandbox": set(
		"enabled", "failIfUnavailable", "autoAllowBashIfSandboxed", "allowUnsandboxedCommands",
		"excludedCommands", "enableWeakerNestedSandbox", "enableWeakerNetworkIsolation",
		"ignoreViolations", "network", "filesystem", "ripgrep",
	),
	"sandbox.network": set(
		"allowedDomains", "deniedDomains", "allowManagedDomainsOnly", "allowUnixSockets",
		"allowAllUnixSockets", "allowLocalBinding", "httpProxyPort", "socksProxyPort",
	),
	"sandbox.filesystem": set("allowWrite", "denyWrite", "denyRead", "allowRead"),
}

func set(keys ...string) map[string]bool {
	m := make(map[string]bool, len(keys))
	for _, k := range keys {
		m[k] = true
	}
	return m
}
