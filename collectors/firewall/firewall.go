// Package firewall reads a repository's shell scripts: the firewall scripts
// among them — scripts that program iptables, ip6tables, nft, ipset or ufw,
// the pattern of Anthropic's reference Claude Code devcontainer
// (init-firewall.sh) — joined to the workloads whose lifecycle commands or
// entrypoints run them, and the containers a script starts with docker run
// (a launcher script's agent container). A script is read, never run: the
// egress it sets up is "restricted by script, unverified", with the
// exceptions that name no destination listed as holes.
package firewall

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"path"
	"sort"
	"strings"

	"github.com/sandbox-audit/sandbox-audit/collectors"
	"github.com/sandbox-audit/sandbox-audit/collectors/internal/agentcli"
	"github.com/sandbox-audit/sandbox-audit/collectors/internal/shell"
	"github.com/sandbox-audit/sandbox-audit/model"
)

// Collector reads firewall scripts.
type Collector struct{}

var (
	_ collectors.Collector = Collector{}
	_ collectors.Linker    = Collector{}
	_ collectors.Sniffer   = Collector{}
)

// New returns the firewall script collector.
func New() Collector { return Collector{} }

// Name implements collectors.Collector.
func (Collector) Name() string { return "script" }

// Match accepts shell scripts (.sh, .bash) and the files without an
// extension that a launcher is kept in: under bin/, scripts/, tools/ or
// hack/, or named run, start or launch, or after an agent (claude-sandbox,
// claude_up). Collect reads those only when their first line says a shell
// runs them (#!/bin/sh, #!/usr/bin/env bash).
func (Collector) Match(p string) bool {
	base := strings.ToLower(path.Base(p))
	if strings.HasSuffix(base, ".sh") || strings.HasSuffix(base, ".bash") {
		return true
	}
	return extensionless(p)
}

// launcherDirs hold scripts without an extension.
var launcherDirs = map[string]bool{"bin": true, "scripts": true, "script": true, "tools": true, "hack": true}

// extensionless: a file without an extension that may be a launcher script.
func extensionless(p string) bool {
	base := strings.ToLower(path.Base(p))
	if strings.Contains(base, ".") || base == "" {
		return false
	}
	if launcherDirs[path.Base(path.Dir(p))] {
		return true
	}
	switch base {
	case "run", "start", "launch":
		return true
	}
	return agentcli.NamesAgent(base)
}

// Sniffs implements collectors.Sniffer: an extensionless file may be a
// program rather than a script.
func (Collector) Sniffs(p string) bool { return extensionless(p) }

// Sniff implements collectors.Sniffer: a shell runs the file.
func (Collector) Sniff(data []byte) bool { return shebangShell(data) }

// shebangShell: the first line runs the file with a POSIX shell or bash.
func shebangShell(data []byte) bool {
	line, _, _ := bytes.Cut(data, []byte("\n"))
	if !bytes.HasPrefix(line, []byte("#!")) {
		return false
	}
	f := strings.Fields(string(line[2:]))
	if len(f) == 0 {
		return false
	}
	exe := path.Base(f[0])
	if exe == "env" {
		for _, a := range f[1:] {
			if !strings.HasPrefix(a, "-") {
				exe = path.Base(a)
				break
			}
		}
	}
	switch exe {
	case "sh", "bash", "dash", "ash", "ksh":
		return true
	}
	return false
}

// devcontainerScript: a script inside a .devcontainer directory, where
// lifecycle commands find their scripts, or one whose name says it sets up
// a firewall or egress filter. An agent such a script starts runs in the
// sandbox; one a script elsewhere starts on its own machine is no
// sandbox's setting and is left out.
func devcontainerScript(p string) bool {
	base := strings.ToLower(path.Base(p))
	for _, dir := range strings.Split(path.Dir(p), "/") {
		if dir == ".devcontainer" {
			return true
		}
	}
	for _, w := range []string{"firewall", "egress", "iptables", "nftables"} {
		if strings.Contains(base, w) {
			return true
		}
	}
	return false
}

