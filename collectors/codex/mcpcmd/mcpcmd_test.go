package mcpcmd

import (
	"testing"

	"github.com/sandbox-audit/sandbox-audit/model"
)

const fakePAT = "ghp_OhbVrpoiVgRV5IfLBcbfnoGMbJmTPSIAoCLr"

func TestPlainHTTP(t *testing.T) {
	for raw, want := range map[string]bool{
		"http://mcp.example.com/x": true, "http://10.0.0.5:8080": true, "https://mcp.example.com": false,
		"http://localhost:3000": false, "http://127.0.0.1/x": false, "http://[::1]:80": false, "stdio": false,
	} {
		if got := PlainHTTP(raw); got != want {
			t.Errorf("PlainHTTP(%q) = %v, want %v", raw, got, want)
		}
	}
}

func TestEnvVar(t *testing.T) {
	loc := model.Loc{File: "f", Line: 3}
	if ev := EnvVar("GITHUB_TOKEN", "${GH_TOKEN}", loc); ev.FromHost != "GH_TOKEN" || ev.Secret != nil || !ev.SensitiveName {
		t.Errorf("reference: %+v", ev)
	}
	if ev := EnvVar("GITHUB_TOKEN", fakePAT, loc); ev.Secret == nil || ev.FromHost != "" {
		t.Errorf("literal: %+v", ev)
	}
	if ev := EnvVar("LOG_LEVEL", "debug", loc); ev.Secret != nil || ev.SensitiveName {
		t.Errorf("plain: %+v", ev)
	}
}

func TestHeader(t *testing.T) {
	loc := model.Loc{File: "config.toml", Line: 3}
	tests := []struct {
		name, value string
		kind, from  string
	}{
		{"Authorization", "Bearer abcdef123456opaque", "bearer-token", ""},
		{"Authorization", "Bearer ${GITHUB_TOKEN}", "", "GITHUB_TOKEN"},
		{"Authorization", "Bearer $TOKEN", "", "TOKEN"},
		{"Authorization", "${env:AUTH}", "", "AUTH"},
		{"X-Api-Key", "${KEY}", "", "KEY"},
		{"Accept", "application/json", "", ""},
	}
	for _, tt := range tests {
		h := Header(tt.name, tt.value, loc)
		kind := ""
		if h.Secret != nil {
			kind = h.Secret.Kind
		}
		if kind != tt.kind || h.FromHost != tt.from || h.Name != tt.name || h.Loc != loc {
			t.Errorf("Header(%s, %q) = kind %q from %q, want %q %q", tt.name, tt.value, kind, h.FromHost, tt.kind, tt.from)
		}
	}
}
