package firewall

import (
	"strings"

	"github.com/sandbox-audit/sandbox-audit/collectors/internal/shell"
)

// nftChain is an nftables chain; hook is "output" for the chains that
// filter what the container sends.
type nftChain struct {
	family string
	hook   string
	policy *decision
	rules  []nftRule
}

type nftRule struct {
	a        accept
	verdict  string // accept | drop | reject | jump | goto | return | ""
	matchers int
	line     int
	cond     bool
}

// nftState is the nftables ruleset a script builds: chains by
// family|table|chain.
type nftState struct {
	chains map[string]*nftChain
	order  []string
}

func newNFT() *nftState { return &nftState{chains: map[string]*nftChain{}} }

var families = map[string]bool{"ip": true, "ip6": true, "inet": true, "arp": true, "bridge": true, "netdev": true}

// command applies one nft invocation: "add rule inet fw out tcp dport 22
// accept", "-f -" with a ruleset on stdin, or a ruleset given as one word.
func (n *nftState) command(args []shell.Arg, c shell.Call, s *state) {
	var words []string
	for i := 0; i < len(args); i++ {
		a := args[i].Text
		switch {
		case a == "-f" || a == "--file":
			if i+1 < len(args) && (args[i+1].Text == "-" || args[i+1].Text == "/dev/stdin") && c.HasStdin {
				n.script(c.Stdin, c)
			}
			return
		case strings.HasPrefix(a, "-"):
			continue
		}
		words = append(words, a)
	}
	n.script(strings.Join(words, " "), c)
}

// script runs a ruleset text: commands separated by newlines or ";", and
// table blocks.
func (n *nftState) script(text string, c shell.Call) {
	toks := tokenize(text)
	p := &nftParser{n: n, toks: toks, c: c}
	p.top()
}

type nftParser struct {
	n    *nftState
	toks []string
	i    int
	c    shell.Call
}

func (p *nftParser) peek() string {
	if p.i < len(p.toks) {
		return p.toks[p.i]
	}
	return ""
}

func (p *nftParser) next() string {
	t := p.peek()
	if p.i < len(p.toks) {
		p.i++
	}
	return t
}

// statement reads tokens up to the end of a statement (";", newline, or
// the "}" closing the block, which stays unread).
func (p *nftParser) statement() []string {
	var out []string
	depth := 0
	for p.i < len(p.toks) {
		t := p.toks[p.i]
		switch {
		case t == "{":
			depth++
		case t == "}" && depth == 0:
			return out
		case t == "}":
			depth--
		case (t == ";" || t == "\n") && depth == 0:
			p.i++
			return out
		}
		out = append(out, t)
		p.i++
	}
	return out
}

func (p *nftParser) top() {
	for p.i < len(p.toks) {
		switch t := p.next(); t {
		case ";", "\n", "}":
		case "table":
			fam, name := p.familyName()
			if p.peek() == "{" {
				p.next()
				p.tableBlock(fam, name)
			}
		case "add", "create", "insert":
			p.addCommand(t == "insert")
		case "flush":
			st := p.statement()
			if len(st) > 0 && st[0] == "ruleset" {
				p.n.chains = map[string]*nftChain{}
				p.n.order = nil
			}
			if len(st) > 0 && st[0] == "chain" {
				fam, table, chain := familyTableChain(st[1:])
				if ch := p.n.chains[fam+"|"+table+"|"+chain]; ch != nil {
					ch.rules = nil
				}
			}
		case "delete", "destroy":
			st := p.statement()
			if len(st) > 1 && st[0] == "table" {
				fam, table := st[1], ""
				if len(st) > 2 {
					table = st[2]
				}
				if !families[fam] {
					fam, table = "ip", st[1]
				}
				for k := range p.n.chains {
					if strings.HasPrefix(k, fam+"|"+table+"|") {
						delete(p.n.chains, k)
					}
				}
			}
		default:
			p.statement()
		}
	}
}

func (p *nftParser) familyName() (string, string) {
	a := p.next()
	if families[a] {
		return a, p.next()
	}
	return "ip", a
}

func familyTableChain(ws []string) (fam, table, chain string) {
	if len(ws) > 0 && families[ws[0]] {
		fam, ws = ws[0], ws[1:]
	} else {
		fam = "ip"
	}
	if len(ws) > 0 {
		table = ws[0]
	}
	if len(ws) > 1 {
		chain = ws[1]
	}
	return fam, table, chain
}

