package firewall

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/sandbox-audit/sandbox-audit/model"
)

// A launcher script's docker run is a workload at its command: options,
// image, command; an agent it starts with approval bypassed is an agents[]
// entry; a script that runs the agent on its own machine adds none, and
// neither do a docker build or a docker ps.
func TestDockerRuns(t *testing.T) {
	src := `#!/usr/bin/env bash
set -euo pipefail
IMAGE=example/codex-box:1
ARGS=(--cap-add NET_ADMIN -v "$HOME/.codex:/root/.codex")
docker build -t "$IMAGE" .
docker ps
sudo docker --context ci run --rm -it --name box \
  --memory 4g "${ARGS[@]}" -e OPENAI_API_KEY -e GH_TOKEN="$GITHUB_TOKEN" -e MODE=fast \
  -v "$(pwd):/workspace" -v /var/run/docker.sock:/var/run/docker.sock \
  --network=host --device /dev/kvm -l team=ai \
  "$IMAGE" codex --dangerously-bypass-approvals-and-sandbox exec "$1"
podman container run --privileged --entrypoint bash alpine:3 -c 'claude --dangerously-skip-permissions -p go'
claude --dangerously-skip-permissions -p "on the host"
`
	var doc model.Document
	if err := New().Collect(context.Background(), "scripts/run.sh", []byte(src), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Workloads) != 2 {
		t.Fatalf("workloads = %d, want 2: %+v", len(doc.Workloads), doc.Workloads)
	}
	w := doc.Workloads[0]
	var mounts, env []string
	for _, m := range w.Mounts {
		mounts = append(mounts, fmt.Sprintf("%s %s:%s rel=%q", m.Type, m.Source, m.Target, m.WorkspaceRel))
	}
	for _, e := range w.Env {
		env = append(env, fmt.Sprintf("%s from=%s sens=%v host=%v", e.Name, e.FromHost, e.SensitiveName, e.HostSensitive))
	}
	got := map[string]any{
		"id": w.ID, "source": w.Source, "name": w.Name, "image": w.Image.Value, "line": w.Line,
		"caps": w.CapAdd[0].Value, "host_network": w.HostNetwork != nil && w.HostNetwork.Value,
		"devices": w.Devices[0].Value, "labels": w.Labels, "mounts": mounts, "env": env,
		"command": w.Commands[0].Text,
	}
	want := map[string]any{
		"id": "script:scripts/run.sh:7", "source": "script", "name": "box", "image": "example/codex-box:1", "line": 7,
		"caps": "NET_ADMIN", "host_network": true, "devices": "/dev/kvm", "labels": map[string]string{"team": "ai"},
		"mounts": []string{
			`bind $HOME/.codex:/root/.codex rel=""`,
			`bind $PWD:/workspace rel="."`,
			`bind /var/run/docker.sock:/var/run/docker.sock rel=""`,
		},
		"env": []string{
			"OPENAI_API_KEY from=OPENAI_API_KEY sens=true host=true",
			"GH_TOKEN from=GITHUB_TOKEN sens=true host=true",
			"MODE from= sens=false host=false",
		},
		"command": `codex --dangerously-bypass-approvals-and-sandbox exec $1`,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("docker run (-want +got):\n%s", diff)
	}
	p := doc.Workloads[1]
	if p.Privileged == nil || !p.Privileged.Value || p.Image.Value != "alpine:3" || p.Name != "alpine:3" || !strings.HasPrefix(p.Commands[0].Text, "bash -c") {
		t.Errorf("podman run = %+v", p)
	}
	wantAgents(t, doc,
		"codex --dangerously-bypass-approvals-and-sandbox 7 container started by scripts/run.sh",
		"claude-code --dangerously-skip-permissions 12 container started by scripts/run.sh",
	)
}

// A script of another shell that starts no container is left alone; one
// that starts containers and does not parse is an error at its line.
func TestDockerRunsMalformed(t *testing.T) {
	var doc model.Document
	if err := New().Collect(context.Background(), "tools/zsh-prompt.sh", []byte("setopt x\nfor i ({1..3}) echo $i\n"), &doc); err != nil {
		t.Errorf("a zsh script that starts nothing: err = %v, want nil", err)
	}
	err := New().Collect(context.Background(), "run.sh", []byte("docker run -it x\nif then fi\n"), &doc)
	if err == nil || !strings.Contains(err.Error(), "2") {
		t.Errorf("err = %v, want a parse error at line 2", err)
	}
	if len(doc.Workloads) != 0 {
		t.Errorf("workloads = %+v, want none", doc.Workloads)
	}
}