// Collect parses one script; a script that programs no packet filter,
// runs no script and starts no container adds nothing.
func (Collector) Collect(ctx context.Context, p string, data []byte, doc *model.Document) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("collect firewall script: %w", err)
	}
	if bytes.IndexByte(data, 0) >= 0 {
		return &collectors.ParseError{Line: 1 + bytes.Count(data[:bytes.IndexByte(data, 0)], []byte("\n")), Err: errors.New("binary data, not a shell script")}
	}
	if extensionless(p) && !shebangShell(data) {
		return nil // not a shell script: a binary, a Python tool, a note
	}
	calls, err := shell.Calls(data, 1)
	if err != nil && !devcontainerScript(p) && !startsContainers(data) {
		// A script of another shell (zsh, fish) that neither sets up a
		// sandbox nor starts one: nothing of the sandbox is lost.
		return nil
	}
	if err != nil {
		var le *shell.LineError
		if errors.As(err, &le) {
			return &collectors.ParseError{Line: le.Line, Err: fmt.Errorf("parse shell script: %w", le.Err)}
		}
		return fmt.Errorf("parse shell script: %w", err)
	}
	if fw := Analyze(p, calls); fw != nil {
		doc.Firewalls = append(doc.Firewalls, *fw)
	}
	runs, sudo := shell.ScriptsOf(calls)
	var drops *model.Str
	if d := shell.DropsTo(calls); d != nil {
		drops = &model.Str{Value: d.User, Loc: model.Loc{File: p, Line: d.Line}}
	}
	var bypass []model.Agent
	if !devcontainerScript(p) {
		// Run on the host, or as an image's entrypoint: Link keeps them
		// for an image whose entrypoint runs the script.
		bypass = scriptAgents(p, calls)
	}
	if len(runs) > 0 || shell.RunsArgs(calls) > 0 || drops != nil || len(bypass) > 0 {
		doc.Scripts = append(doc.Scripts, model.Script{Loc: model.Loc{File: p, Line: 1}, Runs: runs, SudoRuns: sudo, ArgsLine: shell.RunsArgs(calls), DropsTo: drops, Bypass: bypass})
	}
	if devcontainerScript(p) {
		doc.Agents = append(doc.Agents, scriptAgents(p, calls)...)
		doc.Agents = append(doc.Agents, agentcli.AliasAgents(p, string(data), "")...)
	}
	for _, r := range dockerRuns(p, calls) {
		doc.Workloads = append(doc.Workloads, r.w)
		doc.Credentials = append(doc.Credentials, r.creds...)
		if r.agent != nil {
			doc.Agents = append(doc.Agents, *r.agent)
		}
	}
	return nil
}

// scriptAgents are the agent CLIs a script starts with approval bypassed
// (claude --dangerously-skip-permissions in a devcontainer's agent loop):
// an agents[] entry each, at the command, judged like a settings file that
// sets the mode. A script that starts an agent with its defaults adds
// nothing: its settings files speak for it.
func scriptAgents(file string, calls []shell.Call) []model.Agent {
	var out []model.Agent
	for _, c := range calls {
		if tool, flag := agentcli.BypassFlag(c.Texts()); tool != "" {
			out = append(out, agentcli.BypassAgent(tool, flag, model.Loc{File: file, Line: c.Line}, "script "+file, ""))
		}
	}
	return out
}

// Analyze reads the packet-filter commands among a script's calls; nil
// when there are none.
func Analyze(file string, calls []shell.Call) *model.Firewall {
	s := newState(file)
	for _, c := range calls {
		s.call(c)
	}
	return s.result()
}

// state follows what a script does to the outbound filter, in order.
type state struct {
	file  string
	tools map[string]bool
	v4    *chains
	v6    *chains
	nft   *nftState
	ufw   *ufwState
	allow map[string]bool
	holes []model.Hole
	// ipv6Off is where the script turns IPv6 off.
	ipv6Off *model.Loc
	// exits are successful exits under a condition, before any deny.
	exits []model.Loc
	// filterCalls counts the packet-filter commands, sudoCalls those run
	// through sudo.
	filterCalls, sudoCalls int
	// reads are the files the script reads or sources (fileReaders).
	reads []model.Str
}

// fileReaders are the commands whose file arguments feed the script: what
// they print or define decides the rules it sets.
var fileReaders = map[string]bool{
	"cat": true, "head": true, "tail": true, "jq": true, "yq": true, "sort": true,
	"uniq": true, "source": true, ".": true, "cut": true,
}

func newState(file string) *state {
	return &state{file: file, tools: map[string]bool{}, v4: newChains(), v6: newChains(), nft: newNFT(), ufw: &ufwState{}, allow: map[string]bool{}}
}

func (s *state) loc(line int) model.Loc { return model.Loc{File: s.file, Line: line} }