func (p *nftParser) tableBlock(fam, table string) {
	for p.i < len(p.toks) {
		switch t := p.next(); t {
		case "}":
			return
		case ";", "\n":
		case "chain":
			name := p.next()
			if p.peek() == "{" {
				p.next()
				p.chainBlock(p.n.chain(fam, table, name))
			}
		case "set", "map":
			p.next()
			if p.peek() == "{" {
				p.next()
				p.skipBlock()
			}
		default:
			p.statement()
			if p.peek() == "{" {
				p.next()
				p.skipBlock()
			}
		}
	}
}

func (p *nftParser) skipBlock() {
	depth := 1
	for p.i < len(p.toks) && depth > 0 {
		switch p.next() {
		case "{":
			depth++
		case "}":
			depth--
		}
	}
}

func (p *nftParser) chainBlock(ch *nftChain) {
	for p.i < len(p.toks) {
		if p.peek() == "}" {
			p.next()
			return
		}
		st := p.statement()
		if len(st) == 0 {
			continue
		}
		p.chainStatement(ch, st, false)
	}
}

// chainStatement applies one statement inside a chain: its type/hook and
// policy, or a rule.
func (p *nftParser) chainStatement(ch *nftChain, st []string, insert bool) {
	switch st[0] {
	case "type":
		for i, w := range st {
			if w == "hook" && i+1 < len(st) {
				ch.hook = st[i+1]
			}
		}
		return
	case "policy":
		if len(st) > 1 {
			ch.policy = &decision{deny: st[1] == "drop", line: p.c.Line, cond: p.c.Cond}
		}
		return
	case "comment", "counter":
		if len(st) <= 2 {
			return
		}
	}
	r := parseNFTRule(st)
	r.line, r.cond = p.c.Line, p.c.Cond
	if insert {
		ch.rules = append([]nftRule{r}, ch.rules...)
		return
	}
	ch.rules = append(ch.rules, r)
}

// addCommand reads "add table …", "add chain … { … }", "add rule … stmt".
func (p *nftParser) addCommand(insert bool) {
	kind := p.next()
	switch kind {
	case "table":
		p.statement()
	case "chain":
		fam, table, chain := familyTableChain(p.headerWords())
		ch := p.n.chain(fam, table, chain)
		if p.peek() == "{" {
			p.next()
			p.chainBlock(ch)
		}
		p.statement()
	case "rule":
		fam, table, chain := familyTableChain(p.headerWords())
		st := p.statement()
		if len(st) > 1 && (st[0] == "position" || st[0] == "handle" || st[0] == "index") {
			st = st[2:]
		}
		if len(st) > 0 {
			p.chainStatement(p.n.chain(fam, table, chain), st, insert)
		}
	default:
		p.statement()
	}
}

// headerWords reads the family (when given), table and chain names of a
// command, leaving the rest of the statement.
func (p *nftParser) headerWords() []string {
	var out []string
	if families[p.peek()] {
		out = append(out, p.next())
	}
	for k := 0; k < 2 && p.i < len(p.toks); k++ {
		t := p.peek()
		if t == "{" || t == ";" || t == "\n" || t == "}" {
			break
		}
		out = append(out, p.next())
	}
	return out
}

func (n *nftState) chain(fam, table, name string) *nftChain {
	k := fam + "|" + table + "|" + name
	ch := n.chains[k]
	if ch == nil {
		ch = &nftChain{family: fam}
		n.chains[k] = ch
		n.order = append(n.order, k)
	}
	return ch
}

func parseNFTRule(st []string) nftRule {
	var r nftRule
	for i := 0; i < len(st); i++ {
		w := st[i]
		arg := func() string {
			if i+1 < len(st) {
				i++
				if st[i] == "!=" && i+1 < len(st) {
					r.a.negDest = true
					i++
				}
				if st[i] == "{" {
					var vals []string
					for i+1 < len(st) && st[i+1] != "}" {
						i++
						if st[i] != "," {
							vals = append(vals, strings.TrimSuffix(st[i], ","))
						}
					}
					i++
					return strings.Join(vals, ",")
				}
				v := st[i]
				for i+2 < len(st) && st[i+1] == "," {
					v += "," + st[i+2]
					i += 2
				}
				return v
			}
			return ""
		}
		switch w {
		case "accept", "drop", "reject", "return", "continue":
			r.verdict = w
		case "jump", "goto":
			r.verdict = w
			arg()
		case "oif", "oifname":
			v := strings.Trim(arg(), `"`)
			if v == "lo" {
				r.a.loopback = true
			}
			r.matchers++
		case "ct":
			if i+1 < len(st) && st[i+1] == "state" {
				i++
				states := strings.Split(strings.ToUpper(arg()), ",")
				r.a.established = onlyEstablished(states)
				r.matchers++
			}
		case "daddr":
			v := arg()
			if strings.HasPrefix(v, "@") {
				r.a.set = strings.TrimPrefix(v, "@")
			} else {
				r.a.dest = v
			}
			r.matchers++
		case "dport":
			r.a.ports = append(r.a.ports, strings.Split(arg(), ",")...)
			r.matchers++
		case "tcp", "udp", "sctp":
			if r.a.proto == "" {
				r.a.proto = w
			}
		case "l4proto", "protocol", "nexthdr":
			r.a.proto = arg()
			r.matchers++
		case "icmp", "icmpv6":
			r.a.proto = w
			r.matchers++
		case "skuid", "skgid":
			r.a.owner = arg()
			r.matchers++
		case "saddr", "sport", "mark", "meta", "ip", "ip6", "th", "counter", "log", "limit", "comment", "packets", "bytes", "prefix", "level", "type", "with":
			if w == "saddr" || w == "sport" || w == "mark" {
				arg()
				r.matchers++
			}
			if w == "comment" || w == "prefix" || w == "with" || w == "level" {
				arg()
			}
		}
	}
	return r
}

