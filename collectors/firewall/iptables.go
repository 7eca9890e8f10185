package firewall

import (
	"sort"
	"strings"

	"github.com/sandbox-audit/sandbox-audit/collectors/internal/shell"
)

// rule is one iptables rule of the filter table, reduced to what decides
// where it lets traffic go.
type rule struct {
	proto    string
	ports    []string
	dest     string
	negDest  bool
	out      string
	set      string
	states   []string
	owner    string
	other    int // matchers that restrict without naming a destination (-s, -m mark…)
	target   string
	line     int
	cond     bool
	knownAll bool
}

// matchers counts what the rule matches on; zero is a catch-all.
func (r rule) matchers() int {
	n := r.other + len(r.ports) + len(r.states)
	for _, s := range []string{r.proto, r.dest, r.out, r.set, r.owner} {
		if s != "" {
			n++
		}
	}
	return n
}

// maxWalk bounds the rules one evaluation of OUTPUT visits.
const maxWalk = 5000

// chains is the filter table of one address family (iptables or ip6tables).
type chains struct {
	policy  *decision
	rules   map[string][]rule
	touched bool
}

func newChains() *chains { return &chains{rules: map[string][]rule{}} }

// command applies one iptables invocation (without the program name).
func (t *chains) command(args []shell.Arg, c shell.Call, s *state) {
	table := "filter"
	op, chain := "", ""
	var spec []shell.Arg
	insertAt := 0
	for i := 0; i < len(args); i++ {
		a := args[i].Text
		next := func() string {
			if i+1 < len(args) {
				i++
				return args[i].Text
			}
			return ""
		}
		switch {
		case a == "-t" || a == "--table":
			table = next()
		case strings.HasPrefix(a, "--table="):
			table = strings.TrimPrefix(a, "--table=")
		case op == "" && (a == "-A" || a == "--append" || a == "-I" || a == "--insert" || a == "-P" || a == "--policy"):
			op, chain = a, next()
			if op == "-I" || op == "--insert" {
				if i+1 < len(args) && isNumber(args[i+1].Text) {
					insertAt = atoi(next()) - 1
				}
			}
		case op == "" && (a == "-F" || a == "--flush"):
			op = "-F"
			if i+1 < len(args) && !strings.HasPrefix(args[i+1].Text, "-") {
				chain = next()
			}
		case op == "" && (a == "-D" || a == "--delete" || a == "-N" || a == "--new-chain" || a == "-X" || a == "--delete-chain" || a == "-L" || a == "--list" || a == "-S" || a == "-C" || a == "--check" || a == "-Z"):
			op = a
		default:
			spec = append(spec, args[i])
		}
	}
	if table != "filter" {
		return
	}
	switch op {
	case "-P", "--policy":
		if chain != "OUTPUT" || len(spec) == 0 {
			return
		}
		t.touched = true
		d := &decision{deny: spec[0].Text == "DROP", line: c.Line, cond: c.Cond}
		if t.policy != nil && !t.policy.cond && d.cond && t.policy.deny && !d.deny {
			s.hole("conditional", "may set the OUTPUT policy back to ACCEPT under a condition", c.Line)
			return
		}
		t.policy = d
	case "-F":
		if chain == "" {
			t.rules = map[string][]rule{}
		} else {
			delete(t.rules, chain)
		}
	case "-A", "--append", "-I", "--insert":
		r := parseRule(spec)
		r.line, r.cond = c.Line, c.Cond
		if chain == "OUTPUT" {
			t.touched = true
		}
		rs := t.rules[chain]
		if op == "-A" || op == "--append" {
			t.rules[chain] = append(rs, r)
			return
		}
		insertAt = min(max(insertAt, 0), len(rs))
		t.rules[chain] = append(rs[:insertAt:insertAt], append([]rule{r}, rs[insertAt:]...)...)
	}
}

