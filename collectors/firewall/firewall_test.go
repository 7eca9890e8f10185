package firewall

import (
	"context"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/sandbox-audit/sandbox-audit/collectors"
	"github.com/sandbox-audit/sandbox-audit/model"
)

const file = ".devcontainer/fw.sh"

func hole(kind, text string, line int) model.Hole {
	return model.Hole{Kind: kind, Text: text, Loc: model.Loc{File: file, Line: line}}
}

func policy(v string, line int) *model.Str {
	return &model.Str{Value: v, Loc: model.Loc{File: file, Line: line}}
}

// firewall builds the expected result for the script at file.
func firewall(tools []string, pol *model.Str, ipv6 string, allow []string, holes ...model.Hole) *model.Firewall {
	if allow == nil {
		allow = []string{}
	}
	if holes == nil {
		holes = []model.Hole{}
	}
	return &model.Firewall{Loc: model.Loc{File: file, Line: 1}, Tools: tools, Policy: pol, IPv6: ipv6, Allow: allow, Holes: holes}
}

func analyze(t *testing.T, src string) *model.Firewall {
	t.Helper()
	var doc model.Document
	if err := New().Collect(context.Background(), file, []byte(src), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Firewalls) == 0 {
		return nil
	}
	return &doc.Firewalls[0]
}

