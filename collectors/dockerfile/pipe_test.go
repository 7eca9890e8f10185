package dockerfile

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestPipeToShell(t *testing.T) {
	tests := []struct {
		script string
		want   []string
	}{
		{"curl -fsSL https://a/b | sh", []string{"curl -fsSL https://a/b | sh"}},
		{"curl -s https://a | sudo -u root bash -s -- --yes", []string{"curl -s https://a | sudo -u root bash -s -- --yes"}},
		{"wget -O - https://a | tee /tmp/i.sh | /bin/bash", []string{"wget -O - https://a | tee /tmp/i.sh | /bin/bash"}},
		{"apt-get update && curl https://a |& env FOO=1 python3.12", []string{"curl https://a |& env FOO=1 python3.12"}},
		{"set -e; /usr/bin/curl -L x|perl", []string{"/usr/bin/curl -L x|perl"}},
		{`sh -c "$(wget -qO- https://a)"`, []string{`sh -c "$(wget -qO- https://a)"`}},
		{"bash -c \"`curl -s https://a`\"", []string{"bash -c \"`curl -s https://a`\""}},
		{"irm https://a/install.ps1 | iex", []string{"irm https://a/install.ps1 | iex"}},
		{"curl -o i.sh https://a && sh i.sh", nil},
		{"curl https://a | tar xz", nil},
		{"curl https://a || sh fallback.sh", nil},
		{`echo "curl x | sh"`, nil},
		{"cat x | sh", nil},
		{"curl https://a > /dev/null 2>&1 & sh -c true", nil},
		{"(curl https://a | sh)", []string{"(curl https://a | sh)"}},
		{"", nil},
		{"|||&&;;&|", nil},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, pipeToShell(tt.script)); diff != "" {
			t.Errorf("pipeToShell(%q) (-want +got):\n%s", tt.script, diff)
		}
	}
}

func TestSplitRef(t *testing.T) {
	const dg = "sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
	tests := []struct {
		ref    string
		tag    string
		pinned bool
	}{
		{"ubuntu", "", false},
		{"ubuntu:24.04", "24.04", false},
		{"localhost:5000/a/b", "", false},
		{"localhost:5000/a/b:1", "1", false},
		{"ubuntu@" + dg, "", true},
		{"ubuntu:24.04@" + dg, "24.04", true},
		{"ubuntu@sha256:XYZ", "", false},
		{"ubuntu@" + dg[:len(dg)-1] + "G", "", false},
	}
	for _, tt := range tests {
		tag, pinned := splitRef(tt.ref)
		if tag != tt.tag || pinned != tt.pinned {
			t.Errorf("splitRef(%q) = %q, %v; want %q, %v", tt.ref, tag, pinned, tt.tag, tt.pinned)
		}
	}
}