func (s *state) call(c shell.Call) {
	args, sudo := shell.Unwrap(c.Args)
	if len(args) == 0 || !args[0].Known {
		return
	}
	name := path.Base(args[0].Text)
	rest := args[1:]
	if filterTool(name) {
		s.filterCalls++
		if sudo {
			s.sudoCalls++
		}
	}
	if fileReaders[name] {
		for _, a := range rest {
			if a.Known && (strings.HasPrefix(a.Text, "/") || strings.HasPrefix(a.Text, "~/")) && !strings.HasPrefix(a.Text, "/dev/null") && !strings.HasPrefix(a.Text, "/proc/") {
				s.reads = append(s.reads, model.Str{Value: a.Text, Loc: s.loc(c.Line)})
			}
		}
	}
	switch {
	case name == "exit":
		if c.Cond && !c.Sub && (len(rest) == 0 || rest[0].Text == "0") && !s.denied() {
			s.exits = append(s.exits, s.loc(c.Line))
		}
	case strings.HasPrefix(name, "iptables-restore"), strings.HasPrefix(name, "ip6tables-restore"):
		s.tools[strings.SplitN(name, "-restore", 2)[0]] = true
		if c.HasStdin {
			s.family(name).restore(c.Stdin, c, s, !hasFlag(rest, "-n", "--noflush"))
		}
	case strings.HasPrefix(name, "iptables"), strings.HasPrefix(name, "ip6tables"):
		if strings.Contains(name, "save") {
			return
		}
		tool := "iptables"
		if strings.HasPrefix(name, "ip6tables") {
			tool = "ip6tables"
		}
		s.tools[tool] = true
		s.family(name).command(rest, c, s)
	case name == "nft":
		s.tools["nft"] = true
		s.nft.command(rest, c, s)
	case name == "ipset":
		s.tools["ipset"] = true
		s.ipset(rest, c.Line)
	case name == "ufw":
		s.tools["ufw"] = true
		s.ufw.command(rest, c, s)
	case name == "sysctl":
		for _, a := range rest {
			if k, v, ok := strings.Cut(a.Text, "="); ok && strings.Contains(k, "ipv6") && strings.HasSuffix(k, "disable_ipv6") && strings.TrimSpace(v) == "1" && (strings.Contains(k, ".all.") || strings.Contains(k, ".default.")) {
				l := s.loc(c.Line)
				s.ipv6Off = &l
			}
		}
	case name == "dig" || name == "host" || name == "nslookup" || name == "getent" || name == "drill":
		for _, a := range rest {
			if a.Known && isDomain(a.Text) {
				s.allow[strings.ToLower(a.Text)] = true
			}
		}
	case name == "curl" || name == "wget":
		for _, a := range rest {
			if strings.Contains(a.Text, "api.github.com/meta") {
				s.allow["GitHub's published ranges (api.github.com/meta)"] = true
			}
			if name := sharedList(a.Text); name != "" {
				s.allow[name+"'s published ranges"] = true
				s.sharedHole(name+"'s published ranges (fetched from "+a.Text+")", c.Line)
			}
		}
	}
	for _, o := range c.Out {
		if strings.HasSuffix(o, "disable_ipv6") && (strings.Contains(o, "/all/") || strings.Contains(o, "/default/")) && name == "echo" && len(rest) > 0 && rest[len(rest)-1].Text == "1" {
			l := s.loc(c.Line)
			s.ipv6Off = &l
		}
		if strings.Contains(o, "dnsmasq") && c.HasStdin {
			s.dnsmasq(c.Stdin)
		}
	}
}

func (s *state) family(name string) *chains {
	if strings.HasPrefix(name, "ip6tables") {
		return s.v6
	}
	return s.v4
}

func hasFlag(args []shell.Arg, flags ...string) bool {
	for _, a := range args {
		for _, f := range flags {
			if a.Text == f {
				return true
			}
		}
	}
	return false
}

// ipset add NAME VALUE: literal members are named destinations.
func (s *state) ipset(args []shell.Arg, line int) {
	if len(args) >= 3 && (args[0].Text == "add" || args[0].Text == "-A") && args[2].Known {
		if v := args[2].Text; isCIDR(v) || isDomain(v) {
			s.allow[v] = true
			if name := sharedRange(v); name != "" {
				s.sharedHole(v+" ("+name+")", line)
			}
		}
	}
}

// sharedHole records an allowed range of a network anyone can serve from
// (sharedLists): a hole of kind shared.
func (s *state) sharedHole(what string, line int) {
	s.hole("shared", "allows "+what+": anyone can serve a site or a function from these addresses, so the agent reaches hosts the allowlist never named", line)
}

// dnsmasq reads ipset=/domain/…/set and nftset=/domain/… lines: dnsmasq
// adds the addresses those domains resolve to into the set.
func (s *state) dnsmasq(conf string) {
	for _, line := range strings.Split(conf, "\n") {
		line = strings.TrimSpace(line)
		k, v, ok := strings.Cut(line, "=")
		if !ok || (k != "ipset" && k != "nftset") {
			continue
		}
		parts := strings.Split(strings.Trim(v, "/"), "/")
		for _, d := range parts[:max(len(parts)-1, 0)] {
			if isDomain(d) {
				s.allow[strings.ToLower(d)] = true
			}
		}
	}
}

