package dockerfile

import (
	"context"
	"os"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/sandbox-audit/sandbox-audit/collectors/secrets"
	"github.com/sandbox-audit/sandbox-audit/model"
)

const fakePAT = "ghp_bBRsk29cztUX1kmObfEjdpyHGfY5PBNaNKNY"

// pat is what the secrets package says of the fixture token: expectations
// follow the detector's naming, and fail loudly if it stops recognising it.
func pat() *model.SecretRef {
	r := secrets.Detect(fakePAT)
	if r == nil {
		panic("secrets.Detect does not recognise the fixtures' token")
	}
	return r
}

func loc(file string, line int) model.Loc { return model.Loc{File: file, Line: line} }

func str(v, file string, line int) model.Str { return model.Str{Value: v, Loc: loc(file, line)} }

func collect(t *testing.T, path string, data []byte) *model.Document {
	t.Helper()
	doc := &model.Document{}
	if err := New().Collect(context.Background(), path, data, doc); err != nil {
		t.Fatalf("Collect(%s): %v", path, err)
	}
	return doc
}

func TestMatch(t *testing.T) {
	tests := map[string]bool{
		"Dockerfile":                              true,
		"build/Containerfile":                     true,
		"dockerfile":                              true,
		"images/agent.Dockerfile":                 true,
		"agent.dockerfile":                        true,
		"Dockerfile.dev":                          true,
		"deploy/Containerfile.sandbox":            true,
		"Dockerfile.dockerignore":                 false,
		"docs/Dockerfile.md":                      false,
		"Dockerfiles/readme":                      false,
		".dockerfile":                             false,
		"Dockerfile.":                             false,
		"docker-compose.yml":                      false,
		".devcontainer/devcontainer.json":         false,
		"fixtures/dockerfile/insecure/Dock":       false,
		"fixtures/dockerfile/hardened/Dockerfile": true,
	}
	for p, want := range tests {
		if got := New().Match(p); got != want {
			t.Errorf("Match(%q) = %v, want %v", p, got, want)
		}
	}
}

func TestCollectFixtures(t *testing.T) {
	const insecure, hardened = "fixtures/dockerfile/insecure/Dockerfile", "fixtures/dockerfile/hardened/Dockerfile"
	tests := []struct {
		path      string
		wantImage model.Image
		wantCreds []model.Credential
	}{{
		path: insecure,
		wantImage: model.Image{
			Loc:        loc(insecure, 2),
			BaseImages: []model.BaseImage{{Ref: "ubuntu:latest", Tag: "latest", Loc: loc(insecure, 2)}},
			Env: []model.EnvVar{
				{Name: "NPM_REGISTRY", Loc: loc(insecure, 4)},
				{Name: "GITHUB_TOKEN", SensitiveName: true, Secret: pat(), Loc: loc(insecure, 6)},
				{Name: "DEBIAN_FRONTEND", Loc: loc(insecure, 7)},
			},
			PipeToShell: []model.Str{
				str("curl -fsSL https://deb.nodesource.com/setup_20.x | sudo -E bash -", insecure, 10),
				str(`sh -c "$(curl -fsSL https://raw.githubusercontent.com/ohmyzsh/ohmyzsh/master/tools/install.sh)"`, insecure, 12),
			},
			AddURLs: []model.Str{str("https://github.com/cli/cli/releases/download/v2.50.0/gh_2.50.0_linux_amd64.tar.gz", insecure, 13)},
		},
		wantCreds: []model.Credential{{SecretRef: *pat(), Where: "env", Context: "Dockerfile ENV GITHUB_TOKEN", ReadableByAgent: true, Loc: loc(insecure, 6)}},
	}, {
		path: hardened,
		wantImage: model.Image{
			Loc: loc(hardened, 5),
			BaseImages: []model.BaseImage{
				{Ref: "node:20.15.1-bookworm-slim@sha256:6d1a3c2b0e9f8a7d6c5b4a39281706f5e4d3c2b1a09f8e7d6c5b4a3928170615", Tag: "20.15.1-bookworm-slim", Pinned: true, Stage: "build", Loc: loc(hardened, 5)},
				{Ref: "gcr.io/distroless/nodejs20-debian12:nonroot@sha256:0f1e2d3c4b5a69788796a5b4c3d2e1f00f1e2d3c4b5a69788796a5b4c3d2e1f0", Tag: "nonroot", Pinned: true, Stage: "runtime", Loc: loc(hardened, 12)},
			},
			FinalUser: &model.Str{Value: "65532:65532", Loc: loc(hardened, 17)},
			RunUser:   &model.Str{Value: "65532:65532", Loc: loc(hardened, 17)},
			Env: []model.EnvVar{
				{Name: "NODE_IMAGE", Loc: loc(hardened, 3)},
				{Name: "NODE_ENV", Loc: loc(hardened, 14)},
			},
		},
	}}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			data, err := os.ReadFile("../../" + tt.path)
			if err != nil {
				t.Fatal(err)
			}
			doc := collect(t, tt.path, data)
			if diff := cmp.Diff([]model.Image{tt.wantImage}, doc.Images); diff != "" {
				t.Errorf("images (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.wantCreds, doc.Credentials); diff != "" {
				t.Errorf("credentials (-want +got):\n%s", diff)
			}
		})
	}
}

func TestMatchSkipsSourceCode(t *testing.T) {
	for p, want := range map[string]bool{
		"Dockerfile": true, "build/Dockerfile.dev": true, "app.Dockerfile": true, "Containerfile": true,
		"collectors/dockerfile/dockerfile.go": false, "dockerfile_test.py": false, "Dockerfile.md": false, "docs/dockerfile.json": false,
	} {
		if got := (Collector{}).Match(p); got != want {
			t.Errorf("Match(%q) = %v, want %v", p, got, want)
		}
	}
}
