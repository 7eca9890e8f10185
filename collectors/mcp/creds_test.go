package mcp

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/sandbox-audit/sandbox-audit/collectors/secrets"
	"github.com/sandbox-audit/sandbox-audit/model"
)

const ghp = "ghp_u8jzPde0IgxLd6GncfBAepfJBd0Kh8oOOL8d"

func TestClassify(t *testing.T) {
	tests := []struct {
		name, value string
		secret      bool
		from        string
	}{
		{"GITHUB_TOKEN", "${GITHUB_TOKEN}", false, "GITHUB_TOKEN"},
		{"GITHUB_TOKEN", "${env:GH_PAT}", false, "GH_PAT"},
		{"GITHUB_TOKEN", "${input:github-token}", false, "input:github-token"},
		{"GITHUB_TOKEN", "$GH_TOKEN", false, ""}, // not expanded, not a secret either
		{"GITHUB_TOKEN", "${GH_TOKEN:-}", false, "GH_TOKEN"},
		{"GITHUB_TOKEN", "${GH_TOKEN:-" + ghp + "}", true, ""},
		{"GITHUB_TOKEN", ghp, true, ""},
		{"API_KEY", "Zq8xW3vN6mK1pL4tR7", true, ""},
		{"API_KEY", "changeme", false, ""},
		{"LOG_LEVEL", "Zq8xW3vN6mK1pL4tR7", false, ""},
		{"URL", "https://${HOST}/api", false, "HOST"},
	}
	for _, tt := range tests {
		r, from := classify(tt.name, tt.value)
		if (r != nil) != tt.secret || from != tt.from {
			t.Errorf("classify(%s, %q) = %v, %q; want secret %v, from %q", tt.name, tt.value, r, from, tt.secret, tt.from)
		}
	}
}

func TestHeaderSecret(t *testing.T) {
	tests := []struct {
		name, value string
		kind        string // "" = none
	}{
		{"Authorization", "Bearer " + ghp, "github-pat-classic"},
		{"Authorization", "Bearer abc123", "bearer-token"},
		{"Authorization", "abc123", "bearer-token"},
		{"Authorization", "Bearer ${input:token}", ""},
		{"Authorization", "Bearer ${TOKEN:-}", ""},
		{"Authorization", "", ""},
		{"X-API-Key", "Zq8xW3vN6mK1pL4tR7", "generic-secret"},
		{"X-API-Key", "${API_KEY}", ""},
		{"Accept", "application/json", ""},
	}
	for _, tt := range tests {
		got := ""
		if r := headerSecret(tt.name, tt.value); r != nil {
			got = r.Kind
		}
		if got != tt.kind {
			t.Errorf("headerSecret(%s, %q) kind = %q, want %q", tt.name, tt.value, got, tt.kind)
		}
	}
}

func TestURLs(t *testing.T) {
	tests := []struct {
		url, want string
		plain     bool
		creds     int
	}{
		{"http://localhost:3000/mcp", "http://localhost:3000/mcp", false, 0},
		{"http://127.0.0.1:8080/sse", "http://127.0.0.1:8080/sse", false, 0},
		{"http://[::1]:8080/sse", "http://[::1]:8080/sse", false, 0},
		{"http://0.0.0.0:8080/sse", "http://0.0.0.0:8080/sse", false, 0},
		{"http://mcp.internal:8080/sse", "http://mcp.internal:8080/sse", true, 0},
		{"https://" + ghp + "@api.example.com/mcp", "https://" + marker(secrets.Detect(ghp)) + "@api.example.com/mcp", false, 1},
		{"https://api.example.com/mcp?token=${input:tok}&v=2", "https://api.example.com/mcp?token=${input:tok}&v=2", false, 0},
		{"https://api.example.com/mcp?access_token=Zq8xW3vN6mK1pL4tR7#frag", "https://api.example.com/mcp?access_token=" +
			marker(secrets.DetectNamed("access_token", "Zq8xW3vN6mK1pL4tR7")) + "#frag", false, 1},
		{"http://${MCP_HOST}/mcp", "http://${MCP_HOST}/mcp", false, 0},
	}
	for _, tt := range tests {
		t.Run(tt.url, func(t *testing.T) {
			in := `{"mcpServers": {"s": {"url": "` + tt.url + `"}}}`
			doc := &model.Document{}
			if err := (Collector{}).Collect(context.Background(), ".mcp.json", []byte(in), doc); err != nil {
				t.Fatal(err)
			}
			s := doc.MCPServers[0]
			got := []any{s.URL, s.PlainHTTP, len(doc.Credentials), s.Transport}
			if diff := cmp.Diff([]any{tt.want, tt.plain, tt.creds, "http"}, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// marker is how secrets.Redact names a hidden secret.
func marker(r *model.SecretRef) string {
	return "[REDACTED:" + r.Kind + ":" + r.Fingerprint + "]"
}

// TestBridgeArgsPlainHTTP: a local bridge to a remote server named in its
// arguments (mcp-remote URL, --server URL, --url=URL) is plain HTTP as a url
// would be; loopback and https are not.
func TestBridgeArgsPlainHTTP(t *testing.T) {
	for args, want := range map[string]bool{
		`["mcp-remote", "http://mcp.example.com/sse"]`:       true,
		`["server.py", "--server", "http://10.0.0.5:5000/"]`: true,
		`["server.py", "--url=http://kali.lan:5000"]`:        true,
		`["mcp-remote", "https://mcp.example.com/sse"]`:      false,
		`["server.py", "--server", "http://127.0.0.1:5000"]`: false,
		`["server.py", "--server", "http://${HOST}:5000"]`:   false,
		`["server.py", "--verbose"]`:                         false,
		`["server.py", "--proxy=http://corp:3128"]`:          false,
		`["server.py", "--https-proxy", "http://corp:3128"]`: false,
	} {
		in := `{"mcpServers": {"s": {"command": "npx", "args": ` + args + `}}}`
		doc := &model.Document{}
		if err := (Collector{}).Collect(context.Background(), ".mcp.json", []byte(in), doc); err != nil {
			t.Fatal(err)
		}
		if got := doc.MCPServers[0].PlainHTTP; got != want {
			t.Errorf("%s: plain_http %v, want %v", args, got, want)
		}
	}
}
