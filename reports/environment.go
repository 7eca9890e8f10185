package reports

import (
	"fmt"
	"strings"
	"time"

	"github.com/sandbox-audit/sandbox-audit/model"
)

// environmentRows summarises the live environment for the table: one row per
// check, each claim traceable to the facts in the JSON report.
func environmentRows(l *model.Live) [][]string {
	rows := [][]string{}
	iso := l.Isolation
	isoText := fmt.Sprintf("%s (confidence %s)", iso.Kind, iso.Confidence)
	if iso.Runtime != "" {
		isoText = fmt.Sprintf("%s, runtime %s (confidence %s)", iso.Kind, iso.Runtime, iso.Confidence)
	}
	if len(iso.Layers) > 1 {
		isoText += "; layers " + strings.Join(iso.Layers, " > ")
	}
	if len(iso.Signals) > 0 {
		isoText += "\nsignals: " + strings.Join(firstN(iso.Signals, 4), "; ")
	}
	rows = append(rows, []string{"Isolation", isoText})

	p := l.Privileges
	var priv []string
	if p.UID != nil {
		priv = append(priv, fmt.Sprintf("uid %d", *p.UID))
	}
	switch {
	case p.AllCaps:
		priv = append(priv, "all capabilities")
	case len(p.CapsBeyondDefault) > 0:
		priv = append(priv, fmt.Sprintf("%d capabilities, beyond Docker's default: %s", len(p.Caps), strings.Join(p.CapsBeyondDefault, ", ")))
	default:
		priv = append(priv, fmt.Sprintf("%d capabilities", len(p.Caps)))
	}
	if p.Seccomp != "" {
		priv = append(priv, "seccomp "+p.Seccomp)
	}
	if p.LSM.Name != "" {
		priv = append(priv, "LSM "+strings.TrimSpace(p.LSM.Name+" "+p.LSM.Label))
	}
	if p.Privileged {
		priv = append(priv, "PRIVILEGED ("+strings.Join(firstN(p.PrivilegedSign, 2), "; ")+")")
	}
	if p.HostPID || p.HostNet {
		priv = append(priv, "host namespaces: "+strings.Join(p.HostNamespaces, "; "))
	}
	rows = append(rows, []string{"Privileges", strings.Join(priv, "; ")})

	if len(l.Mounts) > 0 {
		var ms []string
		for _, m := range l.Mounts {
			ro := "rw"
			if m.ReadOnly {
				ro = "ro"
			}
			ms = append(ms, fmt.Sprintf("%s (%s, %s: %s)", m.Target, m.FSType, ro, strings.Join(m.Why, ", ")))
		}
		rows = append(rows, []string{"Sensitive mounts", strings.Join(ms, "\n")})
	}

	socks := "none found"
	if len(l.Sockets) > 0 {
		var ss []string
		for _, s := range l.Sockets {
			where := s.Path
			if where == "" {
				where = s.Endpoint
			}
			state := "not probed"
			switch {
			case s.Probed && s.Reachable:
				state = "REACHABLE"
				if s.Evidence != "" {
					state += " (" + s.Evidence + ")"
				}
			case s.Probed:
				state = "unreachable"
				if s.Error != "" {
					state += " (" + s.Error + ")"
				}
			}
			ss = append(ss, fmt.Sprintf("%s %s: %s", s.Kind, where, state))
		}
		socks = strings.Join(ss, "\n")
	}
	rows = append(rows, []string{"Runtime sockets", socks})

	creds := "none found"
	if len(l.Credentials) > 0 {
		var cs []string
		for _, c := range l.Credentials {
			line := fmt.Sprintf("%s (%s-lived, %s) in %s", c.Kind, c.Lifetime, c.Fingerprint, c.Source)
			if c.CanPush {
				line += ", can push"
			}
			cs = append(cs, line)
		}
		creds = strings.Join(cs, "\n")
	}
	rows = append(rows, []string{"Credentials", creds})

	n := l.Network
	var net []string
	if len(n.DefaultRoutes) == 0 {
		net = append(net, "no default route")
	} else {
		var rs []string
		for _, r := range n.DefaultRoutes {
			rs = append(rs, fmt.Sprintf("%s via %s (%s)", r.Iface, r.Gateway, r.Family))
		}
		net = append(net, "default route "+strings.Join(rs, ", "))
	}
	if len(n.Proxies) > 0 {
		var ps []string
		for _, p := range n.Proxies {
			ps = append(ps, p.Var+"="+p.Host)
		}
		net = append(net, "proxy "+strings.Join(ps, ", "))
	} else {
		net = append(net, "no proxy")
	}
	if !n.Probed {
		net = append(net, "not probed (--probe)")
	} else {
		for _, pr := range n.Probes {
			state := "blocked"
			if pr.Reachable {
				state = "REACHED"
			}
			mark := ""
			if (pr.Expect == "blocked") == pr.Reachable {
				mark = " ✗ expected " + pr.Expect
			}
			net = append(net, fmt.Sprintf("%s %s: %s%s", pr.Kind, pr.Target, state, mark))
		}
	}
	rows = append(rows, []string{"Network", strings.Join(net, "\n")})

	r := l.Reuse
	var re []string
	if r.EnvAgeAtTaskSeconds > 0 {
		re = append(re, fmt.Sprintf("environment %s older than the task (%s)", (time.Duration(r.EnvAgeAtTaskSeconds)*time.Second).String(), r.TaskSource))
	}
	if len(r.History) > 0 {
		re = append(re, fmt.Sprintf("%d history file(s)", len(r.History)))
	}
	if r.OldFiles > 0 {
		re = append(re, fmt.Sprintf("%d file(s) older than the task", r.OldFiles))
	}
	if len(r.PersistentMounts) > 0 {
		re = append(re, fmt.Sprintf("%d persistent mount(s) over home/workspace", len(r.PersistentMounts)))
	}
	if c := r.Canary; c != nil {
		switch {
		case c.FoundPrevious:
			re = append(re, "CANARY FROM AN EARLIER RUN at "+c.Path+" (written "+c.PreviousWrittenAt+")")
		case c.Written:
			re = append(re, "canary left at "+c.Path)
		case c.Error != "":
			re = append(re, "canary: "+c.Error)
		}
	}
	if len(re) == 0 {
		re = append(re, "no sign of reuse found")
	}
	rows = append(rows, []string{"Reuse", strings.Join(re, "\n")})

	if len(l.Unavailable) > 0 {
		var us []string
		for _, u := range l.Unavailable {
			us = append(us, u.Check+": "+u.Reason)
		}
		rows = append(rows, []string{"Could not read", strings.Join(firstN(us, 6), "\n")})
	}
	return rows
}

func firstN(s []string, n int) []string {
	if len(s) <= n {
		return s
	}
	return append(append([]string{}, s[:n]...), fmt.Sprintf("… %d more", len(s)-n))
}

// depsSummary is a one-line account of the dependency change, saying
// plainly when vulnerabilities were not matched.
func depsSummary(d *model.Deps) string {
	if d == nil {
		return ""
	}
	n := map[string]int{}
	vuln := 0
	for _, p := range d.Packages {
		n[p.Change]++
		if len(p.Vulnerabilities) > 0 {
			vuln++
		}
	}
	s := fmt.Sprintf("%d changed file(s); %d added, %d upgraded, %d downgraded, %d removed", len(d.ChangedFiles), n["added"], n["upgraded"], n["downgraded"], n["removed"])
	if d.VulnMatched {
		s += fmt.Sprintf("; %d vulnerable", vuln)
	} else {
		s += "; vulnerabilities NOT matched (" + d.DBStatus + ")"
	}
	return s
}