// restore applies an iptables-save document fed on stdin.
func (t *chains) restore(doc string, c shell.Call, s *state, flush bool) {
	table := ""
	for _, line := range strings.Split(doc, "\n") {
		line = strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(line, "*"):
			table = strings.TrimPrefix(line, "*")
			if table == "filter" && flush {
				t.rules = map[string][]rule{}
			}
		case table != "filter":
		case strings.HasPrefix(line, ":OUTPUT "):
			f := strings.Fields(line)
			if len(f) >= 2 && f[1] != "-" {
				t.touched = true
				t.policy = &decision{deny: f[1] == "DROP", line: c.Line, cond: c.Cond}
			}
		case strings.HasPrefix(line, "-"):
			var args []shell.Arg
			for _, f := range strings.Fields(line) {
				args = append(args, shell.Arg{Text: strings.Trim(f, `"'`), Known: true})
			}
			t.command(args, c, s)
		}
	}
}

func parseRule(spec []shell.Arg) rule {
	r := rule{knownAll: true}
	neg := false
	for i := 0; i < len(spec); i++ {
		a := spec[i].Text
		r.knownAll = r.knownAll && spec[i].Known
		val := func() shell.Arg {
			if i+1 < len(spec) {
				i++
				return spec[i]
			}
			return shell.Arg{}
		}
		if a == "!" {
			neg = true
			continue
		}
		switch a {
		case "-p", "--protocol", "--proto":
			r.proto = strings.ToLower(val().Text)
		case "-d", "--destination", "--dst":
			v := val()
			r.dest, r.negDest = v.Text, neg
		case "-o", "--out-interface":
			v := val().Text
			if neg {
				r.other++
			} else {
				r.out = v
			}
		case "--dport", "--destination-port", "--dports", "--destination-ports":
			r.ports = append(r.ports, strings.Split(strings.ReplaceAll(val().Text, ":", "-"), ",")...)
		case "--match-set":
			r.set = val().Text
			if d := val().Text; !strings.Contains(d, "dst") {
				r.other++ // a set matched on the source names no destination
				r.set = ""
			}
		case "--state", "--ctstate":
			r.states = strings.Split(strings.ToUpper(val().Text), ",")
		case "--uid-owner", "--gid-owner":
			r.owner = val().Text
		case "-j", "--jump", "-g", "--goto":
			r.target = val().Text
		case "-m", "--match", "--comment", "--reject-with", "--log-prefix", "--log-level", "-w", "--wait":
			val()
		case "-s", "--source", "--src", "--sport", "--source-port", "--icmp-type", "--tcp-flags", "--syn", "--mark", "--limit":
			r.other++
			if a != "--syn" {
				val()
			}
		default:
			if strings.HasPrefix(a, "-") {
				r.other++
			}
		}
		neg = false
	}
	return r
}

// effective lists the rules OUTPUT applies, in order, with jumps to user
// chains expanded and rules after a catch-all DROP/REJECT left out.
func (t *chains) effective() (rs []rule, catchAll *rule) {
	budget := maxWalk // jumps between chains may fan out: bound the walk
	var walk func(chain string, depth int) bool
	walk = func(chain string, depth int) bool {
		for _, r := range t.rules[chain] {
			if budget--; budget < 0 {
				return true
			}
			switch {
			case (r.target == "DROP" || r.target == "REJECT") && r.matchers() == 0:
				if chain == "OUTPUT" || depth > 0 {
					cp := r
					catchAll = &cp
				}
				return true
			case r.target != "" && r.target != chain && len(t.rules[r.target]) > 0 && depth < 8:
				if r.matchers() == 0 && walk(r.target, depth+1) {
					return true
				}
				if r.matchers() > 0 {
					// A jump that matches first: the chain's accepts are
					// limited by the jump's match; keep it as one rule.
					for _, x := range t.rules[r.target] {
						if x.target == "ACCEPT" {
							m := x
							if m.dest == "" && r.dest != "" {
								m.dest, m.negDest = r.dest, r.negDest
							}
							if m.set == "" {
								m.set = r.set
							}
							if len(m.ports) == 0 {
								m.ports = r.ports
							}
							if m.out == "" {
								m.out = r.out
							}
							rs = append(rs, m)
						}
					}
				}
			default:
				rs = append(rs, r)
			}
		}
		return false
	}
	walk("OUTPUT", 0)
	return rs, catchAll
}