// An agent a compose service, a pod or a devcontainer's lifecycle command
// starts with approval bypassed is an agents[] entry at the command; one
// run on the host (initializeCommand) or with its defaults is none.
func TestCommandAgents(t *testing.T) {
	at := func(line int) model.Loc { return model.Loc{File: "compose.yaml", Line: line} }
	doc := model.Document{Workloads: []model.Workload{
		{Source: "compose", Name: "agent", Commands: []model.Command{{Phase: "command", Text: "sh -c 'npm ci && claude --dangerously-skip-permissions -p go'", Loc: at(4)}}},
		{Source: "kubernetes", Name: "box/main", Commands: []model.Command{{Phase: "entrypoint", Text: "codex exec --yolo fix", Loc: at(9)}}},
		{Source: "devcontainer", Name: "dev", Commands: []model.Command{
			{Phase: "initialize", OnHost: true, Text: "claude --dangerously-skip-permissions", Loc: at(12)},
			{Phase: "postCreate", Text: "claude -p hello", Loc: at(13)},
		}},
		{Source: "script", Name: "x", Commands: []model.Command{{Phase: "command", Text: "claude --dangerously-skip-permissions", Loc: at(20)}}},
	}}
	New().Link(&doc)
	wantAgents(t, doc,
		"claude-code --dangerously-skip-permissions 4 compose service agent command",
		"codex --yolo 9 Kubernetes container box/main entrypoint",
	)
}

// Options the script takes from arrays or variables it does not give are
// skipped: the image is the first word that is no option.
func TestDockerRunSpreads(t *testing.T) {
	src := "#!/bin/bash\nif [ -n \"$X\" ]; then EXTRA=(-v /a:/a); fi\n" +
		"exec docker run --rm \"${VOLUMES[@]}\" ${opt_args[@]+\"${opt_args[@]}\"} $DOCKER_OPTS \"${EXTRA[@]}\" \"$IMAGE_NAME\" claude -p hi\n"
	var doc model.Document
	if err := New().Collect(context.Background(), "bin/claude-box", []byte(src), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Workloads) != 1 {
		t.Fatalf("workloads = %+v", doc.Workloads)
	}
	w := doc.Workloads[0]
	if w.Image == nil || w.Image.Value != "$IMAGE_NAME" || len(w.Mounts) != 1 || w.Mounts[0].Source != "/a" || w.Commands[0].Text != "claude -p hi" {
		t.Errorf("image %v, mounts %+v, commands %+v", w.Image, w.Mounts, w.Commands)
	}
	// without a shebang an extensionless file is no script
	var none model.Document
	if err := New().Collect(context.Background(), "bin/claude-box", []byte("docker run img claude\n"), &none); err != nil || len(none.Workloads) != 0 {
		t.Errorf("no shebang: err %v, workloads %+v", err, none.Workloads)
	}
}

// An image whose entrypoint script, copied from its build context, hands
// the work to a non-root user drops to it; one whose entrypoint runs the
// agent as it is does not.
func TestImageDrops(t *testing.T) {
	var doc model.Document
	c := New()
	for p, src := range map[string]string{
		"docker/entrypoint.sh": "#!/bin/sh\nchown -R node /home/node\nexec gosu node \"$@\"\n",
		"other/start.sh":       "#!/bin/sh\nexec claude \"$@\"\n",
	} {
		if err := c.Collect(context.Background(), p, []byte(src), &doc); err != nil {
			t.Fatal(err)
		}
	}
	ep := func(file, text string, line int) *model.Str {
		return &model.Str{Value: text, Loc: model.Loc{File: file, Line: line}}
	}
	doc.Images = []model.Image{
		{Loc: model.Loc{File: "docker/Dockerfile", Line: 1}, Entrypoint: ep("docker/Dockerfile", "/usr/local/bin/entrypoint.sh", 9),
			Copies: []model.Copy{{Sources: []string{"entrypoint.sh"}, Dest: "/usr/local/bin/entrypoint.sh"}}},
		{Loc: model.Loc{File: "other/Dockerfile", Line: 1}, Entrypoint: ep("other/Dockerfile", "/start.sh", 5),
			Copies: []model.Copy{{Sources: []string{"start.sh"}, Dest: "/start.sh"}}},
		{Loc: model.Loc{File: "inline/Dockerfile", Line: 1}, Entrypoint: ep("inline/Dockerfile", "su-exec agent claude", 4)},
	}
	c.Link(&doc)
	var got []string
	for _, img := range doc.Images {
		d := "-"
		if img.DropsTo != nil {
			d = fmt.Sprintf("%s@%s:%d", img.DropsTo.Value, img.DropsTo.File, img.DropsTo.Line)
		}
		got = append(got, img.File+" "+d)
	}
	want := []string{"docker/Dockerfile node@docker/entrypoint.sh:3", "other/Dockerfile -", "inline/Dockerfile agent@inline/Dockerfile:4"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("drops (-want +got):\n%s", diff)
	}
}