func TestAnalyze(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want *model.Firewall
	}{{
		name: "allowlist with any-host DNS and SSH, IPv6 untouched",
		src: `#!/bin/bash
set -euo pipefail
ALLOWED=(pkg.example.org api.example.com)
iptables -F
iptables -A OUTPUT -o lo -j ACCEPT
iptables -A OUTPUT -p udp --dport 53 -j ACCEPT
iptables -A OUTPUT -p tcp --dport 22 -j ACCEPT
ipset create allow hash:net
for d in "${ALLOWED[@]}"; do
  for ip in $(dig +short "$d"); do ipset add allow "$ip"; done
done
GW=$(ip route | awk '/default/ {print $3}')
iptables -A OUTPUT -d "$GW" -j ACCEPT
iptables -P OUTPUT DROP
iptables -A OUTPUT -m state --state ESTABLISHED,RELATED -j ACCEPT
iptables -A OUTPUT -m set --match-set allow dst -j ACCEPT
iptables -A OUTPUT -j REJECT
iptables -A OUTPUT -p tcp --dport 443 -j ACCEPT
`,
		want: firewall([]string{"ipset", "iptables"}, policy("deny", 14), "open",
			[]string{"$GW", "api.example.com", "ipset allow", "pkg.example.org"},
			hole("dns", "udp/53 to any host", 6),
			hole("any-host", "tcp/22 to any host", 7),
			hole("ipv6", "IPv6 is not filtered (only IPv4 rules deny by default): outbound IPv6 is open whenever the container has an IPv6 route", 14),
		),
	}, {
		name: "policy left at ACCEPT after an unconditional exit skips the deny",
		src: `iptables -F
iptables -A OUTPUT -p tcp --dport 22 -j ACCEPT
iptables -P OUTPUT ACCEPT
exit 0
iptables -P OUTPUT DROP
`,
		want: firewall([]string{"iptables"}, policy("accept", 3), "open", nil),
	}, {
		name: "ip6tables too, and a catch-all accept makes it allow everything",
		src: `ip6tables -P OUTPUT DROP
iptables -P OUTPUT DROP
iptables -I OUTPUT -j ACCEPT
`,
		want: firewall([]string{"ip6tables", "iptables"}, policy("deny", 2), "filtered", nil,
			hole("any-host", "all traffic to any host", 3),
		),
	}, {
		name: "wrapper function, fail-open exit, IPv6 disabled",
		src: `rule() { sudo iptables "$@"; }
if ! command -v iptables >/dev/null; then
  echo "no iptables, skipping"
  exit 0
fi
sysctl -w net.ipv6.conf.all.disable_ipv6=1
rule -A OUTPUT -d 10.1.2.3/32 -p tcp --dport 3128 -j ACCEPT
rule -P OUTPUT DROP
`,
		want: func() *model.Firewall {
			fw := firewall([]string{"iptables"}, policy("deny", 8), "disabled", []string{"10.1.2.3/32 tcp/3128"},
				hole("fail-open", "exits successfully under a condition before the default-deny is set, leaving egress open", 4),
			)
			fw.Sudo = true // every rule goes through sudo
			return fw
		}(),
	}, {
		name: "default-deny only under a condition",
		src: `iptables -A OUTPUT -d 192.0.2.10 -j ACCEPT
if [ "${MODE:-audit}" = enforce ]; then
  iptables -P OUTPUT DROP
fi
ip6tables -P OUTPUT DROP
`,
		want: firewall([]string{"ip6tables", "iptables"}, policy("deny", 3), "filtered", []string{"192.0.2.10"},
			hole("conditional", "sets the default-deny only under a condition", 3),
		),
	}, {
		name: "nft ruleset from a here-document, inet family",
		src: `nft -f - <<'EOF'
flush ruleset
table inet sandbox {
  set allowed { type ipv4_addr; elements = { 192.0.2.1 } }
  chain out {
    type filter hook output priority 0; policy drop;
    oifname "lo" accept
    ct state established,related accept
    udp dport 53 accept
    tcp dport { 80, 443 } accept
    ip daddr @allowed accept
  }
}
EOF
`,
		want: firewall([]string{"nft"}, policy("deny", 1), "filtered", []string{"ipset allowed"},
			hole("dns", "udp/53 to any host", 1),
			hole("any-host", "tcp/443,80 to any host", 1),
		),
	}, {
		name: "nft commands one by one, ip family only",
		src: `nft add table ip fw
nft add chain ip fw out '{ type filter hook output priority 0 ; policy drop ; }'
nft add rule ip fw out ip daddr 198.51.100.0/24 accept
`,
		want: firewall([]string{"nft"}, policy("deny", 2), "open", []string{"198.51.100.0/24"},
			hole("ipv6", "IPv6 is not filtered (only IPv4 rules deny by default): outbound IPv6 is open whenever the container has an IPv6 route", 2),
		),
	}, {
		name: "ufw default deny outgoing, enabled",
		src: `ufw default deny outgoing
ufw allow out 53
ufw allow out to 203.0.113.5 port 443 proto tcp
ufw --force enable
`,
		want: firewall([]string{"ufw"}, policy("deny", 1), "filtered", []string{"203.0.113.5 tcp/443"},
			hole("dns", "port 53 to any host", 2),
		),
	}, {
		name: "iptables-restore document",
		src: `iptables-restore <<EOF
*filter
:INPUT ACCEPT [0:0]
:OUTPUT DROP [0:0]
-A OUTPUT -o lo -j ACCEPT
-A OUTPUT -p tcp -m tcp --dport 22 -j ACCEPT
COMMIT
EOF
`,
		want: firewall([]string{"iptables"}, policy("deny", 1), "open", nil,
			hole("any-host", "tcp/22 to any host", 1),
			hole("ipv6", "IPv6 is not filtered (only IPv4 rules deny by default): outbound IPv6 is open whenever the container has an IPv6 route", 1),
		),
	}, {
		name: "Cloudflare's ranges fetched or copied, GitHub's and a narrow prefix not",
		src: `ipset create allow hash:net
for r in $(curl -s https://www.cloudflare.com/ips-v4); do ipset add allow "$r"; done
curl -s https://api.github.com/meta | jq -r '.git[]' | while read -r r; do ipset add allow "$r"; done
ipset add allow 104.16.0.0/13
ipset add allow 104.16.1.7
iptables -A OUTPUT -d 172.64.0.0/16 -j ACCEPT
iptables -A OUTPUT -d 198.51.100.0/24 -j ACCEPT
iptables -A OUTPUT -m set --match-set allow dst -j ACCEPT
iptables -P OUTPUT DROP
ip6tables -P OUTPUT DROP
`,
		want: firewall([]string{"ip6tables", "ipset", "iptables"}, policy("deny", 9), "filtered",
			[]string{"104.16.0.0/13", "104.16.1.7", "172.64.0.0/16", "198.51.100.0/24", "Cloudflare's published ranges", "GitHub's published ranges (api.github.com/meta)", "ipset allow"},
			hole("shared", "allows Cloudflare's published ranges (fetched from https://www.cloudflare.com/ips-v4): anyone can serve a site or a function from these addresses, so the agent reaches hosts the allowlist never named", 2),
			hole("shared", "allows 104.16.0.0/13 (Cloudflare): anyone can serve a site or a function from these addresses, so the agent reaches hosts the allowlist never named", 4),
			hole("shared", "allows 172.64.0.0/16 (Cloudflare): anyone can serve a site or a function from these addresses, so the agent reaches hosts the allowlist never named", 6),
		),
	}, {
		name: "hosts read from files: a temporary file and a config beside the script",
		src: `EXTRA=$(cat /tmp/.extra-domains 2>/dev/null || true)
source /etc/fw/defaults.sh
jq -r '.hosts[]' ~/.config/fw.json
cat "$CONF"
iptables -P OUTPUT DROP
ip6tables -P OUTPUT DROP
`,
		want: func() *model.Firewall {
			fw := firewall([]string{"ip6tables", "iptables"}, policy("deny", 5), "filtered", nil)
			fw.Reads = []model.Str{
				{Value: "/tmp/.extra-domains", Loc: model.Loc{File: file, Line: 1}},
				{Value: "/etc/fw/defaults.sh", Loc: model.Loc{File: file, Line: 2}},
				{Value: "~/.config/fw.json", Loc: model.Loc{File: file, Line: 3}},
			}
			return fw
		}(),
	}, {
		name: "a script without packet-filter commands is not a firewall",
		src:  "#!/bin/sh\nnpm ci\niptables-save > /tmp/rules\n",
		want: nil,
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := analyze(t, tt.src)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestMatch(t *testing.T) {
	for p, want := range map[string]bool{
		".devcontainer/init-firewall.sh":    true,
		"scripts/build.sh":                  true,
		"run.BASH":                          true,
		".devcontainer/devcontainer.json":   false,
		".devcontainer/init-firewall.sh.md": false,
		"Makefile":                          false,
		"bin/claude-sandbox":                true,
		"scripts/claude_up":                 true,
		"run":                               true,
		"tools/codex-box":                   true,
		"LICENSE":                           false,
		"docs/notes":                        false,
	} {
		if got := New().Match(p); got != want {
			t.Errorf("Match(%q) = %v, want %v", p, got, want)
		}
	}
	// The scripts whose agents run in the sandbox.
	for p, want := range map[string]bool{
		".devcontainer/init-firewall.sh": true,
		".devcontainer/setup.sh":         true,
		"app/.devcontainer/x/post.bash":  true,
		"scripts/setup-firewall.sh":      true,
		"docker/egress.sh":               true,
		"scripts/build.sh":               false,
	} {
		if got := devcontainerScript(p); got != want {
			t.Errorf("devcontainerScript(%q) = %v, want %v", p, got, want)
		}
	}
}

func TestMalformed(t *testing.T) {
	var doc model.Document
	err := New().Collect(context.Background(), file, []byte("iptables -P OUTPUT DROP\nif then fi\n"), &doc)
	pe, ok := err.(*collectors.ParseError)
	if !ok || pe.Line != 2 {
		t.Fatalf("err = %v, want a ParseError at line 2", err)
	}
	if len(doc.Firewalls) != 0 {
		t.Errorf("a script that does not parse must add no firewall: %+v", doc.Firewalls)
	}
}

// A devcontainer's script that starts an agent with approval bypassed is an
// agents[] entry at the command; one that starts it with its defaults, or
// only mentions the flag, adds none.
func TestScriptAgents(t *testing.T) {
	src := `#!/bin/bash
set -e
while read -r prompt; do
  claude --dangerously-skip-permissions --print "$prompt"
done < tasks.txt
codex exec "fix it"
echo "use --dangerously-skip-permissions with care"
gemini --yolo -p "$1"
`
	var doc model.Document
	if err := New().Collect(context.Background(), ".devcontainer/agent-loop.sh", []byte(src), &doc); err != nil {
		t.Fatal(err)
	}
	wantAgents(t, doc,
		"claude-code --dangerously-skip-permissions 4 script .devcontainer/agent-loop.sh",
		"gemini --yolo 8 script .devcontainer/agent-loop.sh",
	)
}

// wantAgents checks doc's agents: tool, flag, line and context each.
func wantAgents(t *testing.T, doc model.Document, want ...string) {
	t.Helper()
	var got []string
	for _, a := range doc.Agents {
		got = append(got, fmt.Sprintf("%s %s %d %s", a.Tool, a.ApprovalRaw.Value, a.Line, a.Context))
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("agents (-want +got):\n%s", diff)
	}
}