// verdict is the outbound default this family ends with; nil when the
// script never touches OUTPUT.
func (t *chains) verdict() *decision {
	if !t.touched {
		return nil
	}
	if t.policy != nil && t.policy.deny {
		return t.policy
	}
	if _, ca := t.effective(); ca != nil {
		return &decision{deny: true, line: ca.line, cond: ca.cond}
	}
	if t.policy != nil {
		return t.policy
	}
	rs, _ := t.effective()
	if len(rs) == 0 {
		return nil
	}
	return &decision{deny: false, line: rs[0].line, cond: rs[0].cond}
}

func (t *chains) deny() *decision {
	if d := t.verdict(); d != nil && d.deny {
		return d
	}
	return nil
}

// finish records the family's named destinations and holes, when it denies
// by default.
func (t *chains) finish(s *state, suffix string) {
	if t.deny() == nil {
		return
	}
	rs, _ := t.effective()
	for _, r := range rs {
		if r.target != "ACCEPT" {
			continue
		}
		classify(s, r.line, accept{
			loopback:    r.out == "lo",
			established: len(r.states) > 0 && onlyEstablished(r.states),
			set:         r.set,
			dest:        r.dest,
			negDest:     r.negDest,
			owner:       r.owner,
			proto:       r.proto,
			ports:       r.ports,
		}, suffix)
	}
}

// accept is an ACCEPT rule of any filter, as classify needs it.
type accept struct {
	loopback, established bool
	set, dest             string
	negDest               bool
	owner, proto          string
	ports                 []string
}

// classify turns an ACCEPT rule into a named destination or a hole.
func classify(s *state, line int, a accept, suffix string) {
	what := portDesc(a.proto, a.ports)
	switch {
	case a.loopback || a.established:
	case a.set != "":
		s.allow["ipset "+a.set+portSuffix(a.proto, a.ports)] = true
	case a.dest != "" && !anyAddress(a.dest) && !a.negDest:
		s.allow[a.dest+portSuffix(a.proto, a.ports)] = true
		if name := sharedRange(a.dest); name != "" {
			s.sharedHole(a.dest+" ("+name+")", line)
		}
	case a.owner != "":
		s.allow["any host for owner "+a.owner+portSuffix(a.proto, a.ports)] = true
	default:
		to := "to any host"
		if a.negDest && !anyAddress(a.dest) {
			to = "to any host except " + a.dest
		}
		kind := "any-host"
		switch {
		case len(a.ports) == 1 && a.ports[0] == "53":
			kind = "dns"
		case strings.Contains(a.proto, "icmp") && len(a.ports) == 0:
			kind = "icmp"
		}
		s.hole(kind, what+" "+to+suffix, line)
	}
}

func onlyEstablished(states []string) bool {
	for _, st := range states {
		if st != "ESTABLISHED" && st != "RELATED" {
			return false
		}
	}
	return true
}

func anyAddress(d string) bool {
	switch strings.TrimSpace(d) {
	case "0.0.0.0/0", "0/0", "::/0", "0.0.0.0", "::", "any":
		return true
	}
	return false
}

// portDesc says what traffic a rule matches: "tcp/22", "udp/53",
// "tcp/80,443", "tcp (every port)", "all traffic".
func portDesc(proto string, ports []string) string {
	switch {
	case proto == "" && len(ports) == 0:
		return "all traffic"
	case proto == "" || proto == "all":
		if len(ports) == 0 {
			return "all traffic"
		}
		return "port " + strings.Join(sorted(ports), ",")
	case len(ports) == 0:
		return proto + " (every port)"
	}
	return proto + "/" + strings.Join(sorted(ports), ",")
}

func portSuffix(proto string, ports []string) string {
	if len(ports) == 0 && (proto == "" || proto == "all") {
		return ""
	}
	return " " + portDesc(proto, ports)
}

func sorted(xs []string) []string {
	out := append([]string(nil), xs...)
	sort.Strings(out)
	return out
}

func isNumber(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

func atoi(s string) int {
	n := 0
	for _, c := range s {
		n = n*10 + int(c-'0')
		if n > 1<<20 {
			return n
		}
	}
	return n
}