// denied reports whether any filter has denied by default so far.
func (s *state) denied() bool {
	return s.v4.deny() != nil || s.v6.deny() != nil || s.nft.deny(4) != nil || s.ufw.deny() != nil
}

func (s *state) hole(kind, text string, line int) {
	s.holes = append(s.holes, model.Hole{Kind: kind, Text: text, Loc: s.loc(line)})
}

func (s *state) result() *model.Firewall {
	if len(s.tools) == 0 {
		return nil
	}
	fw := &model.Firewall{Loc: s.loc(1), Allow: []string{}, Holes: []model.Hole{}, Sudo: s.filterCalls > 0 && s.sudoCalls == s.filterCalls}
	for t := range s.tools {
		fw.Tools = append(fw.Tools, t)
	}
	sort.Strings(fw.Tools)
	// Each filter's outbound verdict per address family: iptables and
	// ip6tables, nft tables of family ip/ip6/inet, ufw (both families).
	v4 := verdictOf(firstDecision(s.v4.verdict(), s.nft.verdict(4), s.ufw.verdict()), s.file)
	v6 := verdictOf(firstDecision(s.v6.verdict(), s.nft.verdict(6), s.ufw.verdict()), s.file)
	s.v4.finish(s, "")
	s.v6.finish(s, " (IPv6)")
	s.nft.finish(s)
	s.ufw.finish(s)
	switch {
	case v4 != nil:
		fw.Policy = v4
	case v6 != nil:
		fw.Policy = v6
	}
	switch {
	case v6 != nil && v6.Value == "deny":
		fw.IPv6 = "filtered"
	case s.ipv6Off != nil:
		fw.IPv6 = "disabled"
	case v4 != nil && v4.Value == "deny":
		fw.IPv6 = "open"
		s.hole("ipv6", "IPv6 is not filtered (only IPv4 rules deny by default): outbound IPv6 is open whenever the container has an IPv6 route", fw.Policy.Line)
	default:
		fw.IPv6 = "open"
	}
	if fw.Policy != nil && fw.Policy.Value == "deny" {
		for _, e := range s.exits {
			s.holes = append(s.holes, model.Hole{Kind: "fail-open", Text: "exits successfully under a condition before the default-deny is set, leaving egress open", Loc: e})
		}
		if d := s.conditionalDeny(); d != nil {
			s.holes = append(s.holes, model.Hole{Kind: "conditional", Text: "sets the default-deny only under a condition", Loc: *d})
		}
	}
	for a := range s.allow {
		fw.Allow = append(fw.Allow, a)
	}
	sort.Strings(fw.Allow)
	fw.Holes = dedupeHoles(s.holes)
	fw.Reads = s.reads
	return fw
}

// conditionalDeny is where the deny was set, when every command that
// denies by default runs only under a condition.
func (s *state) conditionalDeny() *model.Loc {
	for _, d := range []*decision{s.v4.deny(), s.nft.deny(4), s.ufw.deny()} {
		if d != nil {
			if !d.cond {
				return nil
			}
			l := s.loc(d.line)
			return &l
		}
	}
	return nil
}

// firstDecision prefers, per family, a filter that denies by default over
// one that only accepts: a packet must pass every filter.
func firstDecision(ds ...*decision) *decision {
	var first *decision
	for _, d := range ds {
		if d == nil {
			continue
		}
		if d.deny {
			return d
		}
		if first == nil {
			first = d
		}
	}
	return first
}

func dedupeHoles(hs []model.Hole) []model.Hole {
	seen := map[string]bool{}
	out := []model.Hole{}
	for _, h := range hs {
		k := h.Kind + "\x00" + h.Text
		if seen[k] {
			continue
		}
		seen[k] = true
		out = append(out, h)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Line < out[j].Line })
	return out
}

// decision is a command that set the outbound default.
type decision struct {
	deny bool
	line int
	cond bool
}

func verdictOf(d *decision, file string) *model.Str {
	if d == nil {
		return nil
	}
	v := "accept"
	if d.deny {
		v = "deny"
	}
	return &model.Str{Value: v, Loc: model.Loc{File: file, Line: d.line}}
}

// filterTool reports a command that programs the packet filter.
func filterTool(name string) bool {
	for _, p := range []string{"iptables", "ip6tables", "nft", "ipset", "ufw"} {
		if name == p || strings.HasPrefix(name, p+"-") {
			return !strings.Contains(name, "save")
		}
	}
	return false
}

// startsContainers: the script's text names a container engine's run
// subcommand (docker run, podman container run).
func startsContainers(data []byte) bool {
	for e := range engines {
		if i := bytes.Index(data, []byte(e+" ")); i >= 0 && bytes.Contains(data[i:], []byte("run")) {
			return true
		}
	}
	return false
}
