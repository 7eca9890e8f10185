package firewall

import (
	"strings"

	"github.com/sandbox-audit/sandbox-audit/collectors/internal/shell"
)

// ufwState follows ufw commands: the outgoing default, outbound allow
// rules, and whether the firewall is enabled at all.
type ufwState struct {
	policy  *decision
	enabled bool
	rules   []ufwRule
}

type ufwRule struct {
	a    accept
	line int
}

func (u *ufwState) command(args []shell.Arg, c shell.Call, s *state) {
	var ws []string
	for _, a := range args {
		if !strings.HasPrefix(a.Text, "--") {
			ws = append(ws, a.Text)
		}
	}
	if len(ws) == 0 {
		return
	}
	switch ws[0] {
	case "enable":
		u.enabled = true
	case "disable", "reset":
		u.enabled = false
		if ws[0] == "reset" {
			u.policy, u.rules = nil, nil
		}
	case "default":
		// ufw default deny outgoing
		if len(ws) >= 3 && strings.HasPrefix(ws[2], "out") {
			u.policy = &decision{deny: ws[1] == "deny" || ws[1] == "reject", line: c.Line, cond: c.Cond}
		}
	case "allow":
		if len(ws) >= 2 && ws[1] == "out" {
			u.rules = append(u.rules, ufwRule{a: parseUFW(ws[2:]), line: c.Line})
		}
	}
}

// parseUFW reads the rest of "ufw allow out …": "53", "22/tcp",
// "to 1.2.3.4 port 443 proto tcp", "on lo".
func parseUFW(ws []string) accept {
	var a accept
	for i := 0; i < len(ws); i++ {
		switch ws[i] {
		case "on":
			if i+1 < len(ws) && ws[i+1] == "lo" {
				a.loopback = true
			}
			i++
		case "to":
			if i+1 < len(ws) && ws[i+1] != "any" {
				a.dest = ws[i+1]
			}
			i++
		case "port":
			if i+1 < len(ws) {
				a.ports = append(a.ports, strings.Split(ws[i+1], ",")...)
			}
			i++
		case "proto":
			if i+1 < len(ws) {
				a.proto = ws[i+1]
			}
			i++
		case "from":
			i++
		default:
			port, proto, _ := strings.Cut(ws[i], "/")
			if isNumber(strings.Split(port, ",")[0]) {
				a.ports = append(a.ports, strings.Split(port, ",")...)
				a.proto = proto
			}
		}
	}
	return a
}

// verdict is ufw's outgoing default once enabled; nil when ufw never
// becomes active.
func (u *ufwState) verdict() *decision {
	if !u.enabled || u.policy == nil {
		return nil
	}
	return u.policy
}

func (u *ufwState) deny() *decision {
	if d := u.verdict(); d != nil && d.deny {
		return d
	}
	return nil
}

func (u *ufwState) finish(s *state) {
	if u.policy != nil && u.policy.deny && !u.enabled {
		s.hole("fail-open", "sets ufw's outgoing default to deny but never enables ufw", u.policy.line)
	}
	if u.deny() == nil {
		return
	}
	for _, r := range u.rules {
		classify(s, r.line, r.a, "")
	}
}
