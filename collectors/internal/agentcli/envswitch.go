package agentcli

import "strings"

// envSwitches are environment variables that turn an agent's own guard
// off, by the name each agent documents, with what they do.
var envSwitches = map[string]string{
	// Codex: run commands with no sandbox where Landlock/seccomp cannot be
	// set up (containers) instead of refusing (openai/codex issue 848).
	"CODEX_UNSAFE_ALLOW_NO_SANDBOX": "codex-no-sandbox",
	// OpenHands: sandbox.use_host_network through its SANDBOX_ variables:
	// the runtime containers share the host's network namespace.
	"SANDBOX_USE_HOST_NETWORK": "openhands-host-network",
}

// EnvSwitch says which agent guard NAME=value turns off ("" for none): a
// known switch set to a true value (1, true, yes, on).
func EnvSwitch(name, value string) string {
	s, ok := envSwitches[strings.ToUpper(strings.TrimSpace(name))]
	if !ok {
		return ""
	}
	switch strings.ToLower(strings.Trim(strings.TrimSpace(value), `"'`)) {
	case "1", "true", "yes", "on":
		return s
	}
	return ""
}
