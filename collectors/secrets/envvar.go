package secrets

import (
	"github.com/sandbox-audit/sandbox-audit/collectors/internal/agentcli"
	"github.com/sandbox-audit/sandbox-audit/model"
)

// EnvVar classifies one variable of a container's environment, written
// NAME=value, or NAME alone (hasValue false: the host's value is passed
// on). from is the host variable a value forwards, read the way its format
// writes references (${localEnv:X}, $X); "" when it forwards none. The
// value is never kept: only whether it is a credential (a literal, or the
// literal default of a reference), a guessable one, or a switch that turns
// an agent's guard off.
func EnvVar(name, value string, hasValue bool, from string, loc model.Loc) model.EnvVar {
	ev := model.EnvVar{Name: name, SensitiveName: SensitiveEnv(name, value, hasValue), Loc: loc}
	if !hasValue {
		ev.FromHost = name
	} else {
		ev.Switch = agentcli.EnvSwitch(name, value)
		ev.FromHost = from
		ev.Secret = DetectNamed(name, value)
		if ev.Secret == nil && (from != "" || IsReference(value)) {
			// ${localEnv:TOKEN:ghp_…}: the default is a literal token.
			ev.Secret = Detect(value)
		}
		ev.Weak = ev.Secret == nil && WeakSecret(name, value)
	}
	ev.HostSensitive = ev.FromHost != "" && SensitiveName(ev.FromHost)
	return ev
}
