package shell

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// call is a compact view of a Call for table tests: the words joined by
// spaces, "?" marking an unknown word, and flags.
type call struct {
	Text string
	Line int
	Cond bool
	Sub  bool
}

func view(cs []Call) []call {
	out := []call{}
	for _, c := range cs {
		var ws []string
		for _, a := range c.Args {
			t := a.Text
			if !a.Known {
				t = "?" + t
			}
			ws = append(ws, t)
		}
		out = append(out, call{Text: strings.Join(ws, " "), Line: c.Line, Cond: c.Cond, Sub: c.Sub})
	}
	return out
}

func TestCalls(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want []call
	}{
		{
			name: "variables and arrays resolve",
			src:  "SET=allowed\ndeclare -a D=(\"a.example\" 'b.example')\nipset create \"$SET\" hash:net\nfor d in \"${D[@]}\"; do dig +short \"$d\"; done\n",
			want: []call{
				{Text: "ipset create allowed hash:net", Line: 3},
				{Text: "dig +short a.example", Line: 4},
				{Text: "dig +short b.example", Line: 4},
			},
		},
		{
			name: "unknown values stay as written",
			src:  "HOST=$(ip route | grep default)\niptables -A OUTPUT -d \"$HOST\" -j ACCEPT\niptables -A OUTPUT -d \"$NOPE\" -j ACCEPT\n",
			want: []call{
				{Text: "ip route", Line: 1, Sub: true},
				{Text: "grep default", Line: 1, Sub: true},
				{Text: "iptables -A OUTPUT -d ?$HOST -j ACCEPT", Line: 2},
				{Text: "iptables -A OUTPUT -d ?$NOPE -j ACCEPT", Line: 3},
			},
		},
		{
			name: "conditions and an exit that ends the script",
			src:  "if ! command -v iptables; then\n  exit 0\nfi\n[ -n \"$X\" ] && iptables -P OUTPUT DROP\nexit 1\niptables -P OUTPUT ACCEPT\n",
			want: []call{
				{Text: "command -v iptables", Line: 1, Cond: true},
				{Text: "exit 0", Line: 2, Cond: true},
				{Text: "[ -n ?$X ]", Line: 4},
				{Text: "iptables -P OUTPUT DROP", Line: 4, Cond: true},
				{Text: "exit 1", Line: 5},
			},
		},
		{
			name: "functions are inlined with their arguments",
			src:  "rule() { sudo iptables \"$@\"; }\nrule -A OUTPUT -p tcp --dport 22 -j ACCEPT\n",
			want: []call{
				{Text: "rule -A OUTPUT -p tcp --dport 22 -j ACCEPT", Line: 2},
				{Text: "sudo iptables -A OUTPUT -p tcp --dport 22 -j ACCEPT", Line: 2},
			},
		},
		{
			name: "bash -c with a literal script is read",
			src:  "bash -c 'sudo /usr/local/bin/fw.sh && echo done'",
			want: []call{
				{Text: "bash -c sudo /usr/local/bin/fw.sh && echo done", Line: 1},
				{Text: "sudo /usr/local/bin/fw.sh", Line: 1, Sub: true},
				{Text: "echo done", Line: 1, Cond: true, Sub: true},
			},
		},
		{
			name: "arrays appended to, with unknown elements kept as written, and $(pwd)",
			src:  "A=(--rm)\nA+=(-v \"$HOME/.x:/x\")\nA+=(-w \"$(pwd)\")\ndocker run \"${A[@]}\" img\n",
			want: []call{
				{Text: "pwd", Line: 3, Sub: true},
				{Text: "docker run ?--rm ?-v ?$HOME/.x:/x ?-w ?$PWD img", Line: 4},
			},
		},
		{
			name: "indirect expansion names the variable the loop gives",
			src:  "for v in AWS_KEY; do echo \"$v=${!v}\"; done\necho ${!nope}\n",
			want: []call{
				{Text: "echo ?AWS_KEY=$AWS_KEY", Line: 1},
				{Text: "echo ?${!nope}", Line: 2},
			},
		},
		{
			name: "escapes and defaults",
			src:  "P=${PORT:-22}\nfind . -exec rm {} \\;\necho \"a\\$b\" ${P}\n",
			want: []call{
				{Text: "find . -exec rm {} ;", Line: 2},
				{Text: "echo a$b 22", Line: 3},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Calls([]byte(tt.src), 1)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, view(got)); diff != "" {
				t.Errorf("calls (-want +got):\n%s", diff)
			}
		})
	}
}

func TestHeredocAndRedirects(t *testing.T) {
	src := "D=conf\ncat > /etc/dnsmasq.d/$D <<EOF\nipset=/example.org/allowed\nEOF\necho 1 > /proc/sys/net/ipv6/conf/all/disable_ipv6\n"
	got, err := Calls([]byte(src), 1)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 {
		t.Fatalf("got %d calls, want 2: %+v", len(got), got)
	}
	if !got[0].HasStdin || got[0].Stdin != "ipset=/example.org/allowed\n" {
		t.Errorf("heredoc = %q", got[0].Stdin)
	}
	if diff := cmp.Diff([]string{"/etc/dnsmasq.d/conf"}, got[0].Out); diff != "" {
		t.Errorf("out (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"/proc/sys/net/ipv6/conf/all/disable_ipv6"}, got[1].Out); diff != "" {
		t.Errorf("out (-want +got):\n%s", diff)
	}
}

func TestParseErrorLine(t *testing.T) {
	_, err := Calls([]byte("echo ok\nif then\n"), 10)
	var le *LineError
	if !errors.As(err, &le) || le.Line != 11 {
		t.Fatalf("err = %v, want a LineError at line 11", err)
	}
}

func TestUnwrap(t *testing.T) {
	tests := []struct {
		in   string
		want string
		sudo bool
	}{
		{"sudo -E -u root iptables -L", "iptables -L", true},
		{"sudo FIREWALL_MODE=strict BOOT_ID=x /usr/local/bin/fw.sh", "/usr/local/bin/fw.sh", true},
		{"env A=1 B=2 nft list ruleset", "nft list ruleset", false},
		{"timeout 30 nice -n 5 ./fw.sh", "./fw.sh", false},
		{"xargs -L 1 iptables -t nat", "iptables -t nat", false},
		{"iptables -F", "iptables -F", false},
		{"command -v iptables", "", false},
	}
	for _, tt := range tests {
		var args []Arg
		for _, f := range strings.Fields(tt.in) {
			args = append(args, Arg{Text: f, Known: true})
		}
		rest, sudo := Unwrap(args)
		got := strings.Join(Call{Args: rest}.Texts(), " ")
		if got != tt.want || sudo != tt.sudo {
			t.Errorf("Unwrap(%q) = %q, %v; want %q, %v", tt.in, got, sudo, tt.want, tt.sudo)
		}
	}
}

func TestLimits(t *testing.T) {
	// A function that calls itself must not recurse without end.
	src := "f() { f; f; echo x; }\nf\n"
	got, err := Calls([]byte(src), 1)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) == 0 || len(got) > maxCalls {
		t.Fatalf("got %d calls", len(got))
	}
}