// The same options and image started from two branches are one container.
func TestDockerRunSameContainerOnce(t *testing.T) {
	src := "#!/bin/bash\nA=(--rm -v \"$PWD:/w\")\nif [ -n \"$1\" ]; then\n  podman run \"${A[@]}\" box claude -p \"$1\"\nelse\n  podman run \"${A[@]}\" box\nfi\ndocker run --rm other\n"
	var doc model.Document
	if err := New().Collect(context.Background(), "run.sh", []byte(src), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Workloads) != 2 || len(doc.Workloads[0].Commands) != 1 || doc.Workloads[1].Image.Value != "other" {
		t.Errorf("workloads = %+v", doc.Workloads)
	}
}

// An image the script builds and then runs is built from the script's
// Dockerfile: the run's workload carries that build, so the image's user,
// sudoers and entrypoint speak for the container.
func TestDockerRunBuild(t *testing.T) {
	src := "#!/bin/bash\nIMG=agent-box\ndocker build -t \"$IMG\" -t agent-box:1 --build-arg U=1000 docker/\n" +
		"docker buildx build -f ci/Dockerfile.ci -t ci-box \"$(dirname \"$0\")\"\ndocker build -t remote https://example.com/x.git\n" +
		"docker run --rm agent-box claude -p x\ndocker run --rm agent-box:1\ndocker run ci-box:latest\ndocker run remote\ndocker run alpine\n"
	var doc model.Document
	if err := New().Collect(context.Background(), "bin/launch.sh", []byte(src), &doc); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, w := range doc.Workloads {
		b := "-"
		if w.Build != nil {
			b = fmt.Sprintf("%s ctx=%s @%d", w.Build.Dockerfile, w.Build.Context, w.Build.Line)
		}
		got = append(got, w.Image.Value+" "+b)
	}
	want := []string{
		"agent-box docker/Dockerfile ctx=docker @3",
		"agent-box:1 docker/Dockerfile ctx=docker @3",
		"ci-box:latest ci/Dockerfile.ci ctx=bin @4",
		"remote -",
		"alpine -",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("builds (-want +got):\n%s", diff)
	}
}

// A script the image's entrypoint runs that starts the agent with
// approval bypassed is an agents[] entry in the image's containers; the
// same script no Dockerfile runs is none (a developer's own command).
func TestEntrypointAgents(t *testing.T) {
	var doc model.Document
	c := New()
	for p, src := range map[string]string{
		"entrypoint.sh":       "#!/bin/bash\nset -e\nexec claude --dangerously-skip-permissions \"$@\"\n",
		"scripts/yolo-dev.sh": "#!/bin/bash\nclaude --dangerously-skip-permissions\n",
	} {
		if err := c.Collect(context.Background(), p, []byte(src), &doc); err != nil {
			t.Fatal(err)
		}
	}
	if len(doc.Agents) != 0 {
		t.Fatalf("agents before Link = %+v, want none", doc.Agents)
	}
	doc.Images = []model.Image{{Loc: model.Loc{File: "Dockerfile", Line: 1},
		Entrypoint: &model.Str{Value: "/usr/local/bin/entrypoint.sh", Loc: model.Loc{File: "Dockerfile", Line: 9}},
		Copies:     []model.Copy{{Sources: []string{"entrypoint.sh"}, Dest: "/usr/local/bin/"}}}}
	c.Link(&doc)
	wantAgents(t, doc, "claude-code --dangerously-skip-permissions 3 script entrypoint.sh, the entrypoint of Dockerfile")
	if doc.Agents[0].Workload != "image:Dockerfile" {
		t.Errorf("workload = %q", doc.Agents[0].Workload)
	}
}
