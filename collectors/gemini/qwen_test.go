package gemini

import (
	"context"
	"os"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/sandbox-audit/sandbox-audit/model"
)

func TestQwenMatch(t *testing.T) {
	c := New()
	for p, want := range map[string][2]string{
		".qwen/settings.json":          {"qwen", "project"},
		"home/dev/.qwen/settings.json": {"qwen", "user"},
		"etc/qwen-code/settings.json":  {"qwen", "managed"},
		".gemini/settings.json":        {"gemini", "project"},
		"etc/gemini-cli/settings.json": {"gemini", "managed"},
	} {
		if !c.Match(p) {
			t.Errorf("Match(%q) = false", p)
		}
		if got := [2]string{tool(p), scope(p)}; got != want {
			t.Errorf("%q: tool, scope = %v, want %v", p, got, want)
		}
	}
	if c.Match(".qwen/settings.local.json") || c.Match("qwen/settings.json") {
		t.Error("matched a file Qwen Code does not read")
	}
}

func TestQwenFixtures(t *testing.T) {
	doc := collectFile(t, "fixtures/qwen/insecure/.qwen/settings.json")
	p := "fixtures/qwen/insecure/.qwen/settings.json"
	at := func(l int) model.Loc { return model.Loc{File: p, Line: l} }
	a := doc.Agents[0]
	if a.Tool != "qwen" || a.ApprovalMode == nil || a.ApprovalMode.Value != "bypass" || a.ApprovalRaw.Value != "yolo" || a.ApprovalMode.Loc != at(2) {
		t.Errorf("agent = %+v", a)
	}
	if diff := cmp.Diff([]model.Str{{Value: "Bash(git push *)", Loc: at(4)}, {Value: "Bash(curl *)", Loc: at(4)}, {Value: "Bash(python3 *)", Loc: at(4)}}, a.Allow); diff != "" {
		t.Errorf("allow (-want +got):\n%s", diff)
	}
	if len(doc.Credentials) != 1 || doc.Credentials[0].Context != "qwen settings env OPENAI_API_KEY" || doc.Credentials[0].Loc != at(6) {
		t.Errorf("credentials = %+v", doc.Credentials)
	}
	if len(doc.MCPServers) != 1 || doc.MCPServers[0].Config != "qwen" {
		t.Errorf("servers = %+v", doc.MCPServers)
	}

	doc = collectFile(t, "fixtures/qwen/hardened/.qwen/settings.json")
	a = doc.Agents[0]
	if a.ApprovalMode == nil || a.ApprovalMode.Value != "default" || a.SandboxEnabled == nil || !a.SandboxEnabled.Value {
		t.Errorf("hardened agent = %+v", a)
	}
	if len(a.Deny) != 1 || a.Deny[0].Value != "Bash(git push *)" || len(doc.Credentials) != 0 {
		t.Errorf("hardened deny %+v, credentials %+v", a.Deny, doc.Credentials)
	}
	for _, e := range a.Env {
		if e.Secret != nil {
			t.Errorf("env %+v taken for a secret", e)
		}
	}
}

// Gemini CLI's own settings keep their keys: tools.approvalMode and
// permissions are Qwen Code's, not Gemini CLI's.
func TestGeminiIgnoresQwenKeys(t *testing.T) {
	doc := collectSource(t, ".gemini/settings.json", `{"tools": {"approvalMode": "yolo"}, "permissions": {"allow": ["Bash(git push *)"]}}`)
	a := doc.Agents[0]
	if a.ApprovalMode != nil || len(a.Allow) != 0 {
		t.Errorf("gemini agent read qwen keys: %+v", a)
	}
}

func collectFile(t *testing.T, p string) model.Document {
	t.Helper()
	data, err := os.ReadFile("../../" + p)
	if err != nil {
		t.Fatal(err)
	}
	return collectSource(t, p, string(data))
}

func collectSource(t *testing.T, p, src string) model.Document {
	t.Helper()
	var doc model.Document
	if err := New().Collect(context.Background(), p, []byte(src), &doc); err != nil {
		t.Fatalf("Collect(%s) = %v", p, err)
	}
	return doc
}
