package compose

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/sandbox-audit/sandbox-audit/model"
)

func TestWorkspaceRel(t *testing.T) {
	tests := []struct{ file, src, want string }{
		{".devcontainer/docker-compose.yml", "..", "."},
		{".devcontainer/docker-compose.yml", "../..", ".."},
		{".devcontainer/docker-compose.yml", "../src", "src"},
		{"repo/.devcontainer/compose.yml", "../..", ".."},
		{"repo/.devcontainer/compose.yml", "../../..", "../.."},
		{"docker-compose.yml", ".", "."},
		{"docker-compose.yml", "..", ".."},
		{"svc/compose.yaml", "..", "."},
		{"svc/compose.yaml", "/abs", ""},
		{"svc/compose.yaml", "named", ""},
	}
	for _, tt := range tests {
		if got := workspaceRel(tt.file, tt.src); got != tt.want {
			t.Errorf("workspaceRel(%q, %q) = %q, want %q", tt.file, tt.src, got, tt.want)
		}
	}
}

func TestBuildAndCommands(t *testing.T) {
	src := `services:
  agent:
    build:
      context: ..
      dockerfile: .devcontainer/Dockerfile
    entrypoint: ["/bin/sh", "-c", "sudo /usr/local/bin/init-firewall.sh && exec sleep infinity"]
    command: ./relative.sh
  tool:
    build: ./tool
`
	var doc model.Document
	if err := New().Collect(context.Background(), ".devcontainer/compose.yml", []byte(src), &doc); err != nil {
		t.Fatal(err)
	}
	at := func(n int) model.Loc { return model.Loc{File: ".devcontainer/compose.yml", Line: n} }
	if diff := cmp.Diff(&model.Build{Dockerfile: ".devcontainer/Dockerfile", Context: ".", Loc: at(3)}, doc.Workloads[0].Build); diff != "" {
		t.Errorf("agent build (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(&model.Build{Dockerfile: ".devcontainer/tool/Dockerfile", Context: ".devcontainer/tool", Loc: at(9)}, doc.Workloads[1].Build); diff != "" {
		t.Errorf("tool build (-want +got):\n%s", diff)
	}
	want := []model.Command{
		{Phase: "entrypoint", Text: "/bin/sh -c sudo /usr/local/bin/init-firewall.sh && exec sleep infinity", Scripts: []string{"/usr/local/bin/init-firewall.sh"}, SudoScripts: []string{"/usr/local/bin/init-firewall.sh"}, Loc: at(6)},
		// A relative script depends on the image's working directory.
		{Phase: "command", Text: "./relative.sh", Loc: at(7)},
	}
	if diff := cmp.Diff(want, doc.Workloads[0].Commands); diff != "" {
		t.Errorf("commands (-want +got):\n%s", diff)
	}
}
