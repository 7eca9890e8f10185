package baseimage

import (
	"testing"

	"github.com/sandbox-audit/sandbox-audit/model"
)

func TestDevcontainerUser(t *testing.T) {
	for ref, want := range map[string]string{
		"mcr.microsoft.com/devcontainers/base:ubuntu":                 "vscode",
		"mcr.microsoft.com/devcontainers/typescript-node:22-bookworm": "node",
		"mcr.microsoft.com/devcontainers/universal:2":                 "codespace",
		"mcr.microsoft.com/vscode/devcontainers/python:3.11":          "vscode",
		"MCR.microsoft.com/devcontainers/base@sha256:abc":             "vscode",
		"node:22":                             "",
		"ghcr.io/devcontainers/features/node": "",
		"mcr.microsoft.com/devcontainers/":    "",
	} {
		got, ok := DevcontainerUser(ref)
		if got != want || ok != (want != "") {
			t.Errorf("DevcontainerUser(%q) = %q, %v; want %q", ref, got, ok, want)
		}
	}
}

func TestSudo(t *testing.T) {
	loc := model.Loc{File: "Dockerfile", Line: 1}
	if g := Sudo("mcr.microsoft.com/devcontainers/base:ubuntu", "vscode", loc); g == nil || !g.NoPasswd || g.Commands[0] != "ALL" || g.Loc != loc {
		t.Errorf("grant for vscode = %+v", g)
	}
	if g := Sudo("mcr.microsoft.com/devcontainers/base:ubuntu", "root", loc); g != nil {
		t.Errorf("another user gets no grant: %+v", g)
	}
	if g := Sudo("debian:12", "vscode", loc); g != nil {
		t.Errorf("an image outside the family gives none: %+v", g)
	}
}