// outputChains are the chains hooked on output for address family v (4 or 6).
func (n *nftState) outputChains(v int) []*nftChain {
	var out []*nftChain
	for _, k := range n.order {
		ch := n.chains[k]
		if ch == nil || ch.hook != "output" {
			continue
		}
		if ch.family == "inet" || (v == 4 && ch.family == "ip") || (v == 6 && ch.family == "ip6") {
			out = append(out, ch)
		}
	}
	return out
}

func (ch *nftChain) catchAll() *nftRule {
	for i := range ch.rules {
		r := &ch.rules[i]
		if (r.verdict == "drop" || r.verdict == "reject") && r.matchers == 0 {
			return r
		}
	}
	return nil
}

func (ch *nftChain) verdict() *decision {
	if ch.policy != nil && ch.policy.deny {
		return ch.policy
	}
	if r := ch.catchAll(); r != nil {
		return &decision{deny: true, line: r.line, cond: r.cond}
	}
	if ch.policy != nil {
		return ch.policy
	}
	if len(ch.rules) > 0 {
		return &decision{line: ch.rules[0].line, cond: ch.rules[0].cond}
	}
	return nil
}

// verdict is the outbound default for family v: deny when any output
// chain denies (a packet must pass each), nil when no chain hooks output.
func (n *nftState) verdict(v int) *decision {
	var ds []*decision
	for _, ch := range n.outputChains(v) {
		ds = append(ds, ch.verdict())
	}
	return firstDecision(ds...)
}

func (n *nftState) deny(v int) *decision {
	if d := n.verdict(v); d != nil && d.deny {
		return d
	}
	return nil
}

func (n *nftState) finish(s *state) {
	seen := map[*nftChain]bool{}
	for _, v := range []int{4, 6} {
		for _, ch := range n.outputChains(v) {
			if seen[ch] {
				continue
			}
			seen[ch] = true
			d := ch.verdict()
			if d == nil || !d.deny {
				continue
			}
			suffix := ""
			if ch.family == "ip6" {
				suffix = " (IPv6)"
			}
			for _, r := range ch.rules {
				if r.verdict == "drop" || r.verdict == "reject" {
					if r.matchers == 0 {
						break
					}
					continue
				}
				if r.verdict == "accept" {
					classify(s, r.line, r.a, suffix)
				}
			}
		}
	}
}

// tokenize splits nft syntax into words, braces, semicolons and newlines;
// a quoted string is one word, a # comment runs to the end of the line.
func tokenize(text string) []string {
	var out []string
	var cur strings.Builder
	flush := func() {
		if cur.Len() > 0 {
			out = append(out, cur.String())
			cur.Reset()
		}
	}
	for i := 0; i < len(text); i++ {
		c := text[i]
		switch {
		case c == '"':
			j := strings.IndexByte(text[i+1:], '"')
			if j < 0 {
				cur.WriteString(text[i:])
				i = len(text)
				continue
			}
			cur.WriteString(text[i : i+j+2])
			i += j + 1
		case c == '#':
			flush()
			for i < len(text) && text[i] != '\n' {
				i++
			}
			i--
		case c == '{' || c == '}' || c == ';' || c == '\n' || c == ',':
			flush()
			out = append(out, string(c))
		case c == '\\':
			// "\;" in a shell-split nft command is a plain ";".
		case c == ' ' || c == '\t' || c == '\r':
			flush()
		default:
			cur.WriteByte(c)
		}
	}
	flush()
	return out
}
